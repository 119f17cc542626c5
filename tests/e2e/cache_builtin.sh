#!/usr/bin/env bash
# End-to-end test of probe `cache --target all` on the built-in simulator models (fermi, kepler,
# hopper): every level's inferred structure (size, line, sector, sets, ways or ways per set,
# mapping, policy, way probabilities; TLB entries, page and coverage) must equal the model file's
# truth, read by tests/e2e/cache_truth.py from the model file alone. Two seeds each. Also checks
# that `pchase --trace` writes the raw trace as CSV.
set -u
. "$(dirname "$0")/common.bash"
for model in fermi kepler hopper; do
  for seed in 1 2; do
    if ! $B run cache --target all -q --device "sim:$model" --seed $seed --json "$T/out.json" \
         >/dev/null 2>"$T/err"; then
      echo "FAIL $model seed $seed: exit status"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
      continue
    fi
    $PY "$SRC/tests/e2e/cache_truth.py" "$T/out.json" "$SRC/models/$model.json" \
        "$SRC/docs/gpusonar-1.schema.json" || { echo "FAIL $model seed $seed"; fails=$((fails+1)); }
  done
done

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
