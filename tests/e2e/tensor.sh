#!/usr/bin/env bash
# End-to-end test of probe tensor on simulator models whose tensor unit is known. On the built-in
# hopper model every latency, TFLOP/s (s8: TOP/s) and per-clock-per-SM figure of every instruction
# and type must read back the model's "tensor" section within its noise, the peak must be the H100
# whitepaper's, the fraction of it must follow, and the text report's table must show them; its
# wgmma types are an H100's and read back too; a type a model does not give must be not determined
# naming the missing entry. A hopper copy giving wgmma for every type (bf16, tf32, e4m3, e5m2,
# s8) must read each back, against peaks of 4096, 2048, 8192, 8192 and 8192; one giving the sparse
# mma_sp must read it back against the sparse peaks, with its ratio to the dense mma.sync. On
# tests/models/tensor_ampere.json (cc 8.0, noisy) fp8 mma and wgmma are "not applicable (sm_80
# has ...)", f64, absent from the section, is not determined naming the missing field, and the
# rest reads back despite the noise; on a model without the section every measured figure is "not
# determined" because the model has no tensor unit; bad options are usage errors.
set -u
. "$(dirname "$0")/common.bash"

SEED=7   # run NAME ARGS... (common.bash) seeds with it

# check.py DOC MODEL SCHEMA MIN_CHECKED: every figure of the probe against the model's truth.
cat >"$T/check.py" <<'PYEOF'
import json, sys
doc, model = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
from e2e_doc import validate
validate(doc, sys.argv[3])
(probe,) = [p for p in doc["probes"] if p["name"] == "tensor"]
figs = probe["figures"]
dev, ten = model["device"], model.get("tensor")
ghz, sms, cc = dev["clock_khz"] * 1e-6, dev["sm_count"], (dev["cc_major"], dev["cc_minor"])
jitter = model.get("noise", {}).get("jitter_cycles", 0)
jf = ten.get("jitter_fraction", 0) if ten else 0
# the whitepapers' dense peaks per SM per clock (src/analysis/tensor_peak.c)
PEAK = {(9, 0): {"f16": 4096, "bf16": 4096, "tf32": 2048, "e4m3": 8192, "e5m2": 8192, "s8": 8192,
                 "f64": 256},
        (8, 0): {"f16": 2048, "bf16": 2048, "tf32": 1024, "s8": 4096, "f64": 128}}[cc]
bad, checked, nd = [], 0, 0
combos = [("mma_sync", t) for t in ("f16", "bf16", "tf32", "e4m3", "s8", "f64")] + \
         [("wgmma", t) for t in ("f16", "bf16", "tf32", "e4m3", "e5m2", "s8")] + \
         [("mma_sp", t) for t in ("f16", "bf16", "tf32", "e4m3", "s8")]
# no mma.sync e5m2, no wgmma f64, no mma.sp of either: the probe makes no figure of them
for name in figs:
    if name.startswith(("mma_sync_e5m2_", "wgmma_f64_", "mma_sp_f64_", "mma_sp_e5m2_")):
        bad.append("%s: a combination that has no instruction" % name)
def expect_nd(name, why):
    global nd
    f = figs.get(name)
    if f is None:
        bad.append("%s missing" % name)
    elif f["value"] is not None or why not in f.get("reason", ""):
        bad.append("%s = %s (%s), want not determined: ...%s..." % (name, f["value"], f.get("reason"), why))
    else:
        nd += 1
def near(name, want, tol):
    global checked
    f = figs.get(name)
    if f is None:
        bad.append("%s missing" % name); return None
    v = f["value"]
    if v is None:
        bad.append("%s not determined: %s" % (name, f.get("reason"))); return None
    if abs(v - want) > tol:
        bad.append("%s = %.6g, truth %.6g (tolerance %.3g)" % (name, v, want, tol))
    checked += 1
    return v
instrs = probe["params"]["instrs"]
for instr, ty in combos:
    if instrs != "all" and instr not in instrs.split(","):
        continue
    if probe["params"]["types"] != "all" and ty not in probe["params"]["types"].split(","):
        continue
    stem = "%s_%s_" % (instr, ty)
    rate, per_clock, peak_name = (("tops", "ops_per_clock_per_sm", "peak_ops_per_clock_per_sm")
        if ty == "s8" else ("tflops", "flops_per_clock_per_sm", "peak_flops_per_clock_per_sm"))
    names = ["latency_cycles", rate, per_clock, peak_name, "fraction_of_peak"]
    sparse = instr == "mma_sp"
    if sparse:
        names.append("over_dense")
    na = None
    if instr == "wgmma" and cc != (9, 0):
        na = "not applicable: sm_%d%d has no wgmma" % cc
    elif ty == "e4m3" and cc < (8, 9):
        na = "not applicable: sm_%d%d has no fp8 mma" % cc
    if na:
        for n in names:
            expect_nd(stem + n, na)
        continue
    # the sparse (2:4) peak: twice the dense one, as every whitepaper's sparse row
    peak = PEAK[ty] * (2 if sparse else 1)
    near(stem + peak_name, peak, 0)
    entry = (ten or {}).get(instr, {}).get(ty)
    if entry is None:
        why = "no tensor unit" if ten is None else "gives no tensor.%s.%s" % (instr, ty)
        for n in names:
            if n != peak_name:
                expect_nd(stem + n, why if n not in ("fraction_of_peak", "over_dense")
                          else "not measured")
        continue
    r = entry["flops_per_clock_per_sm"]
    refused = figs.get(stem + per_clock, {}).get("value") is None
    if r / (1 + jf) > 1.01 * peak or (r > peak and refused):
        # above the peak beyond any launch's noise (the H100's e4m3 mma.sync, a kernel that does
        # less work than it counts; a rate 1.03 of it): refused, naming the peak
        kind = "sparse" if sparse else "dense"
        for n in names:
            if n != peak_name:
                expect_nd(stem + n, "above the %s peak per clock per SM (%d, NVIDIA" % (kind, peak)
                          if n not in ("fraction_of_peak", "over_dense")
                          else "not measured" if n == "over_dense"
                          else "not measured: above the %s peak" % kind)
        continue
    lat = entry["latency_cycles"]
    near(stem + "latency_cycles", lat + jitter / 2, jitter / 2 + 0.5)
    # a launch takes (1 + u * jf) of its time: the median rate lies within [R / (1 + jf), R]
    r = entry["flops_per_clock_per_sm"]
    mid, tol = r / (1 + jf / 2), r * jf / 2 * 1.05 + 1e-9
    v = near(stem + per_clock, mid, tol)
    near(stem + rate, mid * sms * ghz / 1000, tol * sms * ghz / 1000)
    if v is not None:
        near(stem + "fraction_of_peak", v / peak, 1e-6)
    if sparse and v is not None:
        dense = figs.get("mma_sync_%s_%s" % (ty, per_clock), {}).get("value")
        if "mma_sync" not in instrs.split(",") and instrs != "all":
            expect_nd(stem + "over_dense", "add mma_sync to --instrs")
        elif dense is None:
            expect_nd(stem + "over_dense", "dense mma.sync %s rate per clock per SM was not" % ty)
        else:
            # the quotient of the two figures, and of the model's two rates within both noises
            q = near(stem + "over_dense", v / dense, 1e-6)
            truth = r / ten["mma_sync"][ty]["flops_per_clock_per_sm"]
            if q is not None and abs(q - truth) > truth * jf * 1.05 + 1e-9:
                bad.append("%sover_dense = %.4g, the model's %.4g" % (stem, q, truth))
if bad:
    print("FAIL %s:\n  %s" % (model["name"], "\n  ".join(bad)))
    sys.exit(1)
print("ok   %s: %d figures read back, %d not determined as they must be" % (model["name"], checked, nd))
if checked < int(sys.argv[4]):
    print("FAIL %s: only %d figures checked" % (model["name"], checked)); sys.exit(1)
PYEOF

SCHEMA="$SRC/docs/gpusonar-1.schema.json"
if run hopper run tensor --device sim:hopper; then
  $PY "$T/check.py" "$T/hopper.json" "$SRC/models/hopper.json" "$SCHEMA" 32 || fails=$((fails+1))
  # the table: wgmma f16 at ~3900 of 4096 flops/clock/SM; the figure list after it
  grep -Eq "^  wgmma\.f16 +11[7-9] +[0-9]+ +(39[0-9]{2}|40[0-9]{2}) +4096 +0\.9[0-9]* *$" "$T/hopper.txt" \
    || { echo "FAIL text report: the wgmma.f16 row"; sed -n '/instr.type/,+8p' "$T/hopper.txt"; fails=$((fails+1)); }
  grep -q "mma_sync_s8_tops .*TOP/s" "$T/hopper.txt" || { echo "FAIL text report: no s8 TOP/s"; fails=$((fails+1)); }
fi

# Every wgmma type in the model (test values, not a card's): each reads back against its peak.
$PY - "$SRC/models/hopper.json" "$T/wgmma_all.model.json" <<'PYEOF'
import json, sys
m = json.load(open(sys.argv[1]))
m["tensor"]["wgmma"].update({
    "bf16": {"latency_cycles": 118, "flops_per_clock_per_sm": 4050},
    "tf32": {"latency_cycles": 120, "flops_per_clock_per_sm": 2010},
    "e4m3": {"latency_cycles": 122, "flops_per_clock_per_sm": 8050},
    "e5m2": {"latency_cycles": 124, "flops_per_clock_per_sm": 7980},
    "s8": {"latency_cycles": 126, "flops_per_clock_per_sm": 8100}})
json.dump(m, open(sys.argv[2], "w"))
PYEOF
if run wgmma_all run tensor --device "sim:$T/wgmma_all.model.json" --instrs wgmma; then
  $PY "$T/check.py" "$T/wgmma_all.json" "$T/wgmma_all.model.json" "$SCHEMA" 30 || fails=$((fails+1))
  # fp8 on the native path: ~7900 of 8192 per clock per SM, 0.96..0.98 of the peak
  grep -Eq "^  wgmma\.e5m2 +12[4-6] +[0-9]+ +(78[0-9]{2}|79[0-9]{2}) +8192 +0\.9[5-8][0-9]* *$" \
    "$T/wgmma_all.txt" || { echo "FAIL text report: the wgmma.e5m2 row"
                            sed -n '/instr.type/,+8p' "$T/wgmma_all.txt"; fails=$((fails+1)); }
  grep -Eq "^  wgmma\.tf32 +12[0-2] +[0-9]+ +(19[0-9]{2}|20[0-9]{2}) +2048 +0\.9[0-9]* *$" \
    "$T/wgmma_all.txt" || { echo "FAIL text report: the wgmma.tf32 row"; fails=$((fails+1)); }
  grep -q "wgmma_s8_tops .*TOP/s" "$T/wgmma_all.txt" \
    || { echo "FAIL text report: no wgmma s8 TOP/s"; fails=$((fails+1)); }
fi

# The sparse mma.sp (test values, not a card's): f16, bf16, tf32 and s8 at about twice the dense
# mma.sync, read back against the sparse peak (twice the dense one) with their ratio to dense;
# e4m3 above its sparse peak (a kernel doing less work than it counts, as the dense e4m3 on
# sm_90) is refused; with --instrs mma_sp alone the ratio is not determined, naming the option.
$PY - "$SRC/models/hopper.json" "$T/sparse.model.json" <<'PYEOF'
import json, sys
m = json.load(open(sys.argv[1]))
m["tensor"]["mma_sp"] = {
    "f16": {"latency_cycles": 26, "flops_per_clock_per_sm": 5250},
    "bf16": {"latency_cycles": 26, "flops_per_clock_per_sm": 5290},
    "tf32": {"latency_cycles": 27, "flops_per_clock_per_sm": 2600},
    "e4m3": {"latency_cycles": 2, "flops_per_clock_per_sm": 39000},
    "s8": {"latency_cycles": 25, "flops_per_clock_per_sm": 10500}}
json.dump(m, open(sys.argv[2], "w"))
PYEOF
if run sparse run tensor --device "sim:$T/sparse.model.json" --instrs mma_sync,mma_sp; then
  $PY "$T/check.py" "$T/sparse.json" "$T/sparse.model.json" "$SCHEMA" 40 || fails=$((fails+1))
  # f16: ~5200 of the sparse 8192 per clock per SM, 0.63..0.65 of it
  grep -Eq "^  mma_sp\.f16 +2[6-8](\.[0-9]+)? +[0-9]+ +(51[0-9]{2}|52[0-9]{2}) +8192 +0\.6[3-5][0-9]* *$" \
    "$T/sparse.txt" || { echo "FAIL text report: the mma_sp.f16 row"
                         sed -n '/instr.type/,+16p' "$T/sparse.txt"; fails=$((fails+1)); }
  grep -Eq "mma_sp_f16_over_dense +1\.9[0-9]* " "$T/sparse.txt" \
    || { echo "FAIL text report: mma_sp_f16_over_dense"; grep over_dense "$T/sparse.txt"; fails=$((fails+1)); }
  grep -q "mma_sp_e4m3_tflops .*not determined: above the sparse peak per clock per SM (16384" \
    "$T/sparse.txt" || { echo "FAIL text report: mma_sp e4m3 above its peak printed"
                         grep mma_sp_e4m3 "$T/sparse.txt"; fails=$((fails+1)); }
fi
if run sparse_only run tensor --device "sim:$T/sparse.model.json" --instrs mma_sp --types f16; then
  $PY "$T/check.py" "$T/sparse_only.json" "$T/sparse.model.json" "$SCHEMA" 4 || fails=$((fails+1))
fi

# A rate 1.03 of its dense peak (wgmma e4m3 at 8438 of 8192 flops per clock per SM, launch noise
# 2 %): no unit exceeds its peak, so the rates and the fraction are refused, naming the peak.
$PY - "$SRC/models/hopper.json" "$T/over.model.json" <<'PYEOF'
import json, sys
m = json.load(open(sys.argv[1]))
m["tensor"]["wgmma"]["e4m3"] = {"latency_cycles": 122, "flops_per_clock_per_sm": 8438}
json.dump(m, open(sys.argv[2], "w"))
PYEOF
if run over run tensor --device "sim:$T/over.model.json" --instrs wgmma; then
  $PY "$T/check.py" "$T/over.json" "$T/over.model.json" "$SCHEMA" 4 || fails=$((fails+1))
  grep -q "wgmma_e4m3_tflops .*not determined: above the dense peak per clock per SM (8192" \
    "$T/over.txt" || { echo "FAIL text report: wgmma e4m3 above its peak printed"
                       grep e4m3 "$T/over.txt"; fails=$((fails+1)); }
fi

AMPERE="$SRC/tests/models/tensor_ampere.json"
if run ampere run tensor --device "sim:$AMPERE" --repeats 64 --launches 15; then
  $PY "$T/check.py" "$T/ampere.json" "$AMPERE" "$SCHEMA" 16 || fails=$((fails+1))
  grep -Eq "^  mma_sync\.e4m3 +n/a( +n/a){4} *$" "$T/ampere.txt" \
    || { echo "FAIL text report: the ampere e4m3 row"; sed -n '/instr.type/,+8p' "$T/ampere.txt"; fails=$((fails+1)); }
  grep -Eq "^  mma_sync\.f64 +n/d +n/d +n/d +128 +n/d *$" "$T/ampere.txt" \
    || { echo "FAIL text report: the ampere f64 row"; fails=$((fails+1)); }
fi

# No tensor section: the model has no tensor unit, every measured figure says so.
if run none run tensor --device "sim:$SRC/tests/models/cli_minimal.json"; then
  $PY "$T/check.py" "$T/none.json" "$SRC/tests/models/cli_minimal.json" "$SCHEMA" 7 || fails=$((fails+1))
fi

# One type, one instruction: nothing else is measured.
if run one run tensor --device sim:hopper --types bf16 --instrs mma_sync; then
  $PY - "$T/one.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
(probe,) = json.load(open(sys.argv[1]))["probes"]
names = sorted(probe["figures"])
if len(names) != 5 or not all(n.startswith("mma_sync_bf16_") for n in names):
    print("FAIL --types bf16 --instrs mma_sync: %s" % names); sys.exit(1)
PYEOF
fi

# Usage errors: an unknown type or instruction, a bad target time.
refused sim:hopper tensor "--types f8" "--types f16,bogus" "--instrs hmma" "--target-ms 0" "--warps 0"

# Listed, not part of the default report.
listed tensor

if [ "$fails" -ne 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "tensor: the model's latencies and rates read back; peaks the whitepapers'; n/a and missing sections not determined"
