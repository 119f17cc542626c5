#!/usr/bin/env bash
# End-to-end test of probe cluster on simulator models whose cluster section is known: on the
# built-in hopper model every figure (max cluster size, clusters that fit per size, local and
# per-rank shared-memory latency, neighbour-read GB/s per SM and total, bulk and vector copy GB/s
# from DRAM and the L2 and their ratio) must read back the model within its noise, and the
# document must validate; its tensor-map copies, which it does not give, must be not determined
# naming the missing key, as must one transfer's latency (bulk copy, loads and the 2D tensor-map
# copy of a box, 128 B to 16 KB). A copy giving the transfer latencies must read them back per
# size with their ratios (bulk / load, tensor / bulk), and `verify --probes cluster` must judge
# them against the model's truth. A copy giving tensor_l2_gbps and tensor_dram_gbps must read them back,
# with their ratios to the bulk and vector copies, and a footprint under one 256 KB band of boxes
# (--l2-bytes 128KB) must be a usage error. A copy with max_size 8 must report size 16 as not allowed (and still
# measure 2, 4 and 8); a copy without "tma" must leave the copies not determined; a cc 9.0 model
# without the section and a pre-Hopper model must say "not applicable (...)" for everything; a
# malformed section is refused naming the key.
set -u
. "$(dirname "$0")/common.bash"
HOPPER="$SRC/models/hopper.json"

SEED=5   # run NAME ARGS... (common.bash) seeds with it

variant() { # NAME PYTHON-EDIT: a hopper copy edited by PYTHON-EDIT (acting on m) at $T/NAME.model.json
  $PY - "$HOPPER" "$T/$1.model.json" "$2" <<'PYEOF'
import json, sys
m = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(m, open(sys.argv[2], "w"))
PYEOF
}

# check DOC MODEL: compare every figure with the model's cluster section.
check() {
  $PY - "$1" "$2" "$SRC/docs/gpusonar-1.schema.json" <<'PYEOF'
import json, sys
doc, model = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
from e2e_doc import validate
validate(doc, sys.argv[3])
(probe,) = [p for p in doc["probes"] if p["name"] == "cluster"]
figs, c, dev = probe["figures"], model["cluster"], model["device"]
jitter_cycles = model.get("noise", {}).get("jitter_cycles", 0)
jf = c.get("jitter_fraction", 0)
bad = []
def value(name):
    return figs.get(name, {}).get("value")
def near(name, want, tol):
    v = value(name)
    if v is None:
        bad.append("%s not determined: %s" % (name, figs.get(name, {}).get("reason")))
    elif abs(v - want) > tol:
        bad.append("%s = %.6g, truth %.6g (tolerance %.3g)" % (name, v, want, tol))
    return v
def latency(name, truth):   # truth plus a median of uniform [0, J] jitter
    return near(name, truth + jitter_cycles / 2, jitter_cycles / 2 + 1e-9)
def rate(name, gbps):       # each repetition takes (1 + u * jf) of its time
    return near(name, gbps / (1 + jf / 2), gbps * jf / 2 + 1e-9)
remote = c["remote_latency_cycles"]
remote = remote if isinstance(remote, list) else [remote] * (c["max_size"] - 1)
if value("max_cluster_size") != c["max_size"]:
    bad.append("max_cluster_size = %s, model %d" % (value("max_cluster_size"), c["max_size"]))
latency("local_smem_latency_cycles", c["local_latency_cycles"])
rate("local_smem_gbps_per_sm", c["local_gbps_per_sm"])
for size in (2, 4, 8, 16):
    p = "cluster_%d_" % size
    if size > c["max_size"]:
        if value(p + "allowed") != 0 or "not allowed" not in figs[p + "remote_latency_cycles"]["reason"]:
            bad.append("size %d above max_size is not reported as not allowed" % size)
        continue
    active = c.get("max_active_clusters", {}).get(str(size), dev["sm_count"] // size)
    if value(p + "allowed") != 1 or value(p + "max_active_clusters") != active:
        bad.append("%s allowed %s, max_active %s, model %d" % (p, value(p + "allowed"),
                   value(p + "max_active_clusters"), active))
    truth = [c["local_latency_cycles"]] + remote[:size - 1]
    for d in range(size):
        latency(p + "rank_%d_latency_cycles" % d, truth[d])
    series = probe["series"][p + "latency_by_rank"]["y"]
    if series != [value(p + "rank_%d_latency_cycles" % d) for d in range(size)]:
        bad.append(p + "latency_by_rank differs from the rank figures")
    ordered = sorted(truth[1:])
    median = (ordered[(size - 2) // 2] + ordered[(size - 1) // 2]) / 2
    latency(p + "remote_latency_cycles", median)
    near(p + "remote_spread_cycles", max(truth[1:]) - min(truth[1:]), jitter_cycles + 1e-9)
    per_sm = rate(p + "remote_gbps_per_sm", c["remote_gbps_per_sm"])
    sms = min(dev["sm_count"], active * size)
    rate(p + "remote_gbps", c["remote_gbps_per_sm"] * sms)
    if per_sm and value("local_smem_gbps_per_sm"):
        near(p + "remote_over_local_gbps", c["remote_gbps_per_sm"] / c["local_gbps_per_sm"], 0.03)
if "tma" in c:
    t = c["tma"]
    for level in ("dram", "l2"):
        b = rate("bulk_copy_%s_gbps" % level, t["bulk_%s_gbps" % level])
        v = rate("vector_copy_%s_gbps" % level, t["vector_%s_gbps" % level])
        near("bulk_over_vector_%s" % level, t["bulk_%s_gbps" % level] / t["vector_%s_gbps" % level], 0.05)
        key, name = "tensor_%s_gbps" % level, "tensor_copy_%s_gbps" % level
        if key in t:
            rate(name, t[key])
            near("tensor_over_vector_%s" % level, t[key] / t["vector_%s_gbps" % level], 0.05)
            near("tensor_over_bulk_%s" % level, t[key] / t["bulk_%s_gbps" % level], 0.05)
        elif value(name) is not None or "gives no cluster.tma." + key not in figs[name].get("reason", ""):
            bad.append("%s without %s in the model: %s" % (name, key, figs[name]))
        elif "tensor_over_bulk_%s" % level in figs:
            bad.append("tensor_over_bulk_%s without a tensor copy" % level)
    # one transfer's latency, 128 B .. 16 KB: base + per KB x size, by bulk copy and by loads
    sizes = [128 << k for k in range(8)]
    for kind in ("bulk", "load", "tensor"):
        base = t.get(kind + "_latency_base_cycles")
        for b in sizes:
            name = "%s_%db_latency_cycles" % (kind, b)
            if base is None:
                if value(name) is not None or \
                   "gives no cluster.tma.%s_latency_base_cycles" % kind not in figs[name].get("reason", ""):
                    bad.append("%s without the model's latency: %s" % (name, figs.get(name)))
            else:
                latency(name, base + t.get(kind + "_latency_cycles_per_kb", 0) * b / 1024)
    for b, (a, d) in ((b, r) for b in sizes for r in (("bulk", "load"), ("tensor", "bulk"))):
        num, den = value("%s_%db_latency_cycles" % (a, b)), value("%s_%db_latency_cycles" % (d, b))
        name = "%s_over_%s_%db_latency" % (a, d, b)
        if num is not None and den is not None:
            near(name, num / den, 1e-9)
        elif value(name) is not None or "not measured" not in figs[name].get("reason", ""):
            bad.append("%s without both latencies: %s" % (name, figs.get(name)))
else:
    for name in ("bulk_copy_dram_gbps", "vector_copy_l2_gbps", "tensor_copy_l2_gbps"):
        if value(name) is not None or "tma" not in figs[name].get("reason", ""):
            bad.append("%s without a tma model: %s" % (name, figs[name]))
if bad:
    print("FAIL %s:\n  %s" % (sys.argv[2], "\n  ".join(bad)))
    sys.exit(1)
print("ok   %s: %d figures read back" % (sys.argv[2].split("/")[-1], len(figs)))
PYEOF
}

# not_applicable DOC WORDS: every figure not determined, "not applicable (" and WORDS in the reason.
not_applicable() {
  $PY - "$1" "$2" <<'PYEOF'
import json, sys
(probe,) = json.load(open(sys.argv[1]))["probes"]
figs = probe["figures"]
bad = [k for k, f in figs.items() if f["value"] is not None or
       not f.get("reason", "").startswith("not applicable (") or sys.argv[2] not in f["reason"]]
if len(figs) < 10 or bad:
    print("FAIL not applicable (%s): %s" % (sys.argv[2], bad or figs))
    sys.exit(1)
print("ok   not applicable: %s" % sys.argv[2])
PYEOF
}

if run hopper run cluster --device sim:hopper; then
  check "$T/hopper.json" "$HOPPER" || fails=$((fails+1))
  grep -Eq "cluster_16_rank_15_latency_cycles *20[0-4](\.[0-9]+)? cycles" "$T/hopper.txt" \
    || { echo "FAIL text report: no cluster_16_rank_15_latency_cycles"; fails=$((fails+1)); }
  grep -q "bulk_over_vector_dram" "$T/hopper.txt" \
    || { echo "FAIL text report: no bulk_over_vector_dram"; fails=$((fails+1)); }
fi

# One transfer's latency (test values, not a card's): a bulk copy 500 cycles + 60 per KB, a warp's
# loads 600 + 100 per KB, a tensor-map copy of a box 700 + 40 per KB; each size 128 B .. 16 KB
# reads back, with their ratios; a model giving only the bulk copy's leaves the loads, the 2D
# copies and the ratios not determined, naming the missing key.
variant transfer 'm["cluster"]["tma"].update(bulk_latency_base_cycles=500, bulk_latency_cycles_per_kb=60,
load_latency_base_cycles=600, load_latency_cycles_per_kb=100, tensor_latency_base_cycles=700,
tensor_latency_cycles_per_kb=40)'
if run transfer run cluster --device "sim:$T/transfer.model.json"; then
  check "$T/transfer.json" "$T/transfer.model.json" || fails=$((fails+1))
  grep -Eq "bulk_16384b_latency_cycles +14[4-6][0-9](\.[0-9]+)? cycles" "$T/transfer.txt" \
    || { echo "FAIL text report: no bulk_16384b_latency_cycles"; grep latency_cycles "$T/transfer.txt"; fails=$((fails+1)); }
  grep -Eq "tensor_16384b_latency_cycles +13[4-6][0-9](\.[0-9]+)? cycles" "$T/transfer.txt" \
    || { echo "FAIL text report: no tensor_16384b_latency_cycles"; grep latency_cycles "$T/transfer.txt"; fails=$((fails+1)); }
fi
# verify: the model's truth of the three latencies per size (24 rows), none wrong.
"$B" verify -q --probes cluster --device "sim:$T/transfer.model.json" >"$T/verify.txt" 2>"$T/verify.err"
if [ $? -ne 0 ] || [ "$(grep -c '_latency_cycles' "$T/verify.txt")" -ne 24 ] ||
   ! grep -q "tensor_2048b_latency_cycles" "$T/verify.txt"; then
  echo "FAIL verify --probes cluster on the transfer model"; sed 's/^/  /' "$T/verify.txt" "$T/verify.err"
  fails=$((fails+1))
fi
variant bulkonly 'm["cluster"]["tma"].update(bulk_latency_base_cycles=500)'
if run bulkonly run cluster --device "sim:$T/bulkonly.model.json"; then
  check "$T/bulkonly.json" "$T/bulkonly.model.json" || fails=$((fails+1))
fi
variant badtransfer 'm["cluster"]["tma"]["load_latency_base_cycles"] = 0'
"$B" info -q --device "sim:$T/badtransfer.model.json" >/dev/null 2>"$T/err"
if [ $? -ne 2 ] || ! grep -q "cluster.tma.load_latency_base_cycles: must be above 0" "$T/err"; then
  echo "FAIL load_latency_base_cycles 0 not refused"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
fi
variant badtensorlat 'm["cluster"]["tma"]["tensor_latency_base_cycles"] = 0'
"$B" info -q --device "sim:$T/badtensorlat.model.json" >/dev/null 2>"$T/err"
if [ $? -ne 2 ] || ! grep -q "cluster.tma.tensor_latency_base_cycles: must be above 0" "$T/err"; then
  echo "FAIL tensor_latency_base_cycles 0 not refused"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
fi

# The tensor-map copy (test rates, not a card's): 2D boxes read back beside the 1D bulk copy.
variant tensormap 'm["cluster"]["tma"].update(tensor_l2_gbps=6900, tensor_dram_gbps=2950)'
if run tensormap run cluster --device "sim:$T/tensormap.model.json"; then
  check "$T/tensormap.json" "$T/tensormap.model.json" || fails=$((fails+1))
  grep -Eq "tensor_copy_dram_gbps +2[89][0-9]{2}(\.[0-9]+)? GB/s" "$T/tensormap.txt" \
    || { echo "FAIL text report: no tensor_copy_dram_gbps"; fails=$((fails+1)); }
fi
if "$B" run cluster --device "sim:$T/tensormap.model.json" -q --json "$T/tiny.json" \
     --l2-bytes 128KB >/dev/null 2>"$T/tiny.err"; then
  echo "FAIL a 128 KB footprint for the tensor copy was accepted"; fails=$((fails+1))
elif ! grep -q "l2-bytes and --dram-bytes at least 256 KB" "$T/tiny.err"; then
  echo "FAIL a 128 KB tensor copy: no message"; sed 's/^/  /' "$T/tiny.err"; fails=$((fails+1))
fi
variant badtensor 'm["cluster"]["tma"]["tensor_l2_gbps"] = 0'
"$B" info -q --device "sim:$T/badtensor.model.json" >/dev/null 2>"$T/err"
if [ $? -ne 2 ] || ! grep -q "cluster.tma: every rate must be above 0" "$T/err"; then
  echo "FAIL tensor_l2_gbps 0 not refused"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
fi

variant portable 'm["cluster"]["max_size"] = 8; m["cluster"]["remote_latency_cycles"] = 200
del m["cluster"]["max_active_clusters"]["16"]; del m["cluster"]["tma"]'
if run portable run cluster --device "sim:$T/portable.model.json"; then
  check "$T/portable.json" "$T/portable.model.json" || fails=$((fails+1))
fi

variant nosection 'del m["cluster"]'
if run nosection run cluster --device "sim:$T/nosection.model.json"; then
  not_applicable "$T/nosection.json" "the model has no cluster section" || fails=$((fails+1))
fi
if run fermi run cluster --device sim:fermi; then
  not_applicable "$T/fermi.json" "needs compute capability 9.0+" || fails=$((fails+1))
fi

variant badlist 'm["cluster"]["remote_latency_cycles"] = [180, 190]'
"$B" info -q --device "sim:$T/badlist.model.json" >/dev/null 2>"$T/err"
if [ $? -ne 2 ] || ! grep -q "cluster.remote_latency_cycles: must be a number or a list of 15" "$T/err"; then
  echo "FAIL malformed remote_latency_cycles not refused"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
fi
variant badsize 'm["cluster"]["max_size"] = 12'
"$B" info -q --device "sim:$T/badsize.model.json" >/dev/null 2>"$T/err"
if [ $? -ne 2 ] || ! grep -q "cluster.max_size: must be 8" "$T/err"; then
  echo "FAIL max_size 12 not refused"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
fi

listed cluster

if [ "$fails" -ne 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "cluster: the hopper model's clusters and copies read back; not allowed and not applicable said"
