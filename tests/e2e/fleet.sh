# End-to-end test of `gpusonar fleet` and --out-dir on simulated fleets: six clean GPUs (one
# model, seeds 1..6) flag nothing; a seventh with a planted fault (20 % less DRAM bandwidth) is
# flagged and nothing else is; two GPUs of a model are too few to judge (the verdict on stdout
# says NOT JUDGED, exit 2, exit 0 with --allow-few); a document of another gpusonar version is set
# aside, an invalid one listed (exit 2); the formats parse; a device list writes one document per
# device.
source "$(dirname "$0")/common.bash"
probes="clock,bandwidth,smem-banks"
check() { # check LABEL WANT GOT
  [ "$2" = "$3" ] || { echo "FAIL $1: expected $2, got $3"; fails=$((fails+1)); }
}

mkdir -p "$T/clean"
for seed in 1 2 3 4 5 6; do
  GPUSONAR_HOST=clean$seed $B report -q --probes $probes --device sim:hopper --seed $seed \
    --out-dir "$T/clean" > /dev/null || { echo "FAIL: run seed $seed"; fails=$((fails+1)); }
done
check "six documents, named <host>-<uuid>.json" 6 "$(ls "$T"/clean/clean?-SIM-*.json | wc -l)"
$B fleet "$T/clean" > "$T/clean.txt"
check "clean fleet exit status" 0 $?
head -1 "$T/clean.txt" | grep -q "^gpusonar fleet: 6 documents, 1 GPU model, 0 outliers" &&
  grep -q "^No outliers.$" "$T/clean.txt" || { echo "FAIL: clean fleet"; cat "$T/clean.txt"; fails=$((fails+1)); }

# Two GPUs of a model are too few to judge: said on stdout's first line, exit 2 (a health check
# must not read "no outlier" into it), 0 with --allow-few; never "No outliers.".
mkdir -p "$T/two-gpus"
cp "$(ls "$T"/clean/*.json | head -1)" "$(ls "$T"/clean/*.json | tail -1)" "$T/two-gpus/"
$B fleet "$T/two-gpus" > "$T/two.txt" 2> "$T/two.err"
check "two GPUs exit status" 2 $?
head -1 "$T/two.txt" | grep -q "NOT JUDGED: fewer than 3 GPUs" && grep -q "^Not judged: " "$T/two.txt" &&
  ! grep -q "No outliers" "$T/two.txt" && grep -q "allow-few" "$T/two.err" ||
  { echo "FAIL: two GPUs not said to be not judged"; cat "$T/two.txt" "$T/two.err"; fails=$((fails+1)); }
$B fleet --allow-few "$T/two-gpus" > "$T/two.txt"
check "two GPUs --allow-few exit status" 0 $?
head -1 "$T/two.txt" | grep -q "NOT JUDGED" || { echo "FAIL: --allow-few hid the verdict"; fails=$((fails+1)); }
$B fleet --format json "$T/two-gpus" 2> /dev/null | $PY -c '
import json, sys
a = json.load(sys.stdin)
sys.exit(0 if len(a["not_judged"]) == 1 and a["groups"][0]["judged"] is False else 1)' ||
  { echo "FAIL: json not_judged"; fails=$((fails+1)); }

# The planted fault: the same model under the same name, one HBM stack down.
$PY - "$SRC/models/hopper.json" "$T/slow.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["bandwidth"]["dram_gbps"] *= 0.8
json.dump(m, open(sys.argv[2], "w"))
PY
cp -r "$T/clean" "$T/planted"
GPUSONAR_HOST=bad $B report -q --probes $probes --device "sim:$T/slow.json" --seed 7 \
  --out-dir "$T/planted" > /dev/null
$B fleet --format json "$T/planted" > "$T/planted.json"
check "planted fleet exit status" 1 $?
$PY - "$T/planted.json" <<'PY' || fails=$((fails+1))
import json, sys
a = json.load(open(sys.argv[1]))
hosts = {o["host"] for o in a["outliers"]}
if hosts != {"bad"} or not all(o["uuid"].startswith("SIM-") for o in a["outliers"]):
    sys.exit(f"FAIL planted: outliers on {sorted(hosts)}")
bw = [o for o in a["outliers"] if o["figure"] == "bandwidth.best_copy_gbps"]
if not bw or not -0.25 < bw[0]["relative"] < -0.15:
    sys.exit(f"FAIL planted: best copy bandwidth not flagged about 20 % low: {bw}")
PY
$B fleet --format markdown "$T/planted" > "$T/planted.md"
grep -q '^| \*\*bad\*\* | SIM-' "$T/planted.md" || { echo "FAIL: markdown outlier row"; fails=$((fails+1)); }
$B fleet --format csv "$T/planted" | grep -q '^"outlier",.*"bad","SIM-' ||
  { echo "FAIL: csv outlier row"; fails=$((fails+1)); }
$B fleet --threshold 1e9 "$T/planted" > /dev/null
check "a threshold nothing reaches" 0 $?

# Another version is set aside, not mixed; an unreadable document is listed: exit status 2.
$PY - "$T/clean/$(ls "$T/clean" | head -1)" "$T/clean/old.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["tool"]["version"] = "0.0.1"
d["environment"]["host"] = "oldnode"
json.dump(d, open(sys.argv[2], "w"))
PY
echo '{"schema": "gpusonar/1", "truncated' > "$T/clean/broken.json"
$B fleet "$T/clean" > "$T/trouble.txt" 2> "$T/trouble.err"
check "trouble exit status" 2 $?
grep -q "^Set aside" "$T/trouble.txt" && grep -q "oldnode" "$T/trouble.txt" &&
  grep -q "^Invalid documents" "$T/trouble.txt" && grep -q "broken.json" "$T/trouble.txt" &&
  grep -q "0 outliers" "$T/trouble.txt" ||
  { echo "FAIL: set aside / invalid"; cat "$T/trouble.txt"; fails=$((fails+1)); }

# Usage: no files, an empty folder, an unknown format; a device list needs --out-dir.
$B fleet > /dev/null 2>&1; check "fleet without files" 2 $?
mkdir "$T/empty"; $B fleet "$T/empty" > /dev/null 2>&1; check "empty folder" 2 $?
$B fleet --format html "$T/clean" > /dev/null 2>&1; check "unknown format" 2 $?
$B report -q --probes clock --device sim:hopper,fermi --json "$T/x.json" > /dev/null 2>&1
check "device list with --json" 2 $?
$B report -q --probes clock --device sim:hopper,fermi --out-dir "$T/two" > /dev/null
check "device list exit status" 0 $?
check "device list documents" 2 "$(ls "$T"/two/*.json | wc -l)"
CUDA_VISIBLE_DEVICES= $B report -q --probes clock --device cuda:all --out-dir "$T/none" > /dev/null 2>&1
[ $? -ne 0 ] || { echo "FAIL: cuda:all without a GPU should fail"; fails=$((fails+1)); }

# A document's name and why it was not read reach the terminal escaped: no raw escape sequence
mkdir "$T/esc"; printf 'not json' > "$T/esc/"$'bad\e[2J.json'
$B fleet "$T/esc" "$T/clean" > "$T/esc.out" 2> "$T/esc.err"
if grep -q $'\e' "$T/esc.out" "$T/esc.err" || ! grep -q 'bad\\x1b\[2J.json' "$T/esc.err"; then
  echo "FAIL: a document name's escape sequence reached the terminal"; cat -v "$T/esc.err"
  fails=$((fails+1))
fi

[ $fails -eq 0 ] && echo "fleet: ok"
exit $((fails > 0))
