#!/usr/bin/env bash
# End-to-end test of probe `cache --target all` on the test models made to be hard
# (tests/models/cache_*.json, tlb_coverage.json): heavy noise with outliers, FIFO, tree-PLRU and
# random replacement, 32-B sectors in 128-B lines, unequal sets, an XOR-hashed set index, and TLB
# entries covering many pages. Each level's inferred structure must equal the model file's truth
# (tests/e2e/cache_truth.py reads it from the model file; the probe never sees it).
set -u
. "$(dirname "$0")/common.bash"
for model in "$SRC"/tests/models/cache_*.json "$SRC"/tests/models/tlb_coverage.json; do
  seeds="1"; case "$model" in *noisy*|*random*) seeds="1 2";; esac
  for seed in $seeds; do
    cache_truth "$model" "$model" "$seed" "$model"
  done
done
[ $fails -eq 0 ] && echo "cache_hard_models: ok" || echo "cache_hard_models: $fails failures"
exit $((fails > 0))
