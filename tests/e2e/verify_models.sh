#!/usr/bin/env bash
# End-to-end test of `gpusonar verify`: on every built-in model (models/*.json) and every test
# model (tests/models/*.json) the probes' inferred figures must agree with the model file's truth
# (src/sim/truth.c): any figure judged wrong fails the test (exit 1), as does trouble (exit 2).
# Also: --device cuda:N is refused as a usage error naming why; --verdicts - writes the verdicts
# as JSON; --json FILE writes a result document that follows the schema; --probes limits the rows
# to the probes run.
set -u
GS_E2E_SIM=1   # a sweep over simulator models: the unsanitized simulator build (common.bash)
. "$(dirname "$0")/common.bash"

# Known inference bugs: MODEL_BASENAME -> the bug. A model listed here may say wrong without
# failing the test; list one only for a real inference bug, never for a truth mistake.
declare -A known_bugs=(
)

# verify_one MODEL: the model's verdicts (run as parallel parts: par, common.bash)
verify_one() {
  local model=$1 name rc counts
  name=$(basename "$model" .json)
  $B verify -q --device "sim:$model" >"$T/v.txt" 2>"$T/err"
  rc=$?
  counts=$(tail -n 1 "$T/v.txt")
  if [ $rc -eq 0 ]; then
    echo "  $name: $counts"
  elif [ $rc -eq 1 ] && [ -n "${known_bugs[$name]:-}" ]; then
    echo "  $name: known inference bug (${known_bugs[$name]}): $counts"
    grep -E ' wrong  <--' "$T/v.txt" | sed 's/^/    /'
  else
    echo "FAIL verify $name: exit status $rc"
    grep -E ' wrong  <--' "$T/v.txt" | sed 's/^/    /'
    sed 's/^/    /' "$T/err"
    fails=$((fails+1))
  fi
}
for model in "$SRC"/models/*.json "$SRC"/tests/models/*.json; do
  par verify_one "$model"
done
par_wait

# A real GPU has no stated truth: a usage error (2) that says so, before anything is measured.
$B verify -q --device cuda:0 >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -ne 2 ] || ! grep -q "only a simulated GPU states the truth" "$T/err"; then
  echo "FAIL verify --device cuda:0: exit $rc"; cat "$T/err"; fails=$((fails+1))
fi

# Machine-readable verdicts, a schema-valid result document, and only the rows of the probes run.
if $B verify -q --probes smem-banks --verdicts - --json "$T/doc.json" \
     --device "sim:$SRC/tests/models/banks_32x4.json" >"$T/verdicts.json" 2>"$T/err"; then
  $PY - "$T/verdicts.json" "$T/doc.json" "$SRC/docs/gpusonar-1.schema.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
v = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
from e2e_doc import validate
validate(doc, sys.argv[3])
assert v["counts"]["wrong"] == 0, v["counts"]
assert {r["record"] for r in v["rows"]} == {"smem-banks"}, v["rows"]
banks = [r for r in v["rows"] if r["figure"] == "banks"][0]
assert banks["verdict"] == "exact" and banks["truth"] == 32, banks
assert [p["name"] for p in doc["probes"]] == ["smem-banks"], doc["probes"]
print("  --verdicts -: %d rows, --json: a valid document" % len(v["rows"]))
PYEOF
else
  echo "FAIL verify --verdicts -"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
fi
[ $fails -eq 0 ] && echo "verify_models: ok" || echo "verify_models: $fails failures"
exit $((fails > 0))
