#!/usr/bin/env bash
# End-to-end test of `run random-walk --warmup auto`: a global walk over more than
# 2 x L2 warmed by only the last 2 x L2 / slot accesses of a pass, walked split (1024 segments
# at once, docs/methods.md "The split warm-up"), must read what a whole serial pass reads, on
# models whose L2 is not LRU (random replacement: walk_levels.json, 512 KB, and
# l2_xor_random_2mb.json, XOR-indexed; tree-PLRU: l2_xor_plru_2mb.json, l2_hashed_partitioned.json)
# and on the hopper model (LRU). Same seed in both modes; what differs besides the warm-up is the
# model's random stream (replacement and noise draws). At the default 2048 timed accesses that
# moves a walk past the L2 by about 1 % (sd; one access misses or hits, 150 cycles apart), so two
# walks differed by up to 2 % whatever their warm-up; at 16384 by 0.2-0.7 %: every size above
# 2 x L2 must agree within 1.5 % and the Eq. 6 fit within 1.5 % (latencies) and 3 %
# (capacities), and auto must say in params and method that it capped the warm-up.
set -u
GS_E2E_SIM=1   # a sweep over simulator models: the unsanitized simulator build (common.bash)
. "$(dirname "$0")/common.bash"

for model in "$SRC/tests/models/walk_levels.json" "$SRC/tests/models/l2_xor_random_2mb.json" \
             "$SRC/tests/models/l2_xor_plru_2mb.json" \
             "$SRC/tests/models/l2_hashed_partitioned.json" "$SRC/models/hopper.json"; do
  name=$(basename "$model" .json)
  ok=1
  for mode in full auto; do
    if ! "$B" run random-walk --device "sim:$model" --walkers-max 0 --warmup "$mode" -q \
         --timed 16384 \
         --seed 5 --json "$T/$name-$mode.json" >/dev/null 2>"$T/err"; then
      echo "FAIL $name --warmup $mode: exit status"; sed 's/^/  /' "$T/err"
      fails=$((fails+1)); ok=0
    fi
  done
  [ $ok = 1 ] || continue
  $PY - "$T/$name-full.json" "$T/$name-auto.json" "$name" <<'PYEOF' || fails=$((fails+1))
import json, sys
def probe(path):
    doc = json.load(open(path))
    return doc, [p for p in doc["probes"] if p["name"] == "random-walk"][0]
dfull, full = probe(sys.argv[1])
dauto, auto = probe(sys.argv[2])
name, bad = sys.argv[3], []
l2 = dfull["device"]["l2_bytes"]
def series(p):
    s = p["series"]["global_walk"]
    return dict(zip(s["x"], s["y"]))
sf, sa = series(full), series(auto)
above = [x for x in sf if x > 2 * l2]
if not above:
    bad.append("no size above 2 x L2 (%d B) was walked" % l2)
for x in above:
    if x not in sa:
        bad.append("size %d walked in full mode only" % x)
    elif abs(sa[x] - sf[x]) > 0.015 * sf[x]:
        bad.append("%d B (%.2f x L2): auto %.2f cycles, full %.2f" % (x, x / l2, sa[x], sf[x]))
ff, fa = full["figures"], auto["figures"]
if ff["global_levels"]["value"] != fa["global_levels"]["value"]:
    bad.append("levels: auto %s, full %s" % (fa["global_levels"]["value"],
                                            ff["global_levels"]["value"]))
else:
    for key, tol in (("global_latencies_cycles", 0.015), ("global_capacities_bytes", 0.03)):
        for a, f in zip(fa[key]["value"], ff[key]["value"]):
            if abs(a - f) > tol * abs(f):
                bad.append("%s: auto %s, full %s" % (key, fa[key]["value"], ff[key]["value"]))
                break
if auto["params"].get("warmup") != "auto" or full["params"].get("warmup") != "full":
    bad.append("params.warmup: %s / %s" % (full["params"].get("warmup"),
                                           auto["params"].get("warmup")))
if "--warmup auto" not in fa["global_latency_cycles"]["method"]:
    bad.append("the largest walk's method does not say its warm-up was capped: %s"
               % fa["global_latency_cycles"]["method"])
if bad:
    print("FAIL %s:\n  %s" % (name, "\n  ".join(bad)))
    sys.exit(1)
print("ok   %s: %d sizes above 2 x L2 agree (largest: full %.2f, auto %.2f cycles)"
      % (name, len(above), sf[max(above)], sa[max(above)]))
PYEOF
done

exit $((fails > 0))
