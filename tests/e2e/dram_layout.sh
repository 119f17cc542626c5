#!/usr/bin/env bash
# End-to-end test of probe dram-layout on simulator models whose DRAM layout is known
# (memory.dram's channels, interleave_bytes, hash, banks, row_bytes, row latencies): plain
# interleaving over 8 channels of 256 B must give C x G = 2 KB, G = 256 B and 8 channels; 6
# channels of 512 B with jitter must give 3 KB, 512 B, 6 (only an odd-multiple stride
# concentrates them); an XOR-hashed mapping must leave all three "not determined" as hashed. The
# row-buffer hit and miss latencies must match the model (plus the L2's miss cycles), and the
# offsets reported as row hits must be the ones the model's mapping keeps in the row of x (x as
# the probe places it). A model with no layout: nothing concentrates, no row buffer shows.
set -u
. "$(dirname "$0")/common.bash"

run() { # NAME MODEL: run the probe into $T/NAME.json
  if ! "$B" run dram-layout --device "sim:$2" -q --seed 11 --json "$T/$1.json" >"$T/$1.txt" \
       2>"$T/$1.err"; then
    echo "FAIL $1: exit status"; sed 's/^/  /' "$T/$1.err"; fails=$((fails+1)); return 1
  fi
}

check() { # NAME MODEL
  $PY - "$T/$1.json" "$2" "$SRC/docs/gpusonar-1.schema.json" "$1" <<'PYEOF' || fails=$((fails+1))
import json, sys
doc, model = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
from e2e_doc import validate
validate(doc, sys.argv[3])
name = sys.argv[4]
figs = {}
for p in doc["probes"]:
    figs.update(p["figures"])
d = model["memory"]["dram"]
l2_miss = sum(c.get("miss_cycles", 0) for c in model["memory"]["caches"])
bad = []
def val(k):
    return figs.get(k, {}).get("value")
def near(k, want, tol):
    v = val(k)
    if v is None:
        bad.append("%s not determined: %s" % (k, figs.get(k, {}).get("reason")))
    elif abs(v - want) > tol:
        bad.append("%s = %.6g, truth %.6g" % (k, v, want))
C, G, R, banks = d["channels"], d["interleave_bytes"], d["row_bytes"], d.get("banks", 16)
def channel(a):
    b = a // G
    if d.get("hash", "none") == "none":
        return b % C
    ch = 0
    while b:
        ch ^= b & (C - 1); b >>= C.bit_length() - 1
    return ch
def row(a):
    local = a // (G * C) * G + a % G
    return (channel(a), local // R % banks, local // (R * banks))
if d.get("hash", "none") == "none":
    near("dram_channel_span_bytes", C * G, 0)
    near("dram_interleave_bytes", G, 0)
    near("dram_channels", C, 0)
else:
    for k in ("dram_channel_span_bytes", "dram_interleave_bytes", "dram_channels"):
        if val(k) is not None or "hashed" not in figs.get(k, {}).get("reason", ""):
            bad.append("%s: want not determined (hashed), got %s" % (k, figs.get(k)))
tol = 3 + model.get("noise", {}).get("jitter_cycles", 0)
near("dram_row_hit_latency_cycles", d["row_hit_cycles"] + l2_miss, tol)
near("dram_row_miss_latency_cycles", d["row_miss_cycles"] + l2_miss, tol)
# The probe's x: region 0, block u of 64 KB, byte 8 u; a hit for most blocks is a hit offset.
hits = []
for k in range(14):
    off = 128 << k
    n = sum(row(u * 65536 + 8 * u) == row(u * 65536 + 8 * u + off) for u in range(16))
    if n > 8:
        hits.append(str(off))
got = figs.get("dram_row_hit_offsets", {}).get("value")
if got != (",".join(hits) or "(none)"):
    bad.append("dram_row_hit_offsets = %s, truth %s" % (got, ",".join(hits)))
if bad:
    print("FAIL %s:\n  %s" % (name, "\n  ".join(bad)))
    sys.exit(1)
print("ok   %s" % name)
PYEOF
}

for m in dram_plain dram_noisy dram_hashed; do
  run $m "$SRC/tests/models/$m.json" && check $m "$SRC/tests/models/$m.json"
done

# No layout in the model: the strided reads all run at one rate and no row buffer shows.
if run none "$SRC/tests/models/level_bandwidth.json"; then
  $PY - "$T/none.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
figs = {}
for p in json.load(open(sys.argv[1]))["probes"]:
    figs.update(p["figures"])
bad = [k for k in ("dram_interleave_bytes", "dram_channels", "dram_row_hit_latency_cycles",
                   "dram_row_miss_extra_cycles") if figs[k].get("value") is not None]
if bad:
    print("FAIL none: determined without a layout: %s" % bad); sys.exit(1)
print("ok   none")
PYEOF
fi

# A bad layout key is refused by name.
sed 's/"hash": "none"/"hash": "modulo"/' "$SRC/tests/models/dram_plain.json" >"$T/bad.json"
if "$B" run dram-layout --device "sim:$T/bad.json" -q >/dev/null 2>"$T/err"; then
  echo "FAIL bad-hash: exit status 0"; fails=$((fails+1))
elif ! grep -q 'memory.dram.hash' "$T/err"; then
  echo "FAIL bad-hash: message does not name the key:"; cat "$T/err"; fails=$((fails+1))
else
  echo "ok   bad-hash"
fi

# A model whose L2 (256 MB) is so large that every stride above 256 B touches less than twice of it per
# pass: those strides are the L2's, not DRAM's, and nothing may be inferred from them.
$PY - "$SRC/tests/models/dram_plain.json" "$T/big_l2.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["device"]["l2_bytes"] = 256 << 20
json.dump(m, open(sys.argv[2], "w"))
PY
if "$B" run dram-layout --device "sim:$T/big_l2.json" -q --seed 11 --json "$T/big.json" >/dev/null 2>"$T/big.err"; then
  $PY - "$T/big.json" <<'PY' || fails=$((fails+1))
import json, sys
f = {}
for p in json.load(open(sys.argv[1]))["probes"]:
    f.update(p["figures"])
for k in ("dram_channel_span_bytes", "dram_interleave_bytes", "dram_channels"):
    if f[k]["value"] is not None or "served by the L2" not in f[k].get("reason", ""):
        sys.exit("FAIL big L2: %s = %r (%s)" % (k, f[k]["value"], f[k].get("reason")))
PY
else
  echo "FAIL big L2: exit status"; fails=$((fails+1))
fi

exit $((fails > 0))
