#!/usr/bin/env bash
# End-to-end test of a simulated run on two processes (src/cli/sim_apart.h): the
# document of a split run holds the same records in the same order as one process's
# (GS_SIM_PROCESSES=1), complete; SIGTERM to the first process stops the second and leaves an
# incomplete document; a second process that dies costs its probes a "failed" record, not the run.
set -u
. "$(dirname "$0")/common.bash"
if [ "$(nproc)" -lt 2 ]; then echo "sim_apart: one CPU online, no split to test"; exit 77; fi
PROBES=clock,random-walk,smem-banks
ARGS=(--device sim:hopper -q --probes "$PROBES" --seed 3)

# The two whole runs compare documents, a sweep: the unsanitized simulator build where there is one
# (common.bash, GS_E2E_SIM), a third of the sanitized binary's time on random-walk; the split
# runs below, stopped early, keep the sanitizers on the two processes' code.
S=${GPUSONAR_SIM:-$B}
$S "${ARGS[@]}" --json "$T/split.json" >/dev/null 2>"$T/err" || { echo "FAIL split: exit status"; cat "$T/err"; fails=$((fails+1)); }
GS_SIM_PROCESSES=1 $S "${ARGS[@]}" --json "$T/one.json" >/dev/null 2>"$T/err" || { echo "FAIL one: exit status"; fails=$((fails+1)); }
$PY - "$T/split.json" "$T/one.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
key = lambda d: [(p["name"], p["params"].get("space"), p["status"]) for p in d["probes"]]
assert a["complete"] and b["complete"], (a["complete"], b["complete"])
assert key(a) == key(b), (key(a), key(b))
assert [p["name"] for p in a["probes"]][:2] == ["clock", "random-walk"], key(a)
print("ok   split run: %d records in one process's order" % len(a["probes"]))
PYEOF

# SIGTERM to the first process while both run.
$B --device sim:hopper -q --probes cache,random-walk --json "$T/term.json" >/dev/null 2>"$T/err" &
pid=$!
sleep 2
kill -TERM $pid
wait $pid; status=$?
sleep 0.5
if [ $status -ne 143 ]; then echo "FAIL sigterm: exit status $status, want 143"; fails=$((fails+1)); fi
if pgrep -f "$T/term.json" >/dev/null; then echo "FAIL sigterm: a process is left"; fails=$((fails+1)); fi
$PY - "$T/term.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is False and "SIGTERM" in d["incomplete_reason"], d.get("incomplete_reason")
print("ok   sigterm: incomplete document, %d records" % len(d["probes"]))
PYEOF

# The second process killed: its probe fails, the first's probes stand.
$B --device sim:hopper -q --probes smem-banks,random-walk --json "$T/kill.json" >/dev/null 2>"$T/err" &
pid=$!
child=""
for _ in $(seq 50); do child=$(pgrep -P $pid) && break; sleep 0.05; done
sleep 0.5
[ -n "$child" ] && kill -KILL $child
wait $pid; status=$?
$PY - "$T/kill.json" "$status" <<'PYEOF' || fails=$((fails+1))
import json, sys
d, status = json.load(open(sys.argv[1])), int(sys.argv[2])
st = {p["name"]: (p["status"], p.get("message", "")) for p in d["probes"]}
assert status != 0 and d["complete"] is False, (status, d["complete"])
assert st["smem-banks"][0] == "ok", st
assert st["random-walk"][0] == "failed" and "second process" in st["random-walk"][1], st
print("ok   killed second process: random-walk failed, smem-banks ok")
PYEOF
grep -q "second process" "$T/err" || { echo "FAIL kill: no message on stderr"; fails=$((fails+1)); }
[ $fails -eq 0 ] && echo "sim_apart: ok" || echo "sim_apart: $fails failures"
exit $((fails > 0))
