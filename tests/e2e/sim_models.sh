#!/usr/bin/env bash
# End-to-end test of simulator model files (docs/sim-models.md): every built-in model and test model
# validates against docs/sim-model.schema.json and loads in the CLI; malformed copies of the fermi
# model (impossible geometry, unequal sets that do not add up, mapping bits that do not give the
# sets, probabilities not summing to 1, an unknown key, a wrong type) are refused with exit status 2
# and a message naming the key path.
set -u
. "$(dirname "$0")/common.bash"

for f in "$SRC"/models/*.json "$SRC"/tests/models/*.json; do
  if ! $PY - "$f" "$SRC/docs/sim-model.schema.json" <<'PYEOF'; then
import json, sys
import jsonschema
model = json.load(open(sys.argv[1]))
schema = json.load(open(sys.argv[2]))
errors = list(jsonschema.Draft202012Validator(schema).iter_errors(model))
for e in errors[:5]:
    print("  %s: %s" % ("/".join(str(p) for p in e.absolute_path), e.message))
sys.exit(1 if errors else 0)
PYEOF
    echo "FAIL schema: $f"; fails=$((fails+1))
  fi
  if ! $B info -q --device "sim:$f" >/dev/null 2>"$T/err"; then
    echo "FAIL load: $f"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
  fi
done

# The example of docs/sim-models.md's memory section, with fermi's device, must load too.
$PY - "$SRC/docs/sim-models.md" "$SRC/models/fermi.json" "$T/doc_example.json" <<'PYEOF' || fails=$((fails+1))
import json, re, sys
doc = open(sys.argv[1]).read()
blocks = re.findall(r"```json\n(.*?)```", doc[doc.index("## memory"):], re.S)
example = json.loads("{" + blocks[0] + "}")
model = {"name": "doc_example", "device": json.load(open(sys.argv[2]))["device"]}
model.update(example)
json.dump(model, open(sys.argv[3], "w"))
PYEOF
if ! $B info -q --device "sim:$T/doc_example.json" >/dev/null 2>"$T/err"; then
  echo "FAIL docs/sim-models.md memory example does not load"; sed 's/^/  /' "$T/err"
  fails=$((fails+1))
fi

# broken NAME PYTHON-EDIT EXPECTED-MESSAGE-PART: write a fermi copy edited by PYTHON-EDIT (acting on
# m, the parsed model) and expect the CLI to refuse it with exit status 2 naming the key.
broken() {
  $PY - "$SRC/models/fermi.json" "$T/$1.json" "$2" <<'PYEOF'
import json, sys
m = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(m, open(sys.argv[2], "w"))
PYEOF
  $B info -q --device "sim:$T/$1.json" >/dev/null 2>"$T/err"
  rc=$?
  if [ "$rc" -ne 2 ] || ! grep -qF -- "$3" "$T/err"; then
    echo "FAIL $1: exit $rc, expected 2 and a message with: $3"; sed 's/^/  /' "$T/err"
    fails=$((fails+1))
  fi
}

broken geometry 'm["memory"]["caches"][0]["size_bytes"] = 12288' \
  'memory.caches[0].size_bytes: 32 sets x 4 ways x 128 B = 16384 B, but size is 12288 B'
broken unequal 'm["memory"]["tlbs"][1]["ways_per_set"] = [16, 8, 8, 8, 8, 8, 8]' \
  'memory.tlbs[1].entries: sum of ways_per_set (64)'
broken bits 'm["memory"]["caches"][1]["mapping"] = {"bits": [7, 8, 9]}' \
  'memory.caches[1].mapping: 3 index bits give 8 sets, but sets is 4'
broken probabilities 'm["memory"]["caches"][0]["way_probabilities"] = [0.25, 0.5, 0.25, 0.25]' \
  'memory.caches[0].way_probabilities: way probabilities sum to 1.25, not 1'
broken slru_missing 'm["memory"]["caches"][2]["policy"] = "slru"' \
  'memory.caches[2].protected_ways: missing: slru needs it (1 .. ways - 1)'
broken slru_range 'm["memory"]["caches"][2].update(policy="slru", protected_ways=8)' \
  'memory.caches[2].protected_ways: must be a whole number 1 .. ways - 1'
broken slru_ways 'm["memory"]["caches"][1].update(policy="slru", protected_ways=2)' \
  'memory.caches[1].policy: slru needs 2 to 16 ways in every set'
broken hslru_missing 'm["memory"]["caches"][2]["policy"] = "hslru"' \
  'memory.caches[2].protected_ways: missing: hslru needs it (1 .. ways - 1)'
broken hslru_ways 'm["memory"]["caches"][1].update(policy="hslru", protected_ways=2)' \
  'memory.caches[1].policy: hslru needs 2 to 16 ways in every set'
broken slru_other 'm["memory"]["caches"][2]["protected_ways"] = 2' \
  'memory.caches[2].protected_ways: only for "policy": "slru"'
broken far_alone 'm["memory"]["tlbs"][1]["far_hit_cycles"] = 9' \
  'memory.tlbs[1].near_ways: missing: near_ways and far_hit_cycles go together'
broken near_alone 'm["memory"]["tlbs"][1]["near_ways"] = 4' \
  'memory.tlbs[1].far_hit_cycles: missing: near_ways and far_hit_cycles go together'
broken near_range 'm["memory"]["tlbs"][1].update(near_ways=17, far_hit_cycles=9)' \
  'memory.tlbs[1].near_ways: 17, but the largest set has 17 ways; give 1 .. 16'
broken far_zero 'm["memory"]["tlbs"][1].update(near_ways=4, far_hit_cycles=0)' \
  'memory.tlbs[1].far_hit_cycles: must be > 0 (leave both keys out for none)'
broken near_type 'm["memory"]["tlbs"][1].update(near_ways=2.5, far_hit_cycles=9)' \
  'memory.tlbs[1].near_ways: must be a whole number'
broken sm_extra_scope 'm["memory"]["caches"][0]["sm_extra_cycles"] = [0, 4]' \
  'memory.caches[0].sm_extra_cycles: applies to a level shared by the SMs'
broken sm_extra_value 'm["memory"]["caches"][2]["sm_extra_cycles"] = [0, -4]' \
  'memory.caches[2].sm_extra_cycles[1]: must be a number of cycles 0..1e6'
broken sm_extra_empty 'm["memory"]["caches"][2]["sm_extra_cycles"] = []' \
  'memory.caches[2].sm_extra_cycles: must be a list of 1 to 256 numbers'
broken unknown 'm["memory"]["caches"][2]["assoc"] = 8' \
  'memory.caches[2].assoc: unknown key'
broken type 'm["memory"]["tlbs"][0]["entries"] = "sixteen"' \
  'memory.tlbs[0].entries: must be a whole number'
broken path 'm["memory"]["caches"][0]["paths"] = ["ca", "l1"]' \
  'memory.caches[0].paths[1]: unknown load path'
broken ways 'm["memory"]["caches"][0]["ways"] = 65537' \
  'memory.caches[0].ways: 65537 is out of range 1..65536'
broken clock 'm["device"]["clock_khz"] = 1e-300' \
  'device.clock_khz: 1e-300 is out of range 1000..100000000'

if [ "$fails" -ne 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "all simulator models valid; malformed ones refused"
