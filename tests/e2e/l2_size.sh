#!/usr/bin/env bash
# End-to-end test of the L2 size in average mode (docs/methods.md "cache", "L2 size")
# on tests/models/l2_hashed_partitioned.json: an L2 too large for the trace, XOR-hashed, in two
# partitions whose far hits cost 240 cycles more, tree-PLRU. The size comes from the miss excess
# (a walk less the same lines visited twice in a row), not from a latency plateau: the model's
# 1 MB lies inside [size_low_bytes, size_high_bytes], size_bytes within 1/256 of it; sets, ways,
# mapping and policy are not determined or right (sets and ways: eviction sets, tested in
# l2_structure.sh), never wrong.
set -u
GS_E2E_SIM=1   # a sweep over simulator models: the unsanitized simulator build (common.bash)
. "$(dirname "$0")/common.bash"
M=$SRC/tests/models/l2_hashed_partitioned.json
if $B run cache --target l2 --thorough -q --device "sim:$M" --json "$T/l2.json" >/dev/null 2>"$T/err"; then
  $PY - "$T/l2.json" "$M" <<'PYEOF' || fails=$((fails+1))
import json, sys
doc, model = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
l2 = [c for c in model["memory"]["caches"] if c["name"] == "l2"][0]
f = [p for p in doc["probes"] if p["params"]["level"] == "l2"][0]["figures"]
truth = l2["size_bytes"]
size, low, high = (f[k]["value"] for k in ("usable_size_bytes", "size_low_bytes", "size_high_bytes"))
assert low <= truth < high, (low, truth, high)
assert abs(size - truth) <= truth / 256, (size, truth)
assert f["mapping"]["value"] is None, f["mapping"]
assert f["policy"]["value"] in (None, l2["policy"]), f["policy"]
assert f["ways"]["value"] in (None, l2["ways"]), f["ways"]
assert f["sets"]["value"] is None or \
    abs(f["sets"]["value"] - l2["sets"]) <= (f["sets"].get("ci95") or 0), f["sets"]
print("  l2_hashed_partitioned: L2 %d B in [%d, %d) (model %d); ways %s, policy %s"
      % (size, low, high, truth, f["ways"]["value"], f["policy"]["value"]))
PYEOF
else
  echo "FAIL l2_size: exit status"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
fi
[ $fails -eq 0 ] && echo "l2_size: ok" || echo "l2_size: $fails failures"
exit $((fails > 0))
