#!/usr/bin/env bash
# Property test of probe `cache --target l1`: random valid L1 models from a
# fixed seed (tests/e2e/cache_random_models.py: sizes, lines, sectors, ways, modulo / bit-select /
# XOR index, every policy, jitter); every figure the probe reports must be exact or "not
# determined", never wrong. GS_RANDOM_MODELS sets how many (default 8, about a minute of CPU;
# GS_RANDOM_MODELS=30 for a wider search).
set -u
. "$(dirname "$0")/common.bash"
n=${GS_RANDOM_MODELS:-8}
$PY "$SRC/tests/e2e/cache_random_models.py" gen "$n" 16 "$T" > "$T/list" || exit 1
while read -r model; do
  if $B run cache --target l1 -q --device "sim:$model" --json "$T/out.json" >/dev/null 2>"$T/err"; then
    $PY "$SRC/tests/e2e/cache_random_models.py" check "$T/out.json" "$model" || fails=$((fails+1))
  else
    echo "FAIL $(basename "$model"): exit status"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
  fi
done < "$T/list"
[ $fails -eq 0 ] && echo "cache_random_models: ok" || echo "cache_random_models: $fails models with wrong figures"
exit $((fails > 0))
