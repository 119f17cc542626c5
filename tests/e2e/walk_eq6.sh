#!/usr/bin/env bash
# End-to-end test of probes random-walk and bandwidth on simulator models whose truth is known:
# the Eq. 6 fit of the varying-size random walk must recover the model's cache sizes and
# latencies (tests/models/walk_levels.json: a 16 KB LRU L1, hit 30, over a 512 KB random-
# replacement L2, hit 200, DRAM 450, the L1 holding 512 B of a local walk's lane, whose words
# the warp interleaves; the hopper model's 2 KB and 32 KB constant caches), quick
# within the resolution of two sizes per octave, --thorough closer; the walkers sweep must find
# the saturation of a model whose DRAM serves 2 accesses/ns; and the copy kernels must report the
# model's bandwidth, cudaMemcpy and their ratio.
set -u
. "$(dirname "$0")/common.bash"
MODEL="sim:$SRC/tests/models/walk_levels.json"

# check NAME JSON PYTHON-ASSERTIONS: fig(k) is a figure's value, fail(msg) records a failure
check() {
  $PY - "$2" "$SRC/docs/gpusonar-1.schema.json" "$1" <<PYEOF || fails=$((fails+1))
import json, sys
doc = json.load(open(sys.argv[1]))
from e2e_doc import validate
validate(doc, sys.argv[2])
figs = {}
for p in doc["probes"]:
    figs.update(p["figures"])
bad = []
def fig(k):
    v = figs.get(k, {}).get("value")
    if v is None:
        sys.exit("FAIL %s: %s not determined: %s" % (sys.argv[3], k, figs.get(k, {}).get("reason")))
    return v
def near(k, got, want, tol):
    if abs(got - want) > tol * abs(want):
        bad.append("%s = %.4g, truth %.4g (tolerance %.0f%%)" % (k, got, want, tol * 100))
$3
if bad:
    print("FAIL %s:\n  %s" % (sys.argv[3], "\n  ".join(bad)))
    sys.exit(1)
print("ok   %s" % sys.argv[3])
PYEOF
}

SEED=5   # run NAME ARGS... (common.bash) seeds with it

if run quick run random-walk --device "$MODEL" --walkers-max 2048 --lanes 1 \
       --walker-accesses 256; then
  check quick "$T/quick.json" '
caps, lats = fig("global_capacities_bytes"), fig("global_latencies_cycles")
if len(caps) != 2: bad.append("levels %d, truth 2 (%s)" % (len(caps), caps))
else:
    near("L1 size", caps[0], 16384, 0.15); near("L2 size", caps[1], 524288, 0.15)
    near("L1 latency", lats[0], 31, 0.05); near("L2 latency", lats[1], 201, 0.05)
    near("DRAM latency", lats[2], 451, 0.1)
near("shared latency", fig("shared_latency_cycles"), 26, 0.05)
# local memory interleaves a warp 4 bytes at a time across its 32 lanes: one lane walking 4-byte
# elements takes a 128-B line of the 16 KB L1 for each, so the L1 holds 512 B of the lane array
lcaps, llats = fig("local_capacities_bytes"), fig("local_latencies_cycles")
if len(lcaps) != 1: bad.append("local levels %d, truth 1 below 16 KB (%s)" % (len(lcaps), lcaps))
else:
    near("local L1 size, in one lane bytes", lcaps[0], 16384 / 32, 0.15)
    near("local L1 latency", llats[0], 31, 0.05)
    l2 = figs["local_level2_latency_cycles"]
    if not abs(l2["value"] - 201) <= l2["ci95"]:
        bad.append("local L2 latency %.1f +- %.1f misses 201" % (l2["value"], l2["ci95"]))
# DRAM serves 2 accesses/ns, one walker 1 per 450 cycles at 1.5 GHz: saturation near 600 walkers
# (one lane each: the simulator queues warp accesses, not lanes)
if not 300 <= fig("walkers_saturation") <= 1200:
    bad.append("walkers_saturation %s, truth about 600" % fig("walkers_saturation"))
near("peak throughput", fig("walkers_peak_accesses_per_ns"), 2.0, 0.1)
# loaded latency at saturation by the law of Little: walkers / (2 accesses/ns) x 1.5 cycles/ns, the
# mean of four chases
near("loaded latency", fig("walkers_latency_at_saturation_cycles"),
     fig("walkers_saturation") / 2.0 * 1.5, 0.05)
'
fi

if run thorough run random-walk --device "$MODEL" --thorough --walkers-max 0; then
  check thorough "$T/thorough.json" '
caps, lats = fig("global_capacities_bytes"), fig("global_latencies_cycles")
if len(caps) != 2: bad.append("levels %d, truth 2 (%s)" % (len(caps), caps))
else:
    near("L1 size", caps[0], 16384, 0.1); near("L2 size", caps[1], 524288, 0.1)
    near("L1 latency", lats[0], 31, 0.03); near("L2 latency", lats[1], 201, 0.03)
    near("DRAM latency", lats[2], 451, 0.06)
'
fi

if run constant run random-walk --device sim:hopper --max-size 64KB --walkers-max 0; then
  check constant "$T/constant.json" '
caps, lats = fig("constant_capacities_bytes"), fig("constant_latencies_cycles")
if len(caps) != 2: bad.append("constant levels %d, truth 2 (%s)" % (len(caps), caps))
else:
    near("const1 size", caps[0], 2048, 0.15); near("const2 size", caps[1], 32768, 0.15)
    near("const1 latency", lats[0], 25, 0.05); near("const2 latency", lats[1], 63, 0.08)
'
fi

if run bandwidth run bandwidth --device "$MODEL"; then
  check bandwidth "$T/bandwidth.json" '
near("best copy", fig("best_copy_gbps"), 500 * 0.95, 0.03)
near("memcpy", fig("memcpy_d2d_gbps"), 460, 0.03)
near("ratio", fig("copy_over_memcpy"), 475 / 460, 0.03)
near("copy 1B dynamic", fig("copy_1B_dynamic_gbps"), 500 * 0.3 * 0.9, 0.03)
near("h2d", fig("h2d_gbps"), 12, 0.03)
if "16-byte" not in fig("best_copy_config") or "constant" not in fig("best_copy_config"):
    bad.append("best_copy_config %s" % fig("best_copy_config"))
'
  $B report --from "$T/bandwidth.json" | grep -q "best copy kernel / memcpy = 1.0" ||
    { echo "FAIL bandwidth: the summary lacks the memcpy ratio"; fails=$((fails+1)); }
fi

# A model without the section: the probe fails and says which section is missing.
if "$B" run bandwidth --device sim:"$SRC/tests/models/cache_noisy.json" -q >/dev/null \
     2>"$T/err"; then
  echo "FAIL no-section: exit status 0"; fails=$((fails+1))
elif ! grep -q '"bandwidth"' "$T/err"; then
  echo "FAIL no-section: message does not name the section:"; cat "$T/err"; fails=$((fails+1))
else
  echo "ok   no-section"
fi

exit $((fails > 0))
