#!/usr/bin/env bash
# End-to-end test of the cross-check (docs/methods.md, "Cross-check"): on every built-in model and
# two hard ones, the probes that measure one structure (cache levels, random-walk, paths,
# global-patterns, smem-banks, cluster, bandwidth, mem-bandwidth) are never apart without a named
# reason; the list in the document passes the schema, and the text report says the same. A copy
# of one document with one probe's figure moved must come out unexplained, so the test can fail.
set -u
GS_E2E_SIM=1   # a sweep over simulator models: the unsanitized simulator build (common.bash)
. "$(dirname "$0")/common.bash"
passes=0
ok() { passes=$((passes+1)); }
bad() { echo "FAIL $*"; fails=$((fails+1)); }

# one_model SPEC MAX_WALK [MORE]: the probes' records on sim:SPEC as separate runs (a cache level
# at a time keeps it to seconds; MAX_WALK "default": the probe's own largest size; MORE: further
# targets), merged into one document whose cross-check is computed on printing.
one_model() {
  local spec=$1 max=$2 name=${1##*/} t
  name=${name%.json}
  for t in l1 tex ro const ${3:-}; do
    $B run cache --target $t --device "sim:$spec" -q --json "$T/c_$t.json" >/dev/null 2>"$T/err" ||
      { bad "$name: cache --target $t: $(tail -1 "$T/err")"; return; }
  done
  local size=(--max-size "$max")
  [ "$max" = default ] && size=()
  $B run random-walk "${size[@]}" --walkers-max 0 --device "sim:$spec" -q \
    --json "$T/walk.json" >/dev/null 2>"$T/err" ||
    { bad "$name: random-walk: $(tail -1 "$T/err")"; return; }
  $B report --probes smem-banks,global-patterns,bandwidth,mem-bandwidth,cluster,paths \
    --device "sim:$spec" -q --json "$T/rest.json" >/dev/null 2>"$T/err" ||
    { bad "$name: report: $(tail -1 "$T/err")"; return; }
  local docs=("$T"/c_*.json "$T/walk.json" "$T/rest.json")
  $PY - "$T/merged.json" "${docs[@]}" <<'PYEOF' || { bad "$name: merge"; return; }
import json, sys
docs = [json.load(open(f)) for f in sys.argv[2:]]
merged = docs[-1]
merged["probes"] = [p for d in docs for p in d["probes"]]
merged.pop("crosscheck", None)          # computed from the merged records when printed
json.dump(merged, open(sys.argv[1], "w"))
PYEOF
  $B report --from "$T/merged.json" --format csv >"$T/x.csv" 2>"$T/err" || { bad "$name: csv"; return; }
  $B report --from "$T/merged.json" >"$T/x.txt" 2>"$T/err" || { bad "$name: text"; return; }
  $PY - "$name" "$T/x.csv" "$T/x.txt" <<'PYEOF' && ok || bad "$name: cross-check"
import csv, sys
name = sys.argv[1]
rows = [r for r in csv.DictReader(open(sys.argv[2])) if r["probe"] == "crosscheck"]
structures = {r["level"] for r in rows}
assert len(structures) >= 4, (name, "too few structures cross-checked", structures)
wrong = [(r["level"], r["figure"], r["value"], r["reason"]) for r in rows
         if r["status"] == "unexplained" or (r["status"] == "apart" and not r["reason"])]
assert not wrong, (name, wrong)
text = open(sys.argv[3]).read()
assert "Cross-check" in text and "UNEXPLAINED" not in text, (name, text[-600:])
print("%s: %d structures, %d views, none apart unexplained" % (name, len(structures), len(rows)))
PYEOF
}

par one_model fermi 2MB
par one_model kepler 4MB
# hopper's walk to the default 3 x L2 with its L2 measured: the walk's DRAM level is a limit the
# walk does not reach (the probe widens it to the bounds any hit curve allows, docs/methods.md)
par one_model hopper default l2
par one_model "$SRC/tests/models/cache_xor_random.json" 1MB
par one_model "$SRC/tests/models/cache_noisy.json" 1MB
par_wait

# The list a run writes passes the schema; a figure moved makes a structure unexplained.
$B report --probes smem-banks,random-walk --device sim:kepler -q --json "$T/doc.json" \
  >/dev/null 2>"$T/err" || bad "report: $(tail -1 "$T/err")"
$PY - "$T/doc.json" "$SRC/docs/gpusonar-1.schema.json" "$T/moved.json" <<'PYEOF' && ok || bad "schema / moved figure"
import json, sys, jsonschema
doc = json.load(open(sys.argv[1]))
jsonschema.validate(doc, json.load(open(sys.argv[2])))
xc = {s["structure"]: s for s in doc["crosscheck"]}
assert xc["shared-memory latency"]["verdict"] == "agree", xc
for p in doc["probes"]:
    if p["name"] == "random-walk":
        p["figures"]["shared_level1_latency_cycles"]["value"] *= 1.25
doc.pop("crosscheck")
json.dump(doc, open(sys.argv[3], "w"))
PYEOF
$B report --from "$T/moved.json" >"$T/moved.txt" 2>"$T/err" || bad "report --from moved"
grep -q "UNEXPLAINED" "$T/moved.txt" && grep -q "^  shared-memory latency" "$T/moved.txt" && ok ||
  bad "a moved figure is not unexplained: $(grep -A2 Cross-check "$T/moved.txt")"

echo "crosscheck: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
