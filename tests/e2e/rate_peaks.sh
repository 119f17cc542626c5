#!/usr/bin/env bash
# End-to-end test of the peak check (src/analysis/rate_peak.c, src/probes/peak_check.c): on a
# model whose fp64 pipe issues twice the lanes its architecture's whitepaper gives, every fp64
# rate of `pipeline` is not determined with the peak and its source in the reason, and the fp32
# rates are kept with their peak and fraction; on the hopper model, whose rates are the
# whitepaper's, no rate of pipeline or mem-bandwidth is refused, and mem-bandwidth names its
# fastest L1 read kernel (the simulator's one); every document validates.
set -u
. "$(dirname "$0")/common.bash"

run() { # NAME DEVICE ARGS...
  local name=$1 dev=$2
  shift 2
  if ! "$B" run "$@" --device "sim:$dev" --seed 3 -q --json "$T/$name.json" >/dev/null 2>"$T/err"; then
    echo "FAIL $name: exit status"; sed 's/^/  /' "$T/err"; fails=$((fails+1)); return 1
  fi
}

if run above "$SRC/tests/models/pipeline_above_peak.json" pipeline --types ffma,dfma &&
   run hopper_pipe hopper pipeline --types ffma,dfma,hfma2,sfu-sin &&
   run hopper_mem hopper mem-bandwidth; then
  "$PY" - "$T" "$SRC/docs/gpusonar-1.schema.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
import jsonschema
T, schema = sys.argv[1], json.load(open(sys.argv[2]))
bad = 0
def fail(msg):
    global bad
    bad += 1
    print("FAIL " + msg)
docs = {n: json.load(open(f"{T}/{n}.json")) for n in ("above", "hopper_pipe", "hopper_mem")}
for n, d in docs.items():
    try:
        jsonschema.validate(d, schema)
    except jsonschema.ValidationError as e:
        fail(f"{n}: schema: {e.message}")
figs = docs["above"]["probes"][0]["figures"]
for ilp in (1, 2, 4):
    f = figs.get(f"dfma_ilp{ilp}_gops", {})
    r = f.get("reason", "")
    if f.get("value") is not None or "above the peak of 16,727 Gop/s" not in r \
            or "64 fp64 lanes per SM" not in r or "x 132 SMs x 1,980 MHz" not in r:
        fail(f"dfma ilp {ilp} at twice its peak is not refused with its peak: {f}")
    f = figs.get(f"ffma_ilp{ilp}_gops", {})
    pk = f.get("peak") or {}
    if f.get("value") is None or not (0.9 <= (pk.get("fraction") or 0) <= 1.005) \
            or "128 fp32 lanes per SM" not in pk.get("source", ""):
        fail(f"ffma ilp {ilp} at its peak is not kept with its fraction: {f}")
f = figs.get("dfma_peak_ops_per_cycle_per_sm", {})
if f.get("value") is not None:
    fail(f"dfma per clock per SM at twice its peak kept: {f}")
checked = 0
for n in ("hopper_pipe", "hopper_mem"):
    for name, f in docs[n]["probes"][0]["figures"].items():
        if "peak" in f:
            checked += 1
        if "above the peak" in (f.get("reason") or ""):
            fail(f"{n} {name} refused on the hopper model: {f['reason']}")
# mem-bandwidth keeps each L1 read kernel's best and names the fastest; the simulator has one
mb = docs["hopper_mem"]["probes"][0]["figures"]
if (mb.get("l1_read_kernel") or {}).get("value") != "wrapped" or \
        "peak" not in mb.get("l1_read_kernel_wrapped_gbps", {}):
    fail(f"the L1 read kernels are not recorded: {mb.get('l1_read_kernel')}")
if checked < 20:
    fail(f"only {checked} of the hopper model's rates carry a peak")
sys.exit(1 if bad else 0)
PYEOF
fi

[ "$fails" -eq 0 ] && echo "rate_peaks: all passed" || echo "rate_peaks: $fails failed"
exit $((fails > 0))
