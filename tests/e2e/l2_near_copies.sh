#!/usr/bin/env bash
# End-to-end test of the L2 size where the near partition keeps copies of far lines
# (tests/models/l2_near_copies.json, as the H100 showed: the miss-excess edge at the near part's
# 24.9 MB in two runs of four, against a 49 MB plateau). The excess of a walk over the same
# lines visited twice starts where the copies overflow (about 612 KB here), not at the capacity
# (1 MB): the size must not be that edge. Whatever figure is reported must hold the model's 1 MB
# within its ci95, at seeds 1 to 3, and the method must say why the excess edge was not taken.
set -u
GS_E2E_SIM=1   # a sweep over simulator models: the unsanitized simulator build (common.bash)
. "$(dirname "$0")/common.bash"
M=$SRC/tests/models/l2_near_copies.json
for seed in 1 2 3; do
  if $B run cache --target l2 --thorough -q --seed $seed --device "sim:$M" --json "$T/l2.json" >/dev/null 2>"$T/err"; then
    $PY - "$T/l2.json" "$M" <<'PYEOF' || fails=$((fails+1))
import json, sys
doc, model = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
l2 = [c for c in model["memory"]["caches"] if c["name"] == "l2"][0]
f = [p for p in doc["probes"] if p["params"]["level"] == "l2"][0]["figures"]
truth, s = l2["size_bytes"], f["usable_size_bytes"]
assert s["value"] is not None, s
assert abs(s["value"] - truth) <= s["ci95"], (s["value"], s["ci95"], truth)
assert s["ci95"] < truth / 4, s
assert "near partition" in s["method"], s["method"]
print("  l2_near_copies: L2 %d B +- %d (model %d); the excess edge at the near copies rejected"
      % (s["value"], s["ci95"], truth))
PYEOF
  else
    echo "FAIL l2_near_copies seed $seed: exit status"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
  fi
done
[ $fails -eq 0 ] && echo "l2_near_copies: ok" || echo "l2_near_copies: $fails failures"
exit $((fails > 0))
