#!/usr/bin/env bash
# Property test of probe `cache --target l1` and `--target l2`: random valid models from a fixed
# seed (tests/e2e/cache_random_models.py: sizes, lines of 32 to 256 B, sectors and fetch groups,
# ways, modulo / bit-select / XOR index, hashed and partitioned L2s, every policy, jitter, L1s
# whose chases' buffer lies off the index's span or whose data holds fewer lines than tags); every
# figure the probe reports must be exact or "not determined", never wrong. GS_RANDOM_MODELS sets
# how many (default 6, about a minute of CPU; GS_RANDOM_MODELS=40 for a wider search),
# GS_RANDOM_SEED the seed (default 16).
set -u
GS_E2E_SIM=1   # a sweep over simulator models: the unsanitized simulator build (common.bash)
. "$(dirname "$0")/common.bash"
n=${GS_RANDOM_MODELS:-6}
$PY "$SRC/tests/e2e/cache_random_models.py" gen "$n" "${GS_RANDOM_SEED:-16}" "$T" > "$T/list" || exit 1
# one_model MODEL TARGET: the probe on one model, every figure held to the model's truth
one_model() {
  if $B run cache --target "$2" -q --device "sim:$1" --json "$T/out.json" >/dev/null \
       2>"$T/err"; then
    $PY "$SRC/tests/e2e/cache_random_models.py" check "$T/out.json" "$1" "$2" ||
      fails=$((fails+1))
  else
    echo "FAIL $(basename "$1"): exit status"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
  fi
}
while read -r model target; do
  par one_model "$model" "$target"
done < "$T/list"
par_wait
[ $fails -eq 0 ] && echo "cache_random_models: ok" || echo "cache_random_models: $fails models with wrong figures"
exit $((fails > 0))
