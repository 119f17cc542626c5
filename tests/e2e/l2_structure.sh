#!/usr/bin/env bash
# End-to-end test of the L2's sets, ways and mapping from prime+probe eviction sets
# (docs/methods.md "cache", "L2 sets and ways"; src/probes/cache/l2_structure.c, the backend's
# evict operation), run as on the card: `cache --target l2 --structure average --thorough`, the
# L2 too large for the trace buffer. Each figure is held to the model's truth: ways exact; sets
# within their ci95 (the capacity's spread in sets; 0 where the capacity or the XOR fit makes
# them exact); a mapping must be the model's bits or span its XOR masks; the policy must be
# the model's or not determined (the fine-grained replacement tests on a set the draws found,
# of near lines only where the L2 has partitions: a far line's near copy would answer hits
# its set evicted). A wrong figure fails. Every model's eviction curve
# (series evicted_share_by_pool) rises from none to all, and on the LRU model of one partition
# it follows the Poisson count of set-mates. REQUIRED names what must be found:
#   l2_modulo_lru_2mb (1024 x 16, bits 7..16, LRU): sets, ways, mapping and policy, exact.
#   l2_xor_plru_2mb (1024 x 16, XOR of three bits per index bit, tree-PLRU): the same, masks.
#   l2_xor_plru_copies (l2_xor_plru_2mb behind partitions with near copies): sets, ways and
#     masks exact; the policy tree-PLRU or not determined (its sets mix near and far lines, so
#     the tests find no set of near lines: not determined, the reason counting the far ones).
#   l2_modulo_copies (1536 x 16 modulo, partitions 240 cycles apart, near copies): ways, and
#     the near part's end (2 x the copies) within its interval.
#   l2_near_copies (512 x 16 XOR-hashed, partitions, near copies; far hit 10 cycles under a
#     miss): ways.
#   l2_hashed_partitioned (512 x 16 XOR-hashed, partitions, tree-PLRU): ways.
#   l2_xor_random_2mb, l2_random_noisy (random replacement; the second with outliers): exact or
#     not determined, never a guess.
# models/hopper.json's 50 MB L2 is left out: its pools of 819 200 lines take minutes in the
# simulator (a second on the card).
set -u
GS_E2E_SIM=1   # a sweep over simulator models: the unsanitized simulator build (common.bash)
. "$(dirname "$0")/common.bash"

# check MODEL REQUIRED: REQUIRED is "all", "structure" (all but the policy), "ways" or "none"
check() {
  local model=$1 required=$2 label
  label=$(basename "$model" .json)
  if ! $B run cache --target l2 --structure average --thorough -q --seed 1 \
       --device "sim:$model" --json "$T/$label.json" >/dev/null 2>"$T/err"; then
    echo "FAIL l2_structure $label: exit status"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
    return
  fi
  PYTHONPATH="$SRC/tests/e2e" $PY - "$T/$label.json" "$model" "$required" "$label" <<'PYEOF' \
    || fails=$((fails+1))
import json, sys
from cache_truth import geometry, xor_masks, same_xor_index
doc, model = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
required, label = sys.argv[3], sys.argv[4]
l2 = [c for c in model["memory"]["caches"] if c["name"] == "l2"][0]
f = [p for p in doc["probes"] if p["params"]["level"] == "l2"][0]["figures"]
ways, sets, mapping = f["ways"]["value"], f["sets"]["value"], f["mapping"]["value"]
bad = []
if ways is not None and ways != l2["ways"]:
    bad.append("ways %s, model %d" % (ways, l2["ways"]))
if sets is not None and abs(sets - l2["sets"]) > (f["sets"].get("ci95") or 0):
    bad.append("sets %s +- %s, model %d" % (sets, f["sets"].get("ci95"), l2["sets"]))
bits = geometry(l2, l2["line_bytes"])[2]
if mapping == "xor":
    masks = f.get("set_index_xor_masks", {}).get("value")
    if not xor_masks(l2) or not same_xor_index(masks, xor_masks(l2)):
        bad.append("xor masks %s, model %s" % (masks, l2.get("mapping")))
elif mapping is not None and [int(b) for b in mapping] != bits:
    bad.append("mapping %s, model %s" % (mapping, bits))
policy = f["policy"]["value"]
if policy is not None and policy != l2["policy"]:
    bad.append("policy %s, model %s" % (policy, l2["policy"]))
if required == "all" and policy is None:
    bad.append("policy not determined: " + str(f["policy"].get("reason"))[-300:])
why = str(f["ways"].get("reason") or f["mapping"].get("reason") or "")[-400:]
if required in ("all", "structure", "ways") and ways is None:
    bad.append("ways not determined: " + why)
if required in ("all", "structure") and (sets is None or f["sets"].get("ci95") or mapping is None):
    bad.append("sets %s +- %s, mapping %s: not exact (%s)" % (sets, f["sets"].get("ci95"),
                                                             mapping, why))
# the eviction curve: share of 64 targets evicted against pool size (0.25 .. 3 x the capacity);
# from none to (nearly) all, and on an LRU cache of one partition the share a Poisson count of
# set-mates predicts: P(Poisson(f x W) >= W) for a pool of f x the capacity (3 sd of 64 targets)
curve = [p for p in doc["probes"] if p["params"]["level"] == "l2"][0]["series"].get(
    "evicted_share_by_pool")
if not curve or len(curve["y"]) != 12:
    bad.append("no eviction curve of 12 points: %s" % curve)
else:
    y, cap = curve["y"], l2["size_bytes"]
    if y[0] > 0.1 or y[-1] < 0.9:
        bad.append("eviction curve from %.2f to %.2f, not from none to all" % (y[0], y[-1]))
    if l2.get("policy") == "lru" and not l2.get("partitions"):
        import math
        W = l2["ways"]
        for x, share in zip(curve["x"], y):
            lam = x / cap * W
            pred = 1 - sum(math.exp(-lam) * lam ** k / math.factorial(k) for k in range(W))
            if abs(share - pred) > 0.2:
                bad.append("eviction curve at %.3g x: %.2f, Poisson predicts %.2f"
                           % (x / cap, share, pred))
# the near part: with the copies' sets taken modulo and the partition bits (12 and up) splitting
# every 8 KB evenly, far lines overflow the copies exactly at 2 x near_copy_bytes of footprint
part = l2.get("partitions") or {}
if label == "l2_modulo_copies":
    near, truth = f["near_size_bytes"], 2 * part["near_copy_bytes"]
    if near["value"] is None or abs(near["value"] - truth) > near["ci95"] or \
            near["ci95"] > truth / 16:
        bad.append("near part %s +- %s, model %d" % (near["value"], near.get("ci95"), truth))
if bad:
    print("FAIL l2_structure %s: %s" % (label, "; ".join(bad)))
    sys.exit(1)
print("  %s: ways %s, sets %s +- %s, mapping %s, policy %s (model %d x %d, %s)" %
      (label, ways, sets, f["sets"].get("ci95"), mapping if mapping != "xor" else "xor masks",
       policy, l2["sets"], l2["ways"], l2["policy"]))
PYEOF
}

M="$SRC/tests/models"
par check "$M/l2_modulo_lru_2mb.json" all
par check "$M/l2_xor_plru_2mb.json" all
par check "$M/l2_xor_plru_copies.json" structure
par check "$M/l2_modulo_copies.json" ways
par check "$M/l2_near_copies.json" ways
par check "$M/l2_hashed_partitioned.json" ways
par check "$M/l2_xor_random_2mb.json" none
par check "$M/l2_random_noisy.json" none
par_wait
[ $fails -eq 0 ] && echo "l2_structure: ok" || echo "l2_structure: $fails failures"
exit $((fails > 0))
