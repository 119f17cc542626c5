# End-to-end test of `gpusonar compare`: two seeds of one model measure the same GPU, so nothing
# differs (exit 0) and only a verdict is printed; --all lists every figure with its unit; a
# planted change is listed alone (exit 1); an 8,000-record document (about 12 MB, written here by
# a generator) is compared with itself, and read by `fleet` three times over, within seconds.
source "$(dirname "$0")/common.bash"
check() { # check LABEL WANT GOT
  [ "$2" = "$3" ] || { echo "FAIL $1: expected $2, got $3"; fails=$((fails+1)); }
}

for seed in 1 2; do
  $B run smem-banks -q --device sim:hopper --seed $seed --json "$T/s$seed.json" > /dev/null ||
    { echo "FAIL: run seed $seed"; fails=$((fails+1)); }
done
$B compare "$T/s1.json" "$T/s2.json" > "$T/out"
check "two seeds of one model" 0 $?
grep -q "^No figure differs beyond its intervals and resolution.$" "$T/out" &&
  ! grep -q "smem-banks\." "$T/out" || { echo "FAIL: two seeds"; cat "$T/out"; fails=$((fails+1)); }
$B compare --all "$T/s1.json" "$T/s2.json" > "$T/out"
check "two seeds --all" 0 $?
grep -Eq "^smem-banks\.broadcast_w2_cycles +[0-9]+ \+-[0-9.]+ cycles +[0-9]+ \+-[0-9.]+ cycles" "$T/out" ||
  { echo "FAIL: --all does not list a figure with its unit"; cat "$T/out"; fails=$((fails+1)); }

# A planted change: half the banks. Only it is listed.
$PY - "$T/s1.json" "$T/half.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["probes"][0]["figures"]["banks"]["value"] = 16
json.dump(d, open(sys.argv[2], "w"))
PY
$B compare "$T/s1.json" "$T/half.json" > "$T/out"
check "a planted change" 1 $?
[ "$(grep -c '  \*$' "$T/out")" = 1 ] && grep -q "^smem-banks\.banks .* 32 .* 16 .*\*$" "$T/out" ||
  { echo "FAIL: the planted change"; cat "$T/out"; fails=$((fails+1)); }

# 8,000 records of one name: matched through an index, not a search per record (which took a
# minute for compare and half a minute for fleet).
$PY - "$T/s1.json" "$T/big" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
record = d["probes"][0]          # about 1.6 kB: eight figures, no series
record["series"] = {}
record["figures"] = dict(list(record["figures"].items())[:8])
d["probes"] = [record] * 8000
os.mkdir(sys.argv[2])
for host in ("n1", "n2", "n3"):
    d["environment"]["host"] = host
    json.dump(d, open(f"{sys.argv[2]}/{host}.json", "w"))
PY
size=$(stat -c %s "$T/big/n1.json")
[ "$size" -gt 10000000 ] || { echo "FAIL: the generated document has $size bytes"; fails=$((fails+1)); }
timeout 60 $B compare "$T/big/n1.json" "$T/big/n2.json" > /dev/null
check "compare of 8000 records" 0 $?
timeout 60 $B fleet "$T/big" > /dev/null
check "fleet of 8000 records" 0 $?

[ $fails -eq 0 ] && echo "compare: ok"
exit $((fails > 0))
