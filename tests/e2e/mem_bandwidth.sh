#!/usr/bin/env bash
# End-to-end test of probe mem-bandwidth on simulator models whose truth is known: every level's
# figure (L1, L2, DRAM per kind, shared memory), read back from the model file, must come out of
# the footprint sweep within the model's noise; the level boundaries must follow the model's cache
# sizes (a 16 KB L1 and a 1 MB L2 in tests/models/level_bandwidth.json, the hopper model's 192 KB
# and 50 MB); stores at L1 footprints run at the L2's rate (the model writes through) and so give
# no L1 figure, while a model whose L1 serves stores gives one at the L1's rate; the DRAM
# peak comes from the memory clock and bus width; gpu-stream's launch order runs beside the tiles
# and each kind's DRAM figure is the better of the two; probe bandwidth measures a configuration
# again when its interval is wide; a model without "levels" is refused by name.
set -u
. "$(dirname "$0")/common.bash"

# check NAME JSON MODEL WIDTH: compare the probe's figures with the model's "bandwidth.levels".
check() {
  $PY - "$2" "$3" "$SRC/docs/gpusonar-1.schema.json" "$1" "$4" <<'PYEOF' || fails=$((fails+1))
import json, sys
doc, model = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
from e2e_doc import validate
validate(doc, sys.argv[3])
name, width = sys.argv[4], sys.argv[5]
lv = model["bandwidth"]["levels"]
eff = lv.get("width_efficiency", {}).get(width, 1)
dev = model["device"]
figs = {}
for p in doc["probes"]:
    figs.update(p["figures"])
bad = []
def near(k, want, tol=0.04):
    v = figs.get(k, {}).get("value")
    if v is None:
        bad.append("%s not determined: %s" % (k, figs.get(k, {}).get("reason")))
    elif abs(v - want) > tol * want:
        bad.append("%s = %.5g, truth %.5g" % (k, v, want))
w = width + "B"
near("read_%s_l1_gbps" % w, lv["l1_gbps"] * eff)
near("read_%s_l2_gbps" % w, lv["l2_gbps"] * eff)
if lv.get("stores_bypass_l1", True):
    # stores served by the L2 at L1 footprints: no L1 figure for a kind that stores
    for k in ("write", "copy", "scale", "add", "triad"):
        if "%s_%s_l1_gbps" % (k, w) in figs:
            bad.append("%s_%s_l1_gbps given, but the L1 does not serve stores" % (k, w))
    near("write_%s_l2_gbps" % w, lv["l2_gbps"] * eff)
else:
    near("write_%s_l1_gbps" % w, lv["l1_gbps"] * eff)   # a write-back L1 serves them
near("copy_%s_l2_gbps" % w, lv["l2_gbps"] * eff)
for k in ("read", "write", "copy", "scale", "add", "triad"):
    near("%s_%s_dram_gbps" % (k, w), lv["dram_gbps"][k] * eff)
near("smem_read_gbps", lv["smem_gbps"])
near("dram_peak_gbps", 2 * dev["mem_clock_khz"] * 1e3 * dev["mem_bus_bits"] / 8 / 1e9, 1e-9)
best = max(lv.get("width_efficiency", {"16": 1}).values())
# gpu-stream's launch order beside the tiles: its own figure, and each kind's headline DRAM
# figure the better of the two (the model's add and triad run 10 % faster in it, the rest slower)
launch = lv.get("launch_order_dram_gbps")
params = next(p["params"] for p in doc["probes"] if p["name"] == "mem-bandwidth")
arrays = {"read": 1, "write": 1, "copy": 2, "scale": 2, "add": 3, "triad": 3}
heads = {"read": "dram_read_gbps", "write": "dram_write_gbps", "copy": "dram_copy_gbps",
         "scale": "stream_scale_gbps", "add": "stream_add_gbps", "triad": "stream_triad_gbps"}
for k, head in heads.items():
    tiles = lv["dram_gbps"][k] * best               # the best over widths
    if not launch:
        near(head, tiles)
        continue
    per_pass = arrays[k] * params["launch_bytes"]    # one launch a pass, each with its overhead
    rate = per_pass / (per_pass / (launch[k] * 1e9) + lv.get("launch_overhead_us", 0) * 1e-6) / 1e9
    near("%s_8B_dram_launches_gbps" % k, rate)
    near(head, max(tiles, rate))
    said = figs.get(head, {}).get("method", "").startswith("gpu-stream's launch order")
    if said != (rate > tiles):
        bad.append("%s: method %r, but the %s order is faster" %
                   (head, figs.get(head, {}).get("method"), "launch" if rate > tiles else "tile"))
if bad:
    print("FAIL %s:\n  %s" % (name, "\n  ".join(bad)))
    sys.exit(1)
print("ok   %s" % name)
PYEOF
}

SEED=7   # run NAME ARGS... (common.bash) seeds with it

SMALL="$SRC/tests/models/level_bandwidth.json"
if run small run mem-bandwidth --device "sim:$SMALL" --thorough --min-bytes 2KB \
       --max-bytes 16MB --l1-bytes 16KB; then
  check small "$T/small.json" "$SMALL" 4
  check small-16 "$T/small.json" "$SMALL" 16
fi

# The same model with an L1 that serves stores: then a storing kind has its L1 figure.
$PY - "$SMALL" "$T/wb_model.json" <<'PYEOF'
import json, sys
m = json.load(open(sys.argv[1]))
m["bandwidth"]["levels"]["stores_bypass_l1"] = False
json.dump(m, open(sys.argv[2], "w"))
PYEOF
if run write_back run mem-bandwidth --device "sim:$T/wb_model.json" --thorough \
       --min-bytes 2KB --max-bytes 16MB --l1-bytes 16KB; then
  check write-back "$T/write_back.json" "$T/wb_model.json" 16
fi

if run hopper run mem-bandwidth --device sim:hopper --l1-bytes 192KB; then
  $PY - "$T/hopper.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
figs = {}
for p in json.load(open(sys.argv[1]))["probes"]:
    figs.update(p["figures"])
v = lambda k: figs[k]["value"]
bad = []
for k, want in (("l1_read_gbps", 30000), ("l2_read_gbps", 10500), ("dram_read_gbps", 2506),
                ("dram_write_gbps", 3230), ("stream_scale_gbps", 2674),
                ("stream_triad_gbps", 3042), ("smem_read_gbps", 30000)):
    if abs(v(k) - want) > 0.04 * want:
        bad.append("%s = %.5g, model %g" % (k, v(k), want))
if abs(v("dram_efficiency") - 3230 / 3352.32) > 0.04:
    bad.append("dram_efficiency %.3f" % v("dram_efficiency"))
if bad:
    print("FAIL hopper:\n  " + "\n  ".join(bad)); sys.exit(1)
print("ok   hopper")
PYEOF
fi

# Probe bandwidth on hopper with 10 % jitter per repetition: intervals above 1 % of the median
# make it measure those configurations again (params.remeasured), and what it keeps stays within
# the jitter of the model's rate (a repetition takes bytes / rate x (1 + u x 0.1)).
$PY - "$SRC/models/hopper.json" "$T/jitter.json" <<'PYEOF'
import json, sys
m = json.load(open(sys.argv[1]))
m["bandwidth"]["jitter_fraction"] = 0.1
json.dump(m, open(sys.argv[2], "w"))
PYEOF
if "$B" run bandwidth --device sim:"$T/jitter.json" -q --json "$T/bw.json" >/dev/null \
     2>"$T/err"; then
  $PY - "$T/bw.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
p = json.load(open(sys.argv[1]))["probes"][0]
n, d2d = p["params"]["remeasured"], p["figures"]["memcpy_d2d_gbps"]["value"]
if n < 1 or not 2900 / 1.1 <= d2d <= 2900:
    print("FAIL jitter: remeasured %s, memcpy_d2d %.1f (model 2900 / (1 + u 0.1))" % (n, d2d))
    sys.exit(1)
print("ok   jitter: %d configurations measured again, memcpy_d2d %.1f" % (n, d2d))
PYEOF
else
  echo "FAIL jitter: exit status"; cat "$T/err"; fails=$((fails+1))
fi

# With 2 % jitter a configuration's ci95 is about 0.36 % of its median over the default's 10
# repetitions (under 1 %: kept) and 0.15 % over --thorough's 60 (over 0.1 %: measured again).
$PY - "$SRC/models/hopper.json" "$T/jitter2.json" <<'PYEOF'
import json, sys
m = json.load(open(sys.argv[1]))
m["bandwidth"]["jitter_fraction"] = 0.02
json.dump(m, open(sys.argv[2], "w"))
PYEOF
for mode in default thorough; do
  extra=""; [ "$mode" = thorough ] && extra=--thorough
  if "$B" run bandwidth --device sim:"$T/jitter2.json" $extra -q --json "$T/bw2-$mode.json" \
       >/dev/null 2>"$T/err"; then :; else
    echo "FAIL jitter 2 % $mode: exit status"; cat "$T/err"; fails=$((fails+1))
  fi
done
$PY - "$T/bw2-default.json" "$T/bw2-thorough.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
n = [json.load(open(f))["probes"][0]["params"]["remeasured"] for f in sys.argv[1:]]
if n[0] != 0 or n[1] < 1:
    print("FAIL jitter 2 %%: remeasured %d by default (want 0), %d with --thorough (want > 0)"
          % tuple(n))
    sys.exit(1)
print("ok   jitter 2 %%: remeasured %d by default, %d with --thorough" % tuple(n))
PYEOF

# mem-bandwidth on the same model: a DRAM footprint whose median lies beyond 3 scaled MADs (and
# 0.3 %) of the range's is measured once more (params.remeasured_footprints; seed 2 draws four),
# and every DRAM figure stays within the jitter of the model's rate.
if "$B" run mem-bandwidth --device sim:"$T/jitter.json" --seed 2 -q --json "$T/mbj.json" \
     >/dev/null 2>"$T/err"; then
  $PY - "$T/mbj.json" "$T/jitter.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
p = json.load(open(sys.argv[1]))["probes"][0]
levels = json.load(open(sys.argv[2]))["bandwidth"]["levels"]
launch = levels.get("launch_order_dram_gbps", levels["dram_gbps"])
rate = {k: max(v, launch[k]) for k, v in levels["dram_gbps"].items()}   # the better order
n, f, bad = p["params"].get("remeasured_footprints"), p["figures"], []
names = {"read": "dram_read_gbps", "write": "dram_write_gbps", "copy": "dram_copy_gbps",
         "scale": "stream_scale_gbps", "add": "stream_add_gbps", "triad": "stream_triad_gbps"}
for kind, key in names.items():
    v = f[key]["value"]
    if not rate[kind] / 1.1 <= v <= rate[kind]:
        bad.append("%s %.1f (model %g / (1 + u 0.1))" % (key, v, rate[kind]))
if not n or bad:
    print("FAIL jitter mem-bandwidth: remeasured_footprints %s; %s" % (n, "; ".join(bad)))
    sys.exit(1)
print("ok   jitter mem-bandwidth: %d footprints measured again" % n)
PYEOF
else
  echo "FAIL jitter mem-bandwidth: exit status"; cat "$T/err"; fails=$((fails+1))
fi

# --launch-bytes: under 5 x L2 (the DRAM range) it is refused before any measurement, naming
# the option and the least it takes; 0 leaves the launch order out (the tiles' figures stand).
if "$B" run mem-bandwidth --device "sim:$SMALL" --launch-bytes 1MB -q >/dev/null 2>"$T/err"; then
  echo "FAIL launch-bytes 1MB: exit status 0"; fails=$((fails+1))
elif ! grep -q -- "--launch-bytes 1048576 is under 5 x L2 (5242880 B)" "$T/err"; then
  echo "FAIL launch-bytes 1MB: message:"; cat "$T/err"; fails=$((fails+1))
else
  echo "ok   launch-bytes 1MB refused"
fi
if run no_launch run mem-bandwidth --device "sim:$SMALL" --launch-bytes 0 --max-bytes 16MB; then
  if grep -q "launches_gbps\|gpu-stream's launch order" "$T/no_launch.json"; then
    echo "FAIL launch-bytes 0: the launch order ran"; fails=$((fails+1))
  else
    echo "ok   launch-bytes 0: no launch order"
  fi
fi

# --launch-bytes left out follows --max-bytes: with the sweeps capped at 4 MB (under the DRAM
# range's 5 x L2) the launch order is left out, not refused; at 16 MB its arrays are 16 MB.
if run capped run mem-bandwidth --device "sim:$SMALL" --max-bytes 4MB; then
  $PY - "$T/capped.json" "$T/no_launch.json" "$T/small.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
lb = [json.load(open(f))["probes"][0]["params"]["launch_bytes"] for f in sys.argv[1:]]
if lb != [0, 0, 16 << 20]:
    print("FAIL launch-bytes default: %s (want 0 under --max-bytes 4MB, 0 given, 16 MB)" % lb)
    sys.exit(1)
print("ok   launch-bytes default follows --max-bytes")
PYEOF
fi

# A model without "levels": the probe fails and names what is missing.
if "$B" run mem-bandwidth --device sim:"$SRC/tests/models/walk_levels.json" -q >/dev/null \
     2>"$T/err"; then
  echo "FAIL no-levels: exit status 0"; fails=$((fails+1))
elif ! grep -q '"levels"' "$T/err"; then
  echo "FAIL no-levels: message does not name the section:"; cat "$T/err"; fails=$((fails+1))
else
  echo "ok   no-levels"
fi
exit $((fails > 0))
