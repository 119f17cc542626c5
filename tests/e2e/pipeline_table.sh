#!/usr/bin/env bash
# End-to-end test of `gpusonar run pipeline --table` on simulator models: one itable record per
# class with its SASS opcode, whose issue latency, throughput per SM and completion latency agree
# with the model (worked out here from the model file): lambda from full occupancy at ILP 4,
# Lambda from one warp's chain, no completion latency for a store; on a hard copy of hopper
# (jitter 40 cycles per run, lds with a 60-cycle completion against a quarter-cycle issue) too,
# whose table export accel-sim writes into the options it fills;
# the text report's table; a class the model lacks is "not determined"; a class whose kernel fails
# is a failed record and the others run; --types all keeps the sweep's ten types.
set -u
. "$(dirname "$0")/common.bash"

$PY - "$SRC/models/hopper.json" "$T/hard.json" <<'PYEOF'
import json, sys
m = json.load(open(sys.argv[1]))
m["name"] = "hopper-hard"
m["noise"] = {"jitter_cycles": 40}
ins = m["pipeline"]["instructions"]
ins["lds"] = {"units_per_sm": 128, "completion_cycles": 60}
# figures apart from the export reference's, so that the export test sees where each comes from
ins["fmnmx"]["completion_cycles"] = 6; ins["dadd"]["completion_cycles"] = 10
ins["dmul"]["units_per_sm"] = 32
json.dump(m, open(sys.argv[2], "w"))
PYEOF
for model in "$SRC/models/hopper.json" "$T/hard.json"; do
  if ! "$B" run pipeline --table --device "sim:$model" --seed 5 -q --json "$T/t.json" >/dev/null 2>"$T/err"; then
    echo "FAIL pipeline --table on $model:"; cat "$T/err"; fails=$((fails+1)); continue
  fi
  "$PY" - "$model" "$T/t.json" <<'PYEOF' || fails=$((fails+1))
import json, math, sys
model = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
recs = {p["params"]["level"]: p["figures"] for p in doc["probes"] if p["name"] == "itable"}
dev, sec = model["device"], model["pipeline"]
S, ws = sec["schedulers"], dev["warp_size"]
W = dev["max_threads_per_sm"] // ws
bad = 0
def check(what, got, want, tol=0.03):
    global bad
    if got is None or abs(got - want) > tol * abs(want):
        bad += 1
        print(f"FAIL {model['name']} {what}: got {got}, model says {want}")
for name, t in sec["instructions"].items():
    f = recs.get(name)
    if f is None:
        bad += 1; print(f"FAIL {model['name']}: no itable record for {name}"); continue
    lam_s = max(t.get("issue_cycles", 1), ws * S / t["units_per_sm"])
    Lam = t["completion_cycles"]
    # W warps at ILP 4 (pipeline model of the simulator, docs/sim-models.md)
    ipc = W / max(max(Lam, 4 * lam_s) / 4, math.ceil(W / S) * lam_s)
    check(f"{name} lambda", f["lambda_cycles"]["value"], 1 / ipc)
    check(f"{name} ops/cycle/SM", f["ops_per_cycle_per_sm"]["value"], ws * ipc)
    if name in ("sts", "stg"):
        if f["Lambda_cycles"]["value"] is not None or "store" not in f["Lambda_cycles"]["reason"]:
            bad += 1; print(f"FAIL {name}: a store has a completion latency")
    else:
        check(f"{name} Lambda", f["Lambda_cycles"]["value"], max(Lam, lam_s))
    if not f["sass"]["value"] or f["sass"]["value"] == "?":
        bad += 1; print(f"FAIL {name}: no SASS opcode")
if recs["lds"]["sass"]["value"] != "LDS" or recs["popc"]["sass"]["value"] != "POPC":
    bad += 1; print("FAIL: opcodes", recs["lds"]["sass"], recs["popc"]["sass"])
print(model["name"], "table", "ok" if not bad else f"{bad} failed")
sys.exit(1 if bad else 0)
PYEOF
done

# export accel-sim takes the table's figures: SHFL (int), MAX and MUL (fp), ADD and MUL (dp)
"$B" run pipeline --table --device "sim:$T/hard.json" --seed 5 -q --json "$T/h.json" >/dev/null 2>"$T/err" &&
  "$B" export accel-sim "$T/h.json" > "$T/h.config" 2>"$T/err" ||
  { echo "FAIL export of the table"; cat "$T/err"; fails=$((fails+1)); }
"$PY" - "$T/h.json" "$T/h.config" <<'PYEOF' || fails=$((fails+1))
import json, math, sys
r = {p["params"]["level"]: p["figures"] for p in json.load(open(sys.argv[1]))["probes"]
     if p["name"] == "itable"}
lines = open(sys.argv[2]).read().splitlines()
rnd = lambda x: int(math.floor(x + 0.5))
lat = lambda c: rnd(r[c]["Lambda_cycles"]["value"])
init = lambda c: rnd(r[c]["lambda_cycles"]["value"] * 4)
def values(opt):
    (l,) = [l for l in lines if l.startswith(opt + " ")]
    return [int(v) for v in l.split()[1].split(",")]
want = {"-ptx_opcode_latency_int": (5, lat("shfl")), "-ptx_opcode_initiation_int": (5, init("shfl")),
        "-ptx_opcode_latency_fp": (1, lat("fmnmx")), "-ptx_opcode_initiation_fp": (2, init("fmul")),
        "-ptx_opcode_latency_dp": (0, lat("dadd")), "-ptx_opcode_initiation_dp": (2, init("dmul"))}
bad = [(o, values(o), w) for o, w in want.items() if values(o)[w[0]] != w[1]]
print("export of the table", "ok" if not bad else f"FAIL {bad}")
sys.exit(1 if bad else 0)
PYEOF

# the detailed text report holds the table: one row per class with its opcode
"$B" run pipeline --table --types popc,sts,ldg --device sim:hopper -q > "$T/t.txt" 2>"$T/err" ||
  { echo "FAIL --table text"; cat "$T/err"; fails=$((fails+1)); }
grep -q "^Instruction table" "$T/t.txt" && grep -Eq "^  popc +POPC +2 +11 +16$" "$T/t.txt" &&
  grep -Eq "^  sts +STS +0.25 +n/d +128$" "$T/t.txt" ||
  { echo "FAIL: the text report has no instruction table:"; cat "$T/t.txt"; fails=$((fails+1)); }

# kepler has no popc: not determined, the run succeeds
"$B" run pipeline --table --types popc,fadd --device sim:kepler -q --json "$T/k.json" >/dev/null 2>"$T/err" ||
  { echo "FAIL --table on kepler"; cat "$T/err"; fails=$((fails+1)); }
"$PY" -c "
import json,sys
r={p['params']['level']:p['figures'] for p in json.load(open('$T/k.json'))['probes'] if p['name']=='itable'}
sys.exit(0 if r['popc']['lambda_cycles']['value'] is None and r['fadd']['lambda_cycles']['value'] else 1)" ||
  { echo "FAIL: popc on kepler is not 'not determined'"; fails=$((fails+1)); }
# a class whose kernel fails (the model's device_error: a launch error, a bad stamp) is a failed
# record with the reason; the classes after it are still measured, and the run succeeds
$PY - "$SRC/models/hopper.json" "$T/fail.json" <<'PYEOF'
import json, sys
m = json.load(open(sys.argv[1]))
m["pipeline"]["instructions"]["popc"]["device_error"] = "block 0 has a bad stamp"
json.dump(m, open(sys.argv[2], "w"))
PYEOF
"$B" run pipeline --table --types popc,sts,ldg --device "sim:$T/fail.json" -q --json "$T/f.json" \
  >/dev/null 2>"$T/err" || { echo "FAIL --table with a failing class"; cat "$T/err"; fails=$((fails+1)); }
"$PY" -c "
import json,sys
p={p['params']['level']:p for p in json.load(open('$T/f.json'))['probes'] if p['name']=='itable'}
ok = (p['popc']['status'] == 'failed' and 'bad stamp' in (p['popc'].get('message') or '') and
      any('popc failed: issue: block 0 has a bad stamp' in w for w in p['popc']['warnings']) and
      p['popc']['figures']['lambda_cycles']['value'] is None and
      all(p[c]['status'] == 'ok' and p[c]['figures']['lambda_cycles']['value'] for c in ('sts', 'ldg')))
sys.exit(0 if ok else 1)" ||
  { echo "FAIL: a failing class stopped the table or was not recorded failed"; fails=$((fails+1)); }
# the sweep's default types stay the ten: no table class is swept, no itable record
"$B" run pipeline --device sim:hopper -q --json "$T/s.json" >/dev/null 2>"$T/err" ||
  { echo "FAIL pipeline on hopper"; cat "$T/err"; fails=$((fails+1)); }
"$PY" -c "
import json,sys
d=json.load(open('$T/s.json'))['probes']
f=d[0]['figures']
sys.exit(0 if len(d)==1 and 'fadd_lambda_cycles' in f and not any(k.startswith('popc') for k in f) else 1)" ||
  { echo "FAIL: the default sweep measured table classes"; fails=$((fails+1)); }

[ "$fails" -eq 0 ] && echo "pipeline_table: all passed" || echo "pipeline_table: $fails failed"
exit $((fails > 0))
