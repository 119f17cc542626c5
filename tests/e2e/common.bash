# Sourced by every end-to-end test (tests/e2e/*.sh): the binary under test, the source tree,
# the Python with jsonschema (Debian's, not a pyenv one), a scratch folder removed on exit, and a
# failure counter.
B=${GPUSONAR:?set GPUSONAR to the gpusonar binary}
SRC=${GS_SOURCE_DIR:?set GS_SOURCE_DIR to the source tree}
PY=/usr/bin/python3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0

# cache_truth MODEL_SPEC TRUTH SEED LABEL: run `cache --target all` on sim:MODEL_SPEC and compare
# every level with the truth read from the model file TRUTH (tests/e2e/cache_truth.py).
cache_truth() {
  if ! $B run cache --target all -q --device "sim:$1" --seed "$3" --json "$T/out.json" \
       >/dev/null 2>"$T/err"; then
    echo "FAIL $4 seed $3: exit status"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
    return
  fi
  $PY "$SRC/tests/e2e/cache_truth.py" "$T/out.json" "$2" "$SRC/docs/gpusonar-1.schema.json" \
    || { echo "FAIL $4 seed $3"; fails=$((fails+1)); }
}
