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
    if ! $B run cache --target all -q --device "sim:$model" --seed $seed --json "$T/out.json" \
         >/dev/null 2>"$T/err"; then
      echo "FAIL $model seed $seed: exit status"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
      continue
    fi
    $PY "$SRC/tests/e2e/cache_truth.py" "$T/out.json" "$model" \
        "$SRC/docs/gpusonar-1.schema.json" || { echo "FAIL $model seed $seed"; fails=$((fails+1)); }
  done
done
[ $fails -eq 0 ] && echo "cache_hard_models: ok" || echo "cache_hard_models: $fails failures"
exit $((fails > 0))
