#!/usr/bin/env bash
# End-to-end test of the TLB levels of probe `cache --target tlb` on simulator models: a first
# level whose fine-grained and average-mode walks disagree is "not determined" with both readings
# (tests/models/tlb_disagree.json), never a figure with a warning.
set -u
. "$(dirname "$0")/common.bash"

if $B run cache --target tlb -q --device "sim:$SRC/tests/models/tlb_disagree.json" \
     --json "$T/d.json" >/dev/null 2>"$T/err"; then
  $PY - "$T/d.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
doc = json.load(open(sys.argv[1]))
rec = {p["params"]["level"]: p for p in doc["probes"]}
l1 = rec["l1tlb"]
for k in ("entries", "page_bytes", "coverage_bytes", "size_bytes", "miss_penalty_cycles"):
    f = l1["figures"][k]
    assert f["value"] is None, ("l1tlb", k, f)
    assert "fine-grained walks found" in f["reason"] and "average-mode stride walks:" in f["reason"], f
assert not l1.get("warnings"), l1.get("warnings")
print("  tlb_disagree: first level not determined, both readings in the reason")
PYEOF
else
  echo "FAIL tlb_disagree: exit status"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
fi
[ $fails -eq 0 ] && echo "tlb_levels: ok" || echo "tlb_levels: $fails failures"
exit $((fails > 0))
