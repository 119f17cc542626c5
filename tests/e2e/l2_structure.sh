#!/usr/bin/env bash
# End-to-end test of the L2's sets and ways from eviction sets in average mode (issue 16;
# docs/methods.md "cache", "L2 sets and ways"; src/probes/cache_l2_structure.c), run as on the
# card: `cache --target l2 --thorough`, the L2 too large for the trace buffer. Each figure is held
# to the model's truth: ways exact; sets within their ci95 (the capacity's spread in sets; 0 where
# the capacity is exact); mapping and policy not determined. A wrong figure fails.
#   hopper (--structure average: the traces' structure replaced): 25600 x 16, modulo, two
#     partitions; ways and sets required, sets exact.
#   l2_modulo_copies: 1536 x 16 modulo (not a power of two), partitions, near copies; ways
#     required.
#   l2_near_copies: 512 x 16 XOR-hashed, partitions, near copies; ways required.
#   l2_hashed_partitioned, l2_random_noisy (random replacement, outliers): exact or not
#     determined, never a guess.
set -u
. "$(dirname "$0")/common.bash"

# check MODEL REQUIRED LABEL [ARGS]: REQUIRED is "sets+ways", "ways" or "none"
check() {
  local model=$1 required=$2 label=$3
  shift 3
  if ! $B run cache --target l2 --thorough -q "$@" --device "sim:$model" \
       --json "$T/$label.json" >/dev/null 2>"$T/err"; then
    echo "FAIL l2_structure $label: exit status"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
    return
  fi
  $PY - "$T/$label.json" "$model" "$required" "$label" <<'PYEOF' || fails=$((fails+1))
import json, sys
doc, model = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
required, label = sys.argv[3], sys.argv[4]
l2 = [c for c in model["memory"]["caches"] if c["name"] == "l2"][0]
f = [p for p in doc["probes"] if p["params"]["level"] == "l2"][0]["figures"]
ways, sets = f["ways"]["value"], f["sets"]["value"]
bad = []
if ways is not None and ways != l2["ways"]:
    bad.append("ways %s, model %d" % (ways, l2["ways"]))
if sets is not None and abs(sets - l2["sets"]) > (f["sets"].get("ci95") or 0):
    bad.append("sets %s +- %s, model %d" % (sets, f["sets"].get("ci95"), l2["sets"]))
if "ways" in required and ways is None:
    bad.append("ways not determined: " + str(f["ways"].get("why") or f["ways"])[-300:])
if required == "sets+ways" and (sets is None or f["sets"].get("ci95")):
    bad.append("sets not exact: %s" % f["sets"])
# reductions that disagree give no figure (on the H100 they once fell through to ways 2, 4, 15)
if "they disagree" in (f["mapping"].get("reason") or "") and ways is not None:
    bad.append("ways %s although the reductions disagree" % ways)
for k in ("mapping", "policy"):
    if f[k]["value"] is not None:
        bad.append("%s %s: no method here infers it" % (k, f[k]["value"]))
if bad:
    print("FAIL l2_structure %s: %s" % (label, "; ".join(bad)))
    sys.exit(1)
print("  %s: ways %s, sets %s +- %s (model %d x %d)" % (label, ways, sets, f["sets"].get("ci95"),
                                                         l2["sets"], l2["ways"]))
PYEOF
}

check "$SRC/models/hopper.json" sets+ways hopper --structure average
check "$SRC/tests/models/l2_modulo_copies.json" ways l2_modulo_copies
check "$SRC/tests/models/l2_near_copies.json" ways l2_near_copies
check "$SRC/tests/models/l2_hashed_partitioned.json" none l2_hashed_partitioned
check "$SRC/tests/models/l2_random_noisy.json" none l2_random_noisy
[ $fails -eq 0 ] && echo "l2_structure: ok" || echo "l2_structure: $fails failures"
exit $((fails > 0))
