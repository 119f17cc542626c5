#!/usr/bin/env bash
# End-to-end test of probe smem-banks on simulator models whose banks are known (16 and 32 banks,
# 4- and 8-byte banks, multicast and single broadcast, with and without noise, and the built-in
# fermi/kepler/hopper models): the JSON figures banks, bank_width_bytes, conflict_cycles_per_way
# and broadcast_rule must equal the model's "shared_memory" truth; a model without that section
# must fail with a message naming it.
set -u
. "$(dirname "$0")/common.bash"

compare() { # DEVICE MODEL_JSON: run the probe and compare figures to the model file's truth
  if ! $B run smem-banks -q --device "$1" --seed 3 --json "$T/out.json" >/dev/null 2>"$T/err"; then
    echo "FAIL $1: exit status $?"; sed 's/^/  /' "$T/err"; fails=$((fails+1)); return
  fi
  $PY - "$T/out.json" "$2" "$SRC/docs/gpusonar-1.schema.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
doc = json.load(open(sys.argv[1]))
truth = json.load(open(sys.argv[2]))["shared_memory"]
from e2e_doc import validate
validate(doc, sys.argv[3])
fig = doc["probes"][0]["figures"]
def val(k):
    v = fig[k].get("value")
    if v is None:
        sys.exit("FAIL %s: %s not determined: %s" % (sys.argv[2], k, fig[k].get("reason")))
    return v
bad = []
for k in ("banks", "bank_width_bytes"):
    if val(k) != truth[k]:
        bad.append("%s %s != truth %s" % (k, val(k), truth[k]))
c, ci = val("conflict_cycles_per_way"), fig["conflict_cycles_per_way"]["ci95"]
if abs(c - truth["conflict_cycles_per_way"]) > 2 * ci + 0.02:
    bad.append("conflict_cycles_per_way %.4f +- %.4f != truth %s" % (c, ci, truth["conflict_cycles_per_way"]))
if val("broadcast_rule") != truth.get("broadcast", "multicast"):
    bad.append("broadcast_rule %s != truth %s" % (val("broadcast_rule"), truth.get("broadcast")))
if bad:
    sys.exit("FAIL %s: %s" % (sys.argv[2], "; ".join(bad)))
print("ok %s: %d banks x %d B, %.3f +- %.3f cycles/way, %s" % (
    sys.argv[2].split("/")[-1], val("banks"), val("bank_width_bytes"), c, ci, val("broadcast_rule")))
PYEOF
}

for m in banks_16x4 banks_32x4 banks_16x8 banks_32x8; do
  compare "sim:$SRC/tests/models/$m.json" "$SRC/tests/models/$m.json"
done
for m in fermi kepler hopper; do
  compare "sim:$m" "$SRC/models/$m.json"
done

# A model without "shared_memory": the probe fails (exit 1) and says which section is missing.
$B run smem-banks -q --device "sim:$SRC/tests/models/cli_minimal.json" >/dev/null 2>"$T/err"
st=$?
if [ $st -ne 1 ] || ! grep -q shared_memory "$T/err"; then
  echo "FAIL model without shared_memory: exit $st"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
fi

[ $fails -eq 0 ] && echo "banks_models: all passed" || echo "banks_models: $fails failed"
exit $((fails > 0))
