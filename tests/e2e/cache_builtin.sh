#!/usr/bin/env bash
# End-to-end test of probe `cache --target all` on the built-in simulator models (fermi, kepler,
# hopper): every level's inferred structure (size, line, fetch, sector, sets, ways or ways per set,
# mapping, policy, way probabilities; TLB entries, page and coverage) must equal the model file's
# truth, read by tests/e2e/cache_truth.py from the model file alone. Two seeds each. Also checks
# the L1 size per shared-memory carve-out (average-mode sweeps) against hopper's carve-out table,
# and that `pchase --trace` writes the raw trace as CSV.
set -u
GS_E2E_SIM=1   # a sweep over simulator models: the unsanitized simulator build (common.bash)
. "$(dirname "$0")/common.bash"
for model in fermi kepler hopper; do
  for seed in 1 2; do
    par cache_truth "$model" "$SRC/models/$model.json" "$seed" "$model"
  done
done
par_wait

# cache: the L1 size by carve-out preference (average-mode sweeps) follows the hopper model's
# carve-out table (with its own geometry at default_carveout_percent): the entry with the
# smallest percent >= the request, else the largest
if $B run cache --target l1 -q --device sim:hopper --json "$T/co.json" >/dev/null 2>"$T/err"; then
  $PY - "$T/co.json" "$SRC/models/hopper.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
doc = json.load(open(sys.argv[1]))
model = json.load(open(sys.argv[2]))
l1 = [c for c in model["memory"]["caches"] if c["name"] == "l1"][0]
line = l1["line_bytes"]
# the capacity: the data's where the level holds fewer lines than tags (data_lines)
held = lambda c: c["data_lines"] * line if c.get("data_lines") else c["size_bytes"]
cos = [dict(c, size_bytes=held(c)) for c in l1["carveout"]] + \
      ([{"percent": l1["default_carveout_percent"], "size_bytes": held(l1)}]
       if "default_carveout_percent" in l1 else [])
cos = sorted(cos, key=lambda c: c["percent"])
rec = [p for p in doc["probes"] if p["params"].get("level") == "l1"][0]
s = rec["series"]["l1_size_by_carveout"]
assert len(s["x"]) >= 3, s
for x, y in zip(s["x"], s["y"]):
    want = next((c for c in cos if c["percent"] >= x), cos[-1])["size_bytes"]
    assert abs(y - want) <= want / 32, "carve-out %s%%: %s B, want %s B" % (x, y, want)
assert rec["figures"]["size_bytes"]["value"] == held(l1), rec["figures"]["size_bytes"]
print("  carve-outs: %d points match the model" % len(s["x"]))
PYEOF
else
  echo "FAIL cache carve-outs"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
fi

# pchase: a fine-grained trace of the Fermi L1 just past capacity, as CSV
if $B run pchase -q --device sim:fermi --path ca --array 16512 --stride 128 --iterations 500 \
     --warmup 2 --trace "$T/t.csv" --json "$T/p.json" >/dev/null 2>"$T/err"; then
  $PY - "$T/t.csv" "$T/p.json" <<'PYEOF' || fails=$((fails+1))
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
doc = json.load(open(sys.argv[2]))
fig = doc["probes"][0]["figures"]
assert len(rows) == 500, len(rows)
assert rows[1]["offset_bytes"] == "128", rows[1]
lat = [int(r["latency_cycles"]) for r in rows]
slow = sum(1 for x in lat if x > 2 * min(lat))
assert 0 < slow < len(lat), "a trace just past capacity has some misses and some hits"
assert fig["min_latency_cycles"]["value"] == min(lat)
print("  pchase: %d rows, %d slow" % (len(rows), slow))
PYEOF
else
  echo "FAIL pchase"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
fi
[ $fails -eq 0 ] && echo "cache_builtin: ok" || echo "cache_builtin: $fails failures"
exit $((fails > 0))
