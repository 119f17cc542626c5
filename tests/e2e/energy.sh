#!/usr/bin/env bash
# End-to-end test of probe energy on simulator models whose power and energy counter are known.
# On the built-in hopper model (an NVML-like counter: 100 ms updates, 4 ms reads) the idle power
# and every pJ per operation and byte must read back the model's "energy" section within 2 %; on
# tests/models/energy_coarse.json (200 ms updates in whole joules, +-0.5 J of noise) within the
# probe's own interval (`verify`), and its missing mma_f64 entry is not determined naming it; a
# run too short for the counter's updates is not determined saying so; on a model without the
# section every figure is not determined (mma.sync types only where the compute capability has
# them); bad options are usage errors.
set -u
. "$(dirname "$0")/common.bash"

run() { # NAME ARGS...: run gpusonar into $T/NAME.json, progress into $T/NAME.err
  local name=$1; shift
  if ! "$B" "$@" --seed 5 --json "$T/$name.json" >"$T/$name.txt" 2>"$T/$name.err"; then
    echo "FAIL $name: exit status"; sed 's/^/  /' "$T/$name.err"; fails=$((fails+1)); return 1
  fi
}

# check.py DOC MODEL REL: every stated figure within REL of the model; the rest not determined.
cat >"$T/check.py" <<'PYEOF'
import json, sys
doc, model, rel = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), float(sys.argv[3])
(probe,) = [p for p in doc["probes"] if p["name"] == "energy"]
figs, sec = probe["figures"], model.get("energy")
names = {"ffma": "ffma_pj", "dfma": "dfma_pj", "hfma2": "hfma2_pj", "smem": "smem_read_pj",
         "l1": "l1_read_pj", "l2": "l2_read_pj", "dram": "dram_read_pj", "h2d": "h2d_copy_pj"}
for t in ("f16", "bf16", "tf32", "e4m3", "s8", "f64"):
    names["mma_" + t] = "mma_%s_pj" % t
bad = []
def nd(name, why):
    f = figs.get(name)
    if f is None or f["value"] is not None or why not in f.get("reason", ""):
        bad.append("%s = %s, want not determined: ...%s..." % (name, f and f.get("value"), why))
def near(name, want):
    f = figs.get(name)
    if f is None or f["value"] is None or abs(f["value"] - want) > rel * want:
        bad.append("%s = %s, want %g within %g %%" % (name, f and f.get("value"), want, rel * 100))
if not sec:
    for name in list(names.values()) + ["idle_power_w"]:
        if name in figs or not name.startswith("mma_") or model["device"]["cc_major"] >= 8:
            nd(name, "no energy counter")
else:
    near("idle_power_w", sec["idle_w"])
    for key, name in names.items():
        if key in sec["work"]:
            near(name, sec["work"][key]["pj"])
        else:
            nd(name, "does not give " + key)
for b in bad:
    print("FAIL %s: %s" % (sys.argv[2], b))
sys.exit(1 if bad else 0)
PYEOF

if run hopper run energy -q --device sim:hopper; then
  $PY "$T/check.py" "$T/hopper.json" "$SRC/models/hopper.json" 0.02 || fails=$((fails+1))
fi
coarse=$SRC/tests/models/energy_coarse.json
if run coarse run energy -q --device "sim:$coarse"; then
  $PY "$T/check.py" "$T/coarse.json" "$coarse" 0.5 || fails=$((fails+1))
fi
for model in hopper "$coarse"; do
  if ! "$B" verify -q --probes energy --device "sim:$model" >"$T/v.txt" 2>"$T/v.err"; then
    echo "FAIL verify --probes energy on $model"; sed 's/^/  /' "$T/v.txt" "$T/v.err"
    fails=$((fails+1))
  fi
done
run none run energy -q --device sim:kepler &&
  { $PY "$T/check.py" "$T/none.json" "$SRC/models/kepler.json" 0 || fails=$((fails+1)); }

# Too short for the coarse counter's updates: not determined, saying why.
if run short run energy -q --seconds 0.5 --device "sim:$coarse"; then
  $PY - "$T/short.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
(p,) = json.load(open(sys.argv[1]))["probes"]
f = p["figures"]["ffma_pj"]
if f["value"] is not None or "did not change" not in f.get("reason", ""):
    print("FAIL --seconds 0.5 on the coarse counter: ffma_pj = %s (%s)" % (f["value"], f.get("reason")))
    sys.exit(1)
PYEOF
fi

# Usage errors.
refused sim:hopper energy "--seconds 0.1" "--seconds x" "--parts 2"

if [ "$fails" -ne 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "energy: idle power and pJ per operation and byte read back through the counter's steps"
