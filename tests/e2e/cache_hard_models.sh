#!/usr/bin/env bash
# End-to-end test of probe `cache --target all` on the test models made to be hard
# (tests/models/cache_*.json, tlb_coverage.json): heavy noise with outliers, FIFO, tree-PLRU and
# random replacement, 32-B sectors in 128-B lines, sectors a miss fills in groups (cache_fetch:
# fetch 64 B and 128 B, sector not determined), unequal sets, an XOR-hashed set index (also with
# the buffer placed off its span), and TLB entries covering many pages. Each level's inferred
# structure must equal the model file's truth (tests/e2e/cache_truth.py reads it from the model
# file; the probe never sees it).
set -u
GS_E2E_SIM=1   # a sweep over simulator models: the unsanitized simulator build (common.bash)
. "$(dirname "$0")/common.bash"
# cache_xor64_random: a hashed L1 of 64-B lines under random replacement, which sweeps at a 128-B
# stride read as twice its size with 128-B lines; one seed (its sweeps take the most time here).
# cache_xor64_plru: a tree-PLRU L1 of 64-B lines whose hashed index the fine-grained walks find:
# its mapping must be XOR masks (exact, checked by cache_truth.py), not the word "hashed".
# truth_and_masks MODEL SEED: the model's truth; on cache_xor64_plru also its XOR masks
truth_and_masks() {
  cache_truth "$1" "$1" "$2" "$1"
  case "$1" in *xor64_plru*)
    $PY -c 'import json, sys
f = [p for p in json.load(open(sys.argv[1]))["probes"] if p["params"]["level"] == "l1"][0]
m = f["figures"]["mapping"]
assert m["value"] == "xor" and "overflowed past capacity" in m["method"], m
print("  cache_xor64_plru: XOR masks from the set the fine-grained walks found")' "$T/out.json" ||
      { echo "FAIL cache_xor64_plru: no XOR masks"; fails=$((fails+1)); };;
  esac
}
for model in "$SRC"/tests/models/cache_*.json "$SRC"/tests/models/tlb_coverage.json; do
  seeds="1"; case "$model" in *xor64*) ;; *noisy*|*random*) seeds="1 2";; esac
  for seed in $seeds; do
    par truth_and_masks "$model" "$seed"
  done
done
# average_structure SPEC[@SEED]: the l1 and tex levels from average-mode walks, held to the truth
average_structure() {
  local spec=$1 seed=1 file
  case "$spec" in *@*) seed=${spec##*@}; spec=${spec%@*};; esac
  file=$spec; case "$spec" in */*) ;; *) file="$SRC/models/$spec.json";; esac
  if $B run cache --target l1 -q --structure average --device "sim:$spec" --seed "$seed" \
       --json "$T/avg.json" >/dev/null 2>"$T/err" && $B run cache --target tex -q \
       --structure average --seed "$seed" --device "sim:$spec" --json "$T/avg2.json" \
       >/dev/null 2>>"$T/err"; then
    $PY - "$T/avg.json" "$T/avg2.json" "$T/avgall.json" <<'PYEOF'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
a["probes"] += b["probes"]
json.dump(a, open(sys.argv[3], "w"))
PYEOF
    GS_TRUTH_AVERAGE=1 $PY "$SRC/tests/e2e/cache_truth.py" "$T/avgall.json" "$file" \
      "$SRC/docs/gpusonar-1.schema.json" l1,tex || { echo "FAIL --structure average $spec"; fails=$((fails+1)); }
  else
    echo "FAIL --structure average $spec: exit status"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
  fi
}
# --structure average: line, sets, ways and mapping of L1-like levels from average-mode walks
# alone: stride walks for bit-select indexes (fermi, kepler, sectored), eviction-set reductions
# for modulo and XOR-hashed ones (sets and ways; the mapping as line mod sets for l1_modulo370,
# as XOR masks from one- and two-bit moves for cache_xor and from many lines of one set for
# l1_xor_wide and hopper (the H100's masks, tags beyond data), whose masks weigh three bits or
# more, also under random replacement and jitter with outliers in l1_xor_wide_random), and "not
# determined"
# for unequal sets (cache_unequal), never a wrong structure. l1_xor_tags holds fewer lines of
# data than tags (the H100's L1): its sets and ways are the tags', read under the largest
# carve-out, where it holds fewer lines than sets while a set keeps its 4.
# l1_modulo370 with seed 2 (SPEC@SEED): an eviction-set reduction that once dropped its last group
# and walked an empty chain ("chase: the chain is empty", the H100's seed-2 failure).
# l1_modulo_tags: 384 sets x 4 ways on line mod 384 holding data for 1480 lines: capacity /
# (ways x line) = 370 is no set count and no index confirms one, so the sets stay not determined
# (never 370).
# l1_xor_tags_misplaced: l1_xor_tags with its chases' buffer at 1.25 MiB + 256 B, off the span
# of its XOR index: read from offsets of an unaligned base no linear index fits (370 sets once);
# the chases ask for a base aligned to their footprint, and the tags' 512 sets and masks come back.
# cache_xor_misplaced (in the loop above): the same placement under a fine-grained run.
for spec in fermi kepler hopper "$SRC/tests/models/cache_sectored.json" \
            "$SRC/tests/models/cache_xor.json" "$SRC/tests/models/cache_unequal.json" \
            "$SRC/tests/models/l1_modulo370.json@2" "$SRC/tests/models/l1_xor_wide.json" \
            "$SRC/tests/models/l1_xor_wide_random.json@2" "$SRC/tests/models/l1_xor_tags.json" \
            "$SRC/tests/models/l1_modulo_tags.json" \
            "$SRC/tests/models/l1_xor_tags_misplaced.json"; do
  par average_structure "$spec"
done
par_wait

# l1_modulo64_tags: 48 x 4 tags of 64 B on line mod 48 holding data for 144 lines. A sweep at a
# 128-B stride reaches half the sets and read the tags' 12,288 B as the size; the end is taken
# again at the line's stride: 9,216 B, every figure exact or not determined.
if $B run cache --target l1 -q --device "sim:$SRC/tests/models/l1_modulo64_tags.json" \
     --json "$T/m64.json" >/dev/null 2>"$T/err"; then
  $PY "$SRC/tests/e2e/cache_random_models.py" check "$T/m64.json" \
      "$SRC/tests/models/l1_modulo64_tags.json" l1 || fails=$((fails+1))
  $PY -c 'import json, sys
f = json.load(open(sys.argv[1]))["probes"][0]["figures"]
assert f["size_bytes"]["value"] == 9216, f["size_bytes"]
print("  l1_modulo64_tags: 9216 B, the data lines at the stride of a line")' "$T/m64.json" ||
      fails=$((fails+1))
else
  echo "FAIL cache l1_modulo64_tags"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
fi

# l1_xor_tags_per_set: the same tags, but the largest carve-out leaves one way per set (as many
# lines as sets): the walks cannot tell tags beyond data from ways taken away, so sets and ways
# stay not determined, with what was measured.
if $B run cache --target l1 -q --structure average \
     --device "sim:$SRC/tests/models/l1_xor_tags_per_set.json" --json "$T/tps.json" >/dev/null \
     2>"$T/err"; then
  $PY - "$T/tps.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
f = json.load(open(sys.argv[1]))["probes"][0]["figures"]
for k in ("sets", "ways"):
    assert f[k]["value"] is None and "hits: not fewer lines than sets" in f[k]["reason"], (k, f[k])
assert "tag_bytes" not in f and f["size_bytes"]["value"] == 189440, f["size_bytes"]
print("  l1_xor_tags_per_set: sets and ways not determined (as many lines as sets at 100 %)")
PYEOF
else
  echo "FAIL cache l1_xor_tags_per_set"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
fi

# TLBs in average mode: tests/e2e/tlb_levels.sh.

# An L1 that gives way to any shared memory held (tests/models/unified_l1.json): no trace budget
# leaves it as the default does, so the size comes from average walks without shared memory and
# the structure is "not determined" with that reason, never the structure of the smaller L1.
if $B run cache --target l1 -q --device "sim:$SRC/tests/models/unified_l1.json" \
     --json "$T/u.json" >/dev/null 2>"$T/err"; then
  $PY - "$T/u.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
rec = [p for p in json.load(open(sys.argv[1]))["probes"] if p["params"].get("level") == "l1"][0]
f = rec["figures"]
assert f["size_bytes"]["value"] == 32768, f["size_bytes"]
for k in ("line_bytes", "sets", "ways", "policy"):
    assert f[k]["value"] is None and "under every carve-out preference" in f[k]["reason"], (k, f[k])
print("  unified_l1: size 32768 B from average walks, structure not determined (every preference)")
PYEOF
else
  echo "FAIL cache unified_l1"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
fi
[ $fails -eq 0 ] && echo "cache_hard_models: ok" || echo "cache_hard_models: $fails failures"
exit $((fails > 0))
