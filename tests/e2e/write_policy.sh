#!/usr/bin/env bash
# End-to-end test of probe write-policy on simulator models whose store policy is known. Two
# models with opposite L1 policies (tests/models/write_back_l1.json: write-back, write-allocate by
# sector, a store hit updates; write_evict_l1.json: write-through, no write-allocate, a store hit
# invalidates the line, and ld.nc reads a texture cache stores never reach, so it keeps the old
# value) and the built-in hopper (the H100's write-through L1 that allocates only the stored word,
# "write_allocate_unit": "word") must read
# back what the model says for ld, ld.ca and ld.nc, while ld.cg (no L1) must say "not
# determined"; on write_noisy.json, whose jitter is wider than the gap between an L1 and an L2
# hit, every verdict must be "not determined", never a guess. The documents must validate.
set -u
. "$(dirname "$0")/common.bash"

check() { # MODEL_SPEC MODEL_FILE NOISY
  local name; name=$(basename "$2" .json)
  if ! "$B" run write-policy --device "sim:$1" -q --seed 5 --json "$T/$name.json" \
       >"$T/$name.txt" 2>"$T/$name.err"; then
    echo "FAIL $name: exit status"; sed 's/^/  /' "$T/$name.err"; fails=$((fails+1)); return
  fi
  grep -q "default_write_policy" "$T/$name.txt" || { echo "FAIL $name: not in the text report"; fails=$((fails+1)); }
  $PY - "$T/$name.json" "$2" "$3" "$SRC/docs/gpusonar-1.schema.json" <<'PYEOF' || { echo "FAIL $name"; fails=$((fails+1)); }
import json, sys
doc, model, noisy = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3] == "1"
from e2e_doc import validate
validate(doc, sys.argv[4])
(probe,) = [p for p in doc["probes"] if p["name"] == "write-policy"]
figs = probe["figures"]
caches = model["memory"]["caches"]

def policy(lv):   # the level's store policy, with memory_parse.c's defaults by scope
    sm = lv.get("scope", "device") == "sm"
    return {"wp": lv.get("write_policy", "write-through" if sm else "write-back"),
            "alloc": lv.get("write_allocate", not sm),
            "hit": lv.get("store_hit", "update"),
            "words": lv.get("write_allocate_unit", "sector") == "word",
            "sectored": lv.get("sector_bytes", lv["line_bytes"]) < lv["line_bytes"]}

store_levels = [c for c in caches if "default" in c["paths"]]
l1 = policy(store_levels[0])
def truth(path):
    lv = next(c for c in caches if path in c["paths"])
    if lv in store_levels:
        p = policy(lv)
        return {"write_allocate": "yes" if p["alloc"] else "no",
                "allocate_unit": ("word" if p["words"] else "sector" if p["sectored"] else "line")
                                 if p["alloc"] else None,
                "write_policy": p["wp"],
                "store_hit": "invalidates it" if p["hit"] == "invalidate" else "updates it",
                "invalidate_unit": "line" if p["hit"] == "invalidate" else None}
    # a level that stores never reach: it keeps the old value; the store itself stays in the
    # L1 only if that L1 is write-back and allocates it
    return {"write_allocate": "no", "allocate_unit": None, "store_hit": "keeps the old value",
            "write_policy": "write-back" if l1["wp"] == "write-back" and l1["alloc"]
                            else "write-through", "invalidate_unit": None}

bad = []
for path in ("default", "ca", "nc"):
    want = truth(path)
    for key, w in want.items():
        f = figs.get("%s_%s" % (path, key))
        got = f["value"] if f else None
        if noisy:
            if got is not None:
                bad.append("%s_%s = %s on the noisy model: should be not determined" % (path, key, got))
        elif got != w:
            bad.append("%s_%s = %s, model %s (%s)" % (path, key, got, w, (f or {}).get("reason") or (f or {}).get("method")))
for key in ("write_allocate", "write_policy", "store_hit"):
    f = figs.get("cg_" + key)
    if f is None or f["value"] is not None or "not separated" not in f.get("reason", ""):
        bad.append("cg_%s = %s: ld.cg does not use the L1, should be not determined" % (key, f and f["value"]))
for path in ("default", "ca", "cg", "nc"):
    for key in ("hit_cycles", "l2_cycles"):
        if figs.get("%s_%s" % (path, key), {}).get("n", 0) < 2:
            bad.append("%s_%s has no samples" % (path, key))
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PYEOF
}

check "$SRC/tests/models/write_back_l1.json" "$SRC/tests/models/write_back_l1.json" 0
check "$SRC/tests/models/write_evict_l1.json" "$SRC/tests/models/write_evict_l1.json" 0
check hopper "$SRC/models/hopper.json" 0
check "$SRC/tests/models/write_noisy.json" "$SRC/tests/models/write_noisy.json" 1

# The one-page report's table of the L1's store policy, made from a saved document.
"$B" report --from "$T/write_evict_l1.json" >"$T/report.txt" 2>&1
grep -A5 "^L1 stores" "$T/report.txt" | grep -Eq "^  default +no +write-through +invalidates it" \
  && grep -A5 "^L1 stores" "$T/report.txt" | grep -Eq "^  nc +no +write-through +keeps the old value" \
  && grep -A5 "^L1 stores" "$T/report.txt" | grep -Eq "^  cg +n/d +n/d +n/d" \
  || { echo "FAIL the report's L1 stores table:"; sed -n '/^L1 stores/,/^$/p' "$T/report.txt"; fails=$((fails+1)); }

# Not in the default report (over a second on a GPU), and --help lists its options.
"$B" list 2>&1 | grep -q "^  write-policy " || { echo "FAIL write-policy is in the default report"; fails=$((fails+1)); }
"$B" run write-policy --help 2>&1 | grep -q -- "--evict" || { echo "FAIL --help has no --evict"; fails=$((fails+1)); }
"$B" run write-policy --device sim:hopper --paths default,xx -q >/dev/null 2>"$T/usage.err" \
  && { echo "FAIL --paths xx accepted"; fails=$((fails+1)); }

[ "$fails" -eq 0 ] && echo "write-policy: all checks passed"
exit "$fails"
