#!/usr/bin/env bash
# End-to-end test of the pipeline, roofline and divergence probes on simulator models: the CLI's
# lambda, Lambda and ridge point for every instruction type of a model are within 5% of the
# model's own truth (worked out here from the model file, independently of the analysis), the
# roofline's model prediction agrees with the measurement, and divergent paths serialize.
set -u
. "$(dirname "$0")/common.bash"

for model in hopper kepler fermi; do
  if ! "$B" run pipeline --device "sim:$model" --seed 3 -q --json "$T/p_$model.json" >/dev/null 2>"$T/err"; then
    echo "FAIL pipeline on sim:$model:"; cat "$T/err"; fails=$((fails+1)); continue
  fi
  if ! "$B" run roofline --device "sim:$model" --seed 3 -q --json "$T/r_$model.json" >/dev/null 2>"$T/err"; then
    echo "FAIL roofline on sim:$model:"; cat "$T/err"; fails=$((fails+1)); continue
  fi
  "$PY" - "$SRC/models/$model.json" "$T/p_$model.json" "$T/r_$model.json" <<'PYEOF' || fails=$((fails+1))
import json, math, sys
model = json.load(open(sys.argv[1]))
pipe = json.load(open(sys.argv[2]))["probes"][0]
roof = json.load(open(sys.argv[3]))["probes"][0]
dev, sec = model["device"], model["pipeline"]
S, ws = sec["schedulers"], dev["warp_size"]
max_wpb = dev["max_threads_per_block"] // ws
max_warps = dev["max_threads_per_sm"] // ws
grid = [w for w in range(1, max_wpb + 1) if w <= max_warps]
grid += [w for w in range((max_wpb // 4 + 1) * 4, min(max_warps, 2 * max_wpb) + 1, 4)]
bad = 0
def check(what, got, want, tol=0.05):
    global bad
    ok = got is not None and abs(got - want) <= tol * abs(want)
    if not ok:
        bad += 1
        print(f"FAIL {sys.argv[1].split('/')[-1]} {what}: got {got}, model says {want}")
fig = lambda rec, name: rec["figures"].get(name, {}).get("value")
SWEPT = {"fadd", "ffma", "iadd", "imul", "dfma", "sfu-sin", "sfu-rsqrt", "sw-sin", "hfma2", "mma"}
for name, t in sec["instructions"].items():
    if name not in SWEPT:   # the table's classes: tests/e2e/pipeline_table.sh
        continue
    lam_s = max(t.get("issue_cycles", 1), ws * S / t["units_per_sm"])
    Lam = t["completion_cycles"]
    for ilp in (1, 2, 4):
        ipc = lambda w: w / max(max(Lam, ilp * lam_s) / ilp, math.ceil(w / S) * lam_s)
        curve = [ipc(w) for w in grid]
        peak = max(curve)
        ridge = min(w for w, y in zip(grid, curve) if y >= 0.951 * peak)  # 5%, ties of 0.1% outside
        check(f"{name} ilp{ilp} lambda", fig(pipe, f"{name}_ilp{ilp}_lambda_cycles"), 1 / peak)
        check(f"{name} ilp{ilp} cpi_warp", fig(pipe, f"{name}_ilp{ilp}_cpi_warp_cycles"), 1 / min(curve))
        # Lambda at this ILP: ILP x CPI_warp while the chains set the pace; not determined where
        # the warp is issue-bound (its bound exceeds the least over the ILPs by more than 5%).
        bounds = [max(Lam, k * lam_s) for k in (1, 2, 4)]
        got = fig(pipe, f"{name}_ilp{ilp}_Lambda_cycles")
        if max(Lam, ilp * lam_s) <= 1.05 * min(bounds):
            check(f"{name} ilp{ilp} Lambda", got, max(Lam, ilp * lam_s))
        elif got is not None:
            bad += 1
            print(f"FAIL {name} ilp{ilp} Lambda: {got} determined where one warp is issue-bound")
        check(f"{name} ilp{ilp} ridge", fig(pipe, f"{name}_ilp{ilp}_ridge_warps"), ridge)
        if ilp == 1:
            check(f"{name} Lambda(ILP 1) = completion", fig(pipe, f"{name}_Lambda_cycles"), max(Lam, lam_s))
            check(f"{name} roofline ridge", fig(roof, f"{name}_ilp1_ridge_warps"), ridge)
            check(f"{name} roofline model ridge", fig(roof, f"{name}_model_ridge_warps"), ridge)
            check(f"{name} roofline peak", fig(roof, f"{name}_peak_ops_per_cycle_per_sm"), ws * peak)
            err = fig(roof, f"{name}_model_error_percent")
            if err is None or err > 2:
                bad += 1; print(f"FAIL {name}: roofline model error {err}% on a model it matches")
check("schedulers", fig(roof, "schedulers"), S, 0)
sys.exit(1 if bad else 0)
PYEOF
done

# Divergence on the hopper model: 2 paths halve and 32 paths divide the throughput by 32.
if "$B" run divergence --device sim:hopper -q --json "$T/d.json" >/dev/null 2>"$T/err"; then
  "$PY" - "$T/d.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
f = json.load(open(sys.argv[1]))["probes"][0]["figures"]
ok = abs(f["efficiency_2_paths"]["value"] - 0.5) < 0.025 and \
     abs(f["efficiency_32_paths"]["value"] - 1 / 32) < 0.002 and \
     abs(f["serialization_slope"]["value"] - 1) < 0.05
print("divergence", "ok" if ok else f"FAIL {f}")
sys.exit(0 if ok else 1)
PYEOF
else
  echo "FAIL divergence on sim:hopper:"; cat "$T/err"; fails=$((fails+1))
fi

# A model without the instruction: figures are "not determined", the run still succeeds.
"$B" run pipeline --types mma --device sim:kepler -q --json "$T/k.json" >/dev/null 2>"$T/err" ||
  { echo "FAIL pipeline --types mma on kepler"; cat "$T/err"; fails=$((fails+1)); }
"$PY" -c "
import json,sys
f=json.load(open('$T/k.json'))['probes'][0]['figures']['mma_lambda_cycles']
sys.exit(0 if f['value'] is None and 'mma' in f.get('reason','') else 1)" ||
  { echo "FAIL: mma on kepler is not 'not determined'"; fails=$((fails+1)); }
# Bad options: usage errors.
"$B" run pipeline --types fmac --device sim:hopper -q >/dev/null 2>"$T/err"
[ $? -ne 0 ] && grep -q "'fmac' is not an instruction type" "$T/err" ||
  { echo "FAIL: --types fmac is not refused"; fails=$((fails+1)); }
"$B" run divergence --type mma --device sim:hopper -q >/dev/null 2>"$T/err"
[ $? -ne 0 ] && grep -q "converged warp" "$T/err" ||
  { echo "FAIL: divergence --type mma is not refused"; fails=$((fails+1)); }

[ "$fails" -eq 0 ] && echo "pipeline_sim: all passed" || echo "pipeline_sim: $fails failed"
exit $((fails > 0))
