#!/usr/bin/env bash
# End-to-end tests of the output people paste: --format text|markdown|csv for report and run,
# `run PROBE` printing only that probe's figures (no report skeleton), units written one way
# ("B", "cycles", "ns", "GB/s") in figures and series, and CSV headers carrying units.
set -u
. "$(dirname "$0")/common.bash"
passes=0
ok() { passes=$((passes+1)); }
bad() { echo "FAIL $*"; fails=$((fails+1)); }

$B run smem-banks --device sim:hopper -q --json "$T/b.json" >"$T/run.txt" 2>"$T/err" || bad "run smem-banks"
grep -q "^== smem-banks ==" "$T/run.txt" && ok || bad "run prints its probe"
grep -q "Performance report" "$T/run.txt" && bad "run prints the report skeleton" || ok
[ "$(wc -l <"$T/run.txt")" -lt 40 ] && ok || bad "run output is $(wc -l <"$T/run.txt") lines"

$B report --from "$T/b.json" --format markdown >"$T/md" || bad "markdown"
grep -q '^| figure | value | method |$' "$T/md" && grep -q '^### smem-banks' "$T/md" && ok || bad "markdown tables"
$B run smem-banks --device sim:hopper -q --format csv >"$T/csv" || bad "csv"
head -1 "$T/csv" | grep -q '^probe,level,status,figure,value,unit,ci95,n,method,reason$' && ok || bad "csv header"
$PY - "$T/csv" <<'PYEOF' || bad "csv rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(r["probe"] == "smem-banks" for r in rows), rows[:2]
assert any(r["figure"] == "banks" and float(r["value"]) > 0 for r in rows), rows
PYEOF
$B run clock --device sim:hopper -q --format yaml >/dev/null 2>"$T/err" && bad "unknown format accepted" || ok
grep -q "format" "$T/err" && ok || bad "unknown format message"

# Units: one spelling each, in every figure and series of every probe. A sweep of the probes'
# documents: the unsanitized simulator build where there is one (common.bash, GS_E2E_SIM), as the
# sanitized binary's `run cache` on this model takes three times as long and the same writers run
# sanitized above and in the other tests.
S=${GPUSONAR_SIM:-$B}
for p in clock smem-banks cache global-patterns bandwidth paths l2-partitions; do
  $S run $p --device sim:hopper -q --json "$T/u_$p.json" >/dev/null 2>&1 || bad "run $p"
done
$PY - "$T"/u_*.json <<'PYEOF' || bad "units"
import json, sys
banned = {"bytes", "byte", "Bytes", "cycle", "clk", "clocks", "sec", "s ", "nanoseconds", "GBps", "gbps", "MB/s"}
for f in sys.argv[1:]:
    for p in json.load(open(f))["probes"]:
        units = [fig["unit"] for fig in p["figures"].values()]
        units += [s[k] for s in p["series"].values() for k in ("x_unit", "y_unit")]
        wrong = [u for u in units if u in banned]
        assert not wrong, (f, p["name"], wrong)
PYEOF

# CSV series carry their units in the header.
$B run clock --device sim:hopper -q --csv "$T/series" >/dev/null || bad "--csv"
head -1 "$T/series/clock-frequency.csv" | grep -q '(' && ok || bad "csv header without units: $(head -1 "$T/series/clock-frequency.csv")"

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
