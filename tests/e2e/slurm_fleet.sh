# End-to-end test of the Slurm recipe (scripts/slurm/), for real: a one-machine Slurm cluster of
# four nodes (scripts/slurm/local_cluster.sh: slurmctld and four slurmd, auth/none), the recipe
# submitted with sbatch on simulated GPUs (node3's model has 20 % less DRAM bandwidth, the others
# are the same model with different seeds), and `gpusonar fleet` must flag node3 and nothing
# else; two nodes of a model are too few to judge (exit 2 unless --allow-few). Skipped (exit status 77) where Slurm cannot start: not root, slurm-wlm not installed, or
# the daemons do not come up; the reason is printed.
source "$(dirname "$0")/common.bash"
C=$T/cluster
trap 'bash "$SRC/scripts/slurm/local_cluster.sh" stop "$C"; rm -rf "$T"' EXIT

started=$(bash "$SRC/scripts/slurm/local_cluster.sh" start "$C" 4 2> "$T/why")
case $? in
  0) export "$started" ;;
  77) echo "SKIP: $(cat "$T/why")"; exit 77 ;;
  *) echo "FAIL: local_cluster.sh start"; cat "$T/why"; exit 1 ;;
esac

# One model file per node: the built-in hopper, and on node3 a copy with less DRAM bandwidth
# (one HBM stack down), under the same device name so that it is compared with the rest.
mkdir -p "$T/models"
$PY - "$SRC/models/hopper.json" "$T/models" <<'PY'
import json, sys
model = json.load(open(sys.argv[1]))
for i in range(1, 5):
    m = json.loads(json.dumps(model))
    if i == 3:
        m["bandwidth"]["dram_gbps"] *= 0.8
    json.dump(m, open(f"{sys.argv[2]}/node{i}.json", "w"))
PY

export GPUSONAR=$B GPUSONAR_OUT=$T/results GPUSONAR_DEVICE="sim:$T/models/%N.json"
export GPUSONAR_ARGS="--probes clock,bandwidth,smem-banks --seed 1%n"
export GPUSONAR_FINISH=$SRC/scripts/slurm/gpusonar-finish.sh
timeout 120 sbatch --wait --nodes=4 --time=5 --output="$T/job.out" \
  "$SRC/scripts/slurm/gpusonar.sbatch" > "$T/sbatch.out" 2>&1
rc=$?
# The job's status is the finish step's, fleet's: 1 = an outlier was found.
[ $rc -eq 1 ] || { echo "FAIL: sbatch --wait exit status $rc, expected 1 (an outlier)"; fails=$((fails+1)); }

docs=$(ls "$T/results"/*.json 2>/dev/null | wc -l)
[ "$docs" -eq 4 ] || { echo "FAIL: $docs result documents, expected 4 (one per node)"; fails=$((fails+1)); }
for n in 1 2 3 4; do
  compgen -G "$T/results/node$n-SIM-*.json" > /dev/null ||
    { echo "FAIL: no document named node$n-SIM-<uuid>.json"; fails=$((fails+1)); }
done

$B fleet --format json "$T/results" > "$T/fleet.json"
frc=$?
[ $frc -eq 1 ] || { echo "FAIL: fleet exit status $frc, expected 1"; fails=$((fails+1)); }
$PY - "$T/fleet.json" "$T/results" "$SRC/docs/gpusonar-1.schema.json" <<'PY' || fails=$((fails+1))
import glob, json, sys, jsonschema
fleet = json.load(open(sys.argv[1]))
schema = json.load(open(sys.argv[3]))
for path in glob.glob(sys.argv[2] + "/*.json"):
    jsonschema.validate(json.load(open(path)), schema)
hosts = {o["host"] for o in fleet["outliers"]}
figures = sorted(o["figure"] for o in fleet["outliers"])
if hosts != {"node3"}:
    sys.exit(f"FAIL: outliers on {sorted(hosts)}, expected node3 alone: {figures}")
if not any(f.startswith("bandwidth.") for f in figures):
    sys.exit(f"FAIL: node3's outliers are not bandwidth figures: {figures}")
if fleet["invalid"] or fleet["set_aside"] or len(fleet["groups"]) != 1:
    sys.exit("FAIL: every document should be valid, of one version, one GPU model")
print(f"ok: node3 flagged on {len(figures)} figures, e.g. {figures[0]}")
PY
grep -q "^  node3 SIM-" "$T/job.out" || { echo "FAIL: the job's output does not name node3"; fails=$((fails+1)); }
grep -q "^gpusonar fleet: 4 documents, 1 GPU model, [1-9][0-9]* outliers\? " "$T/job.out" ||
  { echo "FAIL: the job's output has no fleet verdict line"; fails=$((fails+1)); }

# Two nodes of a model are too few to judge: the finish step says so and exits 2, unless
# GPUSONAR_FLEET_ARGS holds --allow-few.
mkdir -p "$T/two"
cp "$(ls "$T"/results/node1-*.json)" "$(ls "$T"/results/node2-*.json)" "$T/two/"
bash "$SRC/scripts/slurm/gpusonar-finish.sh" "$T/two" node1 node2 > "$T/two.out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "NOT JUDGED" "$T/two.out" ||
  { echo "FAIL: two nodes: exit status $rc, expected 2 and NOT JUDGED"; cat "$T/two.out"; fails=$((fails+1)); }
GPUSONAR_FLEET_ARGS=--allow-few bash "$SRC/scripts/slurm/gpusonar-finish.sh" "$T/two" node1 node2 > "$T/two.out" 2>&1
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: two nodes with --allow-few: exit status $rc, expected 0"; fails=$((fails+1)); }
[ -s "$T/results/fleet.md" ] || { echo "FAIL: no fleet page"; fails=$((fails+1)); }

if [ $fails -gt 0 ]; then
  echo "--- job output"; cat "$T/job.out" "$T/sbatch.out"; tail -5 "$T"/results/*.log
fi
[ $fails -eq 0 ] && echo "slurm_fleet: ok"
exit $((fails > 0))
