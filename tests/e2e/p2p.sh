#!/usr/bin/env bash
# End-to-end test of probe p2p on simulator nodes whose links are known: on
# tests/models/node_4gpu.json (NVLink 0-1 and 2-3, PCIe otherwise, no peer access between 1 and
# 3) every ordered pair's access, link, copy-engine, read and write GB/s and chase latency must
# read back the model's matrix within its noise, in the per-pair figures and in the matrices; the
# pair without peer access must say so; the document must validate. On a model of one device
# every matrix is "not applicable: one GPU", and the probe is not part of the default report.
set -u
. "$(dirname "$0")/common.bash"
NODE="$SRC/tests/models/node_4gpu.json"

SEED=11   # run NAME ARGS... (common.bash) seeds with it

if run node run p2p --device "sim:$NODE" --repeats 12; then
  $PY - "$T/node.json" "$NODE" "$SRC/docs/gpusonar-1.schema.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
doc, model = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
from e2e_doc import validate
validate(doc, sys.argv[3])
(probe,) = [p for p in doc["probes"] if p["name"] == "p2p"]
figs, node = probe["figures"], model["node"]
n, links, jitter = node["devices"], node["links"], node.get("jitter_fraction", 0)
clock_ghz = model["device"]["clock_khz"] * 1e-6
noise_ns = model.get("noise", {}).get("jitter_cycles", 0) / clock_ghz
bad = []
def value(name):
    return figs.get(name, {}).get("value")
def near(name, want, tol):
    v = value(name)
    if v is None:
        bad.append("%s not determined: %s" % (name, figs.get(name, {}).get("reason")))
    elif abs(v - want) > tol:
        bad.append("%s = %.6g, truth %.6g (tolerance %.3g)" % (name, v, want, tol))
    return v
if value("devices") != n:
    bad.append("devices = %s, model %d" % (value("devices"), n))
matrices = {k: figs["%s_matrix" % k]["value"] for k in
            ("access", "ce_gbps", "read_gbps", "write_gbps", "latency_ns")}
for i in range(n):
    for j in range(n):
        at = i * n + j
        if i == j:
            if any(m[at] is not None for m in matrices.values()):
                bad.append("diagonal %d of a matrix is not null" % i)
            continue
        l, p = links[i][j], "p2p_%d_%d_" % (i, j)
        peer = l["type"] != "none"
        if value(p + "access") != (1 if peer else 0) or matrices["access"][at] != value(p + "access"):
            bad.append("%saccess = %s, model %s" % (p, value(p + "access"), l["type"]))
        if not str(value(p + "link")).startswith(l["type"]):
            bad.append("%slink = %s, model %s" % (p, value(p + "link"), l["type"]))
        rates = {"ce_gbps": l.get("gbps"), "read_gbps": l.get("read_gbps", l.get("gbps")),
                 "write_gbps": l.get("write_gbps", l.get("gbps"))}
        for k, rate in rates.items():
            if not peer and k != "ce_gbps":
                reason = figs[p + k].get("reason", "")
                if value(p + k) is not None or "cannot access" not in reason:
                    bad.append("%s%s on a link without peer access: %s (%s)" % (p, k, value(p + k), reason))
                continue
            # each repetition takes (1 + u * jitter) of its time: the median is within it
            v = near(p + k, rate / (1 + jitter / 2), rate * jitter / 2 + 1e-9)
            if v is not None and matrices[k][at] != v:
                bad.append("%s_matrix[%d] = %s, figure %s" % (k, at, matrices[k][at], v))
            series = probe["series"]["%s_from_%d" % (k, i)]
            if series["y"][j] != v:
                bad.append("series %s_from_%d[%d] = %s, figure %s" % (k, i, j, series["y"][j], v))
        if peer:
            near(p + "latency_ns", l["latency_ns"] + noise_ns / 2, noise_ns / 2 + 1e-9)
        elif value(p + "latency_ns") is not None:
            bad.append("%slatency_ns on a link without peer access" % p)
# rows are sources: the model's one asymmetric link (2 -> 0 writes slower) is seen one way only
if not value("p2p_2_0_write_gbps") < 0.9 * value("p2p_0_2_write_gbps"):
    bad.append("p2p_2_0_write_gbps is not the model's slower direction")
if bad:
    print("FAIL node_4gpu:\n  " + "\n  ".join(bad))
    sys.exit(1)
print("ok   node_4gpu: %d ordered pairs read back" % (n * (n - 1)))
PYEOF
  grep -q "p2p_1_3_read_gbps.*not determined.*cannot access" "$T/node.txt" \
    || { echo "FAIL text report: the pair without peer access"; fails=$((fails+1)); }
fi

# One device: every matrix not applicable, with the reason.
if run one run p2p --device "sim:$SRC/tests/models/cli_minimal.json"; then
  $PY - "$T/one.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
(probe,) = json.load(open(sys.argv[1]))["probes"]
figs = probe["figures"]
bad = [k for k, f in figs.items() if k != "devices" and
       (f["value"] is not None or f.get("reason") != "not applicable: one GPU")]
if figs["devices"]["value"] != 1 or len(figs) < 6 or bad:
    print("FAIL one GPU: %s" % (bad or figs))
    sys.exit(1)
print("ok   one GPU: not applicable")
PYEOF
fi

# Listed by `gpusonar list` (its registry row is not in the default report).
listed p2p

if [ "$fails" -ne 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "p2p: the node's link matrix read back; one GPU not applicable"
