#!/usr/bin/env bash
# End-to-end test of probe launch on simulator models whose launch costs are known. On the
# built-in hopper model every figure must read back its "launch" cost (the median within a
# quarter of the model's jitter over 128 repetitions, with an interval), the event resolution
# exactly, and `verify --probes launch` must find nothing wrong; on kepler the cluster barrier is
# not determined for want of cc 9.0 and the grid sync, which the model does not state, names the
# missing key; on a model without the section every figure is not determined; the section's bad
# values are refused naming the key; bad options are usage errors.
set -u
. "$(dirname "$0")/common.bash"

SEED=11   # run NAME ARGS... (common.bash) seeds with it

# check.py DOC MODEL SCHEMA: every stated cost read back; the rest not determined with why.
cat >"$T/check.py" <<'PYEOF'
import json, sys
doc, model = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
from e2e_doc import validate
validate(doc, sys.argv[3])
(probe,) = [p for p in doc["probes"] if p["name"] == "launch"]
figs, sec = probe["figures"], model.get("launch", {})
cc = model["device"]["cc_major"]
jf = sec.get("jitter_fraction", 0)
rows = [("stream_launch_us", "stream_launch_ns", 1e3), ("graph_launch_us", "graph_launch_ns", 1e3),
        ("empty_kernel_complete_us", "complete_ns", 1e3), ("sync_idle_us", "sync_idle_ns", 1e3),
        ("event_round_trip_us", "event_round_trip_ns", 1e3),
        ("event_elapsed_us", "event_elapsed_ns", 1e3), ("grid_sync_ns", "grid_sync_ns", 1),
        ("cluster_sync_ns", "cluster_sync_ns", 1)]
bad, checked = [], 0
def nd(name, why):
    f = figs.get(name)
    if f is None or f["value"] is not None or why not in f.get("reason", ""):
        bad.append("%s = %s, want not determined: ...%s..." % (name, f and f.get("value"), why))
for name, key, scale in rows:
    f = figs.get(name)
    if not sec:
        nd(name, 'no "launch" section')
    elif name == "cluster_sync_ns" and cc < 9:
        nd(name, "needs cc 9.0")
    elif key not in sec:
        nd(name, "does not state " + key)
    else:
        want = sec[key] / scale
        res = sec.get("event_resolution_ns", 0) / scale if key == "event_elapsed_ns" else 0
        tol = want * jf / 4 + res / 2
        if f is None or f["value"] is None or abs(f["value"] - want) > tol:
            bad.append("%s = %s, want %g +- %g" % (name, f and f.get("value"), want, tol))
        elif jf > 0 and not f["ci95"] > 0:
            bad.append("%s: no interval" % name)
        else:
            checked += 1
if "event_resolution_ns" in sec:
    f = figs.get("event_resolution_ns")
    if f is None or f["value"] != sec["event_resolution_ns"]:
        bad.append("event_resolution_ns = %s, want %s" % (f and f["value"], sec["event_resolution_ns"]))
    else:
        checked += 1
for b in bad:
    print("FAIL %s: %s" % (sys.argv[2], b))
sys.exit(1 if bad else 0)
PYEOF

check() { # DOC MODEL
  $PY "$T/check.py" "$1" "$2" "$SRC/docs/gpusonar-1.schema.json" || fails=$((fails+1))
}

run hopper run launch --device sim:hopper --repeats 128 && check "$T/hopper.json" "$SRC/models/hopper.json"
run kepler run launch --device sim:kepler --repeats 128 && check "$T/kepler.json" "$SRC/models/kepler.json"
run fermi run launch --device sim:fermi --repeats 128 && check "$T/fermi.json" "$SRC/models/fermi.json"
run none run launch --device "sim:$SRC/tests/models/cli_minimal.json" &&
  check "$T/none.json" "$SRC/tests/models/cli_minimal.json"

# verify: the truth of the launch section, every figure within its tolerance.
if ! "$B" verify -q --probes launch --device sim:hopper >"$T/verify.txt" 2>"$T/verify.err"; then
  echo "FAIL verify --probes launch on hopper"; sed 's/^/  /' "$T/verify.txt" "$T/verify.err"
  fails=$((fails+1))
elif ! grep -q "stream_launch_us" "$T/verify.txt"; then
  echo "FAIL verify: no launch rows"; sed 's/^/  /' "$T/verify.txt"; fails=$((fails+1))
fi

# The section's values are checked as the model loads.
bad_model() { # NAME SECTION WANT: a hopper copy with "launch": SECTION must fail naming WANT
  $PY - "$SRC/models/hopper.json" "$T/$1.json" "$2" <<'PYEOF'
import json, sys
m = json.load(open(sys.argv[1])); m["launch"] = json.loads(sys.argv[3])
json.dump(m, open(sys.argv[2], "w"))
PYEOF
  if "$B" run launch -q --device "sim:$T/$1.json" >/dev/null 2>"$T/$1.err"; then
    echo "FAIL model $1 was accepted"; fails=$((fails+1))
  elif ! grep -q "$3" "$T/$1.err"; then
    echo "FAIL model $1: message lacks '$3'"; sed 's/^/  /' "$T/$1.err"; fails=$((fails+1))
  fi
}
bad_model zero '{"stream_launch_ns": 0}' "launch.stream_launch_ns: must be > 0"
bad_model unknown '{"launch_ns": 5}' "launch.launch_ns: unknown key"
bad_model resolution '{"event_resolution_ns": 32}' "needs event_elapsed_ns"
bad_model range '{"jitter_fraction": 2}' "launch.jitter_fraction: 2 is out of range"

# Usage errors.
refused sim:hopper launch "--burst 0" "--cluster-size 9" "--repeats 1" "--syncs x"

if [ "$fails" -ne 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "launch: the model's launch, wait and barrier costs read back; absent ones not determined"
