# End-to-end test of --concurrent: a device list measured at once (one process per device) gives
# the same figures as one device after another, one document each, marked with how many ran at
# once; the text reports come out whole, in list order; probes that use the host link wait for
# the lock another process holds while others do not; Ctrl-C leaves every document written and
# marked incomplete; usage errors are caught before anything is measured.
source "$(dirname "$0")/common.bash"
probes="clock,bandwidth,smem-banks,pipeline"
devs="sim:hopper,fermi"
check() { # check LABEL WANT GOT
  [ "$2" = "$3" ] || { echo "FAIL $1: expected $2, got $3"; fails=$((fails+1)); }
}

$B report -q --probes $probes --device $devs --out-dir "$T/seq" > "$T/seq.txt"
check "one after another" 0 $?
$B report --probes $probes --device $devs --concurrent --out-dir "$T/con" > "$T/con.txt" 2> "$T/con.err"
check "concurrent exit status" 0 $?
check "concurrent documents" 2 "$(ls "$T"/con/*.json | wc -l)"
grep -q "measuring 2 devices at once" "$T/con.err" || { echo "FAIL: no notice"; fails=$((fails+1)); }
for f in "$T"/seq/*.json; do
  g="$T/con/$(basename "$f")"
  $B compare "$f" "$g" > "$T/cmp.txt"
  check "figures agree with the one-at-a-time run ($(basename "$f"))" 0 $?
  $PY - "$g" "$SRC/docs/gpusonar-1.schema.json" <<'PY' || fails=$((fails+1))
import json, sys, jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.validate(d, json.load(open(sys.argv[2])))
if d["environment"].get("concurrent_devices") != 2 or not d["complete"]:
    sys.exit("FAIL: concurrent_devices or complete: %r" % d["environment"])
PY
done
# The same reports, whole and in list order (the times in them differ).
norm() { grep -v '^20..-' "$1" | sed -E 's/, [0-9.]+ s, SM clock/, SM clock/'; }
check "text reports" "$(norm "$T/seq.txt" | md5sum)" "$(norm "$T/con.txt" | md5sum)"
grep -q '"concurrent_devices"' "$T"/seq/*.json && { echo "FAIL: sequential run marked concurrent"; fails=$((fails+1)); }

# The host-link lock: while another process holds it shared (running an ordinary probe), bandwidth
# (a host-link probe) waits and clock does not; while it is held exclusive, clock waits too.
touch "$T/lock"
flock -s "$T/lock" sleep 3 &
sleep 0.5
s=$(date +%s.%N)
GS_HOST_LINK_LOCK="$T/lock" $B run clock -q --device sim:hopper --json "$T/c.json" > /dev/null
m=$(date +%s.%N)
GS_HOST_LINK_LOCK="$T/lock" $B run bandwidth -q --device sim:hopper --json "$T/b.json" > /dev/null
e=$(date +%s.%N)
wait
$PY -c "import sys; a, b, c = map(float, sys.argv[1:]); sys.exit(0 if b - a < 1.5 and c - a > 2.0 else 1)" "$s" "$m" "$e" ||
  { echo "FAIL host-link lock: clock took $(echo "$m $s" | awk '{print $1-$2}') s, bandwidth ended after $(echo "$e $s" | awk '{print $1-$2}') s"; fails=$((fails+1)); }
flock "$T/lock" sleep 2 &
sleep 0.5
s=$(date +%s.%N)
GS_HOST_LINK_LOCK="$T/lock" $B run clock -q --device sim:hopper --json "$T/c.json" > /dev/null
e=$(date +%s.%N)
wait
$PY -c "import sys; a, c = map(float, sys.argv[1:]); sys.exit(0 if c - a > 1.2 else 1)" "$s" "$e" ||
  { echo "FAIL host-link lock: clock ran beside an exclusive holder"; fails=$((fails+1)); }

# Ctrl-C after the first probe: every process writes what it measured, marked incomplete.
GS_TEST_INTERRUPT_AFTER=1 $B report -q --probes $probes --device $devs --concurrent --out-dir "$T/int" > /dev/null 2>&1
check "interrupted exit status" 130 $?
check "interrupted documents" 2 "$(ls "$T"/int/*.json 2>/dev/null | wc -l)"
for f in "$T"/int/*.json; do
  $PY -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d['complete'] is False and d['probes'][0]['status'] == 'ok' else 1)" "$f" ||
    { echo "FAIL: $f not marked incomplete after its first probe"; fails=$((fails+1)); }
done

# Usage: --concurrent needs a device list and --out-dir; verify does not take it.
$B report -q --device sim:hopper --concurrent --out-dir "$T/x" > /dev/null 2>&1; check "one device" 2 $?
$B report -q --device $devs --concurrent > /dev/null 2>&1; check "no --out-dir" 2 $?
$B verify --concurrent > /dev/null 2>&1; check "verify --concurrent" 2 $?
[ ! -e "$T/x" ] || { echo "FAIL: a usage error made a folder"; fails=$((fails+1)); }

[ $fails -eq 0 ] && echo "concurrent: ok"
exit $((fails > 0))
