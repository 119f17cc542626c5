#!/usr/bin/env bash
# End-to-end tests of progress on stderr: when stderr is not a terminal (a batch job's log), one
# line as each probe starts and one as it ends, no carriage returns or terminal escapes; nothing
# with -q; never on stdout, so --json - gives the document alone.
set -u
. "$(dirname "$0")/common.bash"
passes=0
ok() { passes=$((passes+1)); }
bad() { echo "FAIL $*"; fails=$((fails+1)); }

$B report --device sim:hopper --probes clock,smem-banks,pipeline >"$T/out" 2>"$T/err" \
  || bad "report: $(cat "$T/err")"
for p in "1/3] clock" "2/3] smem-banks" "3/3] pipeline"; do
  grep -q "^gpusonar: \[$p \.\.\." "$T/err" && grep -Eq "^gpusonar: \[$p ok, [0-9.]+ s$" "$T/err" \
    && ok || bad "no start and end lines for $p: $(cat "$T/err")"
done
[ "$(grep -c '^gpusonar: \[' "$T/err")" -eq 6 ] && ok || bad "not one line per start and end"
LC_ALL=C grep -q $'[\r\033]' "$T/err" && bad "carriage return or escape in a log" || ok
grep -q '^gpusonar: \[' "$T/out" && bad "progress on stdout" || ok

$B report --device sim:hopper --probes clock,smem-banks -q >"$T/out" 2>"$T/err" || bad "report -q"
[ -s "$T/err" ] && bad "-q printed: $(cat "$T/err")" || ok

$B report --device sim:hopper --probes clock,smem-banks --json - >"$T/doc.json" 2>"$T/err" \
  || bad "report --json -"
$PY -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/doc.json" && ok || bad "--json - is not JSON alone"
grep -q '^gpusonar: \[2/2\] smem-banks ok' "$T/err" && ok || bad "no progress beside --json -"

echo "progress: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
