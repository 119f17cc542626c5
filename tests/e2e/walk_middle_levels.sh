#!/usr/bin/env bash
# End-to-end test of random-walk's levels between the fastest and the slowest on hashed L1s of
# 64-B lines walked in 32-B slots (tests/models/cache_xor64_plru.json, cache_xor64_random.json:
# 16 KB, 4 ways, XOR-indexed, over an LRU L2 of 512 KB). Past the L1 a line's second slot hits on
# a curve of its own, no (C/s)^g, and the Eq. 6 fit lowers the L2's latency to match; its
# interval is widened to the bounds that hold whatever the hit curve (docs/methods.md,
# random-walk). The walk's L2 level (the one whose capacity is the L2's size) must hold the
# model's L2 hit as a walk averages it: the truth `gpusonar verify` states plus half the model's
# noise, which adds 0 to the jitter to each access, uniformly. And the cross-check of the walk
# with the cache probe's records (run by verify) must have no structure apart unexplained.
set -u
GS_E2E_SIM=1   # simulator models only: the unsanitized simulator build (common.bash)
. "$(dirname "$0")/common.bash"

# middle MODEL: verify's cache records and truth, random-walk alone, the check, the cross-check
middle() {
  local model=$1 name
  name=$(basename "$model" .json)
  $B verify -q --probes cache --device "sim:$model" --seed 1 --verdicts "$T/v.json" \
    --json "$T/cache.json" >/dev/null 2>"$T/err" ||
    { echo "FAIL $name: verify: $(tail -1 "$T/err")"; fails=$((fails+1)); return; }
  $B run random-walk --walkers-max 0 --device "sim:$model" -q --seed 1 --json "$T/walk.json" \
    >/dev/null 2>"$T/err" ||
    { echo "FAIL $name: random-walk: $(tail -1 "$T/err")"; fails=$((fails+1)); return; }
  $PY - "$name" "$T/v.json" "$T/cache.json" "$T/walk.json" "$T/merged.json" <<'PYEOF' ||
import json, sys
name, verdicts, cache, walk, merged = sys.argv[1:]
doc = json.load(open(cache))
doc["probes"] += [p for p in json.load(open(walk))["probes"]]
doc.pop("crosscheck", None)            # computed from the merged records when printed
json.dump(doc, open(merged, "w"))
rows = {(r["record"], r["figure"]): r for r in json.load(open(verdicts))["rows"]}
hit, size = rows[("cache:l2", "hit_latency_cycles")], rows[("cache:l2", "usable_size_bytes")]
mean_hit = hit["truth"] + hit["tolerance"] / 2          # the noise adds 0 to the jitter, uniformly
w = [p for p in json.load(open(walk))["probes"] if p["name"] == "random-walk"][0]["figures"]
caps = w["global_capacities_bytes"]["value"]
k = [i for i, c in enumerate(caps) if size["truth"] / 1.5 <= c <= 1.5 * size["truth"]]
assert len(k) == 1 and k[0] > 0, (name, "no walk level between others at the L2's size", caps)
f = w["global_level%d_latency_cycles" % (k[0] + 1)]
assert f["value"] is not None, (name, f)
lo, hi = f["value"] - f["ci95"], f["value"] + f["ci95"]
assert lo <= mean_hit <= hi, (name, "L2 level %.1f +- %.1f misses the hit %.1f"
                              % (f["value"], f["ci95"], mean_hit))
print("  %s: L2 level %.1f +- %.1f cycles holds the hit %.1f" % (name, f["value"], f["ci95"],
                                                                  mean_hit))
PYEOF
  fails=$((fails+1))
  $B report --from "$T/merged.json" --format csv >"$T/x.csv" 2>"$T/err" ||
    { echo "FAIL $name: report: $(tail -1 "$T/err")"; fails=$((fails+1)); return; }
  $PY - "$name" "$T/x.csv" <<'PYEOF' || fails=$((fails+1))
import csv, sys
name = sys.argv[1]
rows = [r for r in csv.DictReader(open(sys.argv[2])) if r["probe"] == "crosscheck"]
l2 = [r for r in rows if r["level"] == "L2 hit latency" and "random-walk" in r["figure"]]
assert l2, (name, "the walk is not cross-checked on the L2 hit", rows)
wrong = [(r["level"], r["figure"], r["value"], r["reason"]) for r in rows
         if r["status"] == "unexplained"]
assert not wrong, (name, wrong)
print("  %s: cross-check, %d views, none apart unexplained" % (name, len(rows)))
PYEOF
}

for model in "$SRC"/tests/models/cache_xor64_plru.json "$SRC"/tests/models/cache_xor64_random.json
do
  par middle "$model"
done
par_wait
[ $fails -eq 0 ] && echo "walk_middle_levels: ok" || echo "walk_middle_levels: $fails failures"
exit $((fails > 0))
