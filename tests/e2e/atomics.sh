#!/usr/bin/env bash
# End-to-end test of probe atomics on simulator models whose atomic unit is known. On the built-in
# hopper model every latency, Gop/s and per-clock figure of every default operation, space and
# pattern must read back the model's "atomics" section (default entry overridden per operation;
# global one address and lines whole-GPU, distinct and shared per SM) within its noise, and the
# text report must show them. On tests/models/atomics_partial.json (a partial, noisy section)
# what the model gives reads back despite outliers and the rest is not determined naming the
# missing field; on a model without the section every figure is "not determined" because the
# model has no atomic unit; bad options are usage errors.
set -u
. "$(dirname "$0")/common.bash"

SEED=5   # run NAME ARGS... (common.bash) seeds with it

# check.py DOC MODEL SCHEMA [lines]: every figure of the probe against the model's truth.
cat >"$T/check.py" <<'PYEOF'
import json, math, sys
doc, model = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
from e2e_doc import validate
validate(doc, sys.argv[3])
(probe,) = [p for p in doc["probes"] if p["name"] == "atomics"]
figs, params = probe["figures"], probe["params"]
dev, at = model["device"], model.get("atomics")
ghz, sms = dev["clock_khz"] * 1e-6, dev["sm_count"]
jitter = model.get("noise", {}).get("jitter_cycles", 0)
jf = at.get("jitter_fraction", 0) if at else 0
ops = params["ops"].split(",")
lines = [int(x) for x in params["lines"].split(",")]
keys = {"global": {"one_address": "one_address_ops_per_clock",
                   "distinct": "distinct_ops_per_clock_per_sm", "lines": "line_ops_per_clock"},
        "shared": {"one_address": "one_address_ops_per_clock_per_sm",
                   "distinct": "distinct_ops_per_clock_per_sm",
                   "same_bank": "same_bank_ops_per_clock_per_sm"}}
bad, checked, nd = [], 0, 0
def truth(space, op, key):
    sp = (at or {}).get(space, {})
    return sp.get(op, {}).get(key, sp.get("default", {}).get(key))
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
        bad.append("%s missing" % name); return
    v = f["value"]
    if v is None:
        bad.append("%s not determined: %s" % (name, f.get("reason"))); return
    if abs(v - want) > tol:
        bad.append("%s = %.6g, truth %.6g (tolerance %.3g)" % (name, v, want, tol))
    checked += 1
def rate(stem, per_clock, per_sm, space, op, key):
    # a launch takes (1 + u * jf) of its time: the median rate lies within [R / (1 + jf), R]
    suffix = "ops_per_clock_per_sm" if per_sm else "ops_per_clock"
    if per_clock is None:
        why = "no atomic unit" if at is None else "gives no atomics.%s %s" % (space, key)
        expect_nd(stem + "_gops", why); expect_nd(stem + "_" + suffix, why); return
    mid, tol = per_clock / (1 + jf / 2), per_clock * jf / 2 * 1.05 + 1e-9
    near(stem + "_" + suffix, mid, tol)
    whole = per_clock * ghz * (sms if per_sm else 1)
    near(stem + "_gops", whole / (1 + jf / 2), whole * jf / 2 * 1.05 + 1e-9)
for space in ("global", "shared"):
    for ot in ops:
        op = ot.replace(".", "_")
        stem = "%s_%s_" % (space, op)
        lat = truth(space, ot, "latency_cycles")
        if lat is None:
            expect_nd(stem + "latency_cycles", "no atomic unit" if at is None else
                      "gives no atomics.%s latency_cycles" % space)
        else:
            near(stem + "latency_cycles", lat + jitter / 2, jitter / 2 + 0.5)
        k = keys[space]
        rate(stem + "one_address", truth(space, ot, k["one_address"]), space == "shared",
             space, ot, k["one_address"])
        distinct = truth(space, ot, k["distinct"])
        rate(stem + "distinct", distinct, True, space, ot, k["distinct"])
        if space == "global":
            if not ot.startswith(("cas", "exch")):
                rate(stem + "distinct_returned", distinct, True, space, ot, k["distinct"])
            per_line = truth(space, ot, k["lines"])
            for n in lines:
                r = None if per_line is None else min(n * per_line, (distinct or math.inf) * sms)
                rate(stem + "lines%d" % n, r, False, space, ot, k["lines"])
        else:
            rate(stem + "same_bank", truth(space, ot, k["same_bank"]), True, space, ot,
                 k["same_bank"])
if bad:
    print("FAIL %s:\n  %s" % (model["name"], "\n  ".join(bad)))
    sys.exit(1)
print("ok   %s: %d figures read back, %d not determined as they must be" % (model["name"], checked, nd))
if len(sys.argv) > 4 and checked < int(sys.argv[4]):
    print("FAIL %s: only %d figures checked" % (model["name"], checked)); sys.exit(1)
PYEOF

SCHEMA="$SRC/docs/gpusonar-1.schema.json"
if run hopper run atomics --device sim:hopper; then
  $PY "$T/check.py" "$T/hopper.json" "$SRC/models/hopper.json" "$SCHEMA" 140 || fails=$((fails+1))
  for want in "global_add_f64_latency_cycles *2(89|9[0-1])(\.[0-9]+)? cycles" "shared_add_f32_distinct_ops_per_clock_per_sm" \
              "global_add_u32_one_address_gops"; do
    grep -Eq "$want" "$T/hopper.txt" || { echo "FAIL text report: no '$want'"; fails=$((fails+1)); }
  done
  # the table: one row per operation, global latency first, shared one-bank rate last
  grep -Eq "^  add\.f64 +(289|29[01]) +10[789] .* 0\.09[0-9]* *$" "$T/hopper.txt" \
    || { echo "FAIL text report: the add.f64 row of the table"; sed -n '/op.type/,+9p' "$T/hopper.txt"; fails=$((fails+1)); }
fi

# Every operation CUDA has, one contended-line count, more repetitions (outliers in the model).
if run all run atomics --device sim:hopper --lines 2 --repeats 64 \
     --ops add.u32,add.u64,add.f32,add.f64,cas.u32,cas.u64,exch.u32,exch.u64,exch.f32,min.u32,min.u64,max.u32,max.u64; then
  $PY "$T/check.py" "$T/all.json" "$SRC/models/hopper.json" "$SCHEMA" 198 || fails=$((fails+1))
fi

PARTIAL="$SRC/tests/models/atomics_partial.json"
if run partial run atomics --device "sim:$PARTIAL" --repeats 64 --launches 9; then
  $PY "$T/check.py" "$T/partial.json" "$PARTIAL" "$SCHEMA" 6 || fails=$((fails+1))
  grep -Eq "^  add\.f64 +9[0-9]{2} +n/d( +n/d){7} *$" "$T/partial.txt" \
    || { echo "FAIL text report: the partial model's add.f64 row"; fails=$((fails+1)); }
fi

# No atomics section: the model has no atomic unit, every figure says so.
if run none run atomics --device "sim:$SRC/tests/models/cli_minimal.json"; then
  $PY - "$T/none.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
(probe,) = json.load(open(sys.argv[1]))["probes"]
figs = probe["figures"]
bad = [k for k, f in figs.items() if f["value"] is not None or
       not f.get("reason", "").startswith("the model has no atomic unit")]
if len(figs) < 100 or bad:
    print("FAIL no atomics section: %d figures, %s" % (len(figs), bad[:5])); sys.exit(1)
print("ok   no atomics section: %d figures not determined (no atomic unit)" % len(figs))
PYEOF
fi

# Usage errors: an operation CUDA lacks, an unknown space, a bad line count.
refused sim:hopper atomics "--ops min.f32" "--ops add.u32,bogus" "--spaces texture" "--lines 0" \
  "--threads 48"

# Listed, not part of the default report.
listed atomics

if [ "$fails" -ne 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "atomics: the model's latencies and rates read back; partial and missing sections not determined"
