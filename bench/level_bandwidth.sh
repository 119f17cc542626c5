#!/usr/bin/env bash
# On a GPU, in one call: gpusonar's mem-bandwidth probe and peer-style reference kernels
# (bench/level_peers.cu: the methods of te42kyfo/gpu-benches' gpu-stream, gpu-l2-cache and
# gpu-cache, rewritten) on the same GPU, then gpusonar / peer per figure. The target of issue 19:
# every DRAM and L2 ratio >= 1. Needs nvcc and python3 only (no jansson: gpusonar comes prebuilt).
# usage: bench/level_bandwidth.sh BUILD_DIR [OUT_DIR]   (extra probe options: $MB_ARGS)
set -euo pipefail
BUILD=${1:?usage: bench/level_bandwidth.sh BUILD_DIR [OUT_DIR]}
OUT=${2:-$(mktemp -d)}
mkdir -p "$OUT"
HERE=$(cd "$(dirname "$0")" && pwd)
nvcc -O3 -arch=native -o "$OUT/level_peers" "$HERE/level_peers.cu"
"$BUILD/gpusonar" run mem-bandwidth --device cuda:0 --json "$OUT/mem-bandwidth.json" \
  ${MB_ARGS:-} >"$OUT/mem-bandwidth.txt" 2>"$OUT/mem-bandwidth.err"
"$OUT/level_peers" >"$OUT/peers.txt"
/usr/bin/env python3 - "$OUT/mem-bandwidth.json" "$OUT/peers.txt" <<'PYEOF'
import json, sys
doc = json.load(open(sys.argv[1]))
probe = next(p for p in doc["probes"] if p["name"] == "mem-bandwidth")
f = probe["figures"]
peers = dict(line.split() for line in open(sys.argv[2]) if line.startswith("peer_"))
print("device  %s   (probe %s, %.1f s)" % (doc["device"]["name"], probe.get("status"),
                                            probe.get("elapsed_s", float("nan"))))
print("%-20s %12s %12s %8s" % ("figure", "gpusonar", "peer", "ratio"))
short = []
for key in ("dram_read_gbps", "dram_write_gbps", "dram_copy_gbps", "stream_scale_gbps",
            "stream_add_gbps", "stream_triad_gbps", "l2_read_gbps", "l1_read_gbps"):
    mine = f.get(key, {}).get("value")
    peer = float(peers.get("peer_" + key, "nan"))
    if mine is None:
        print("%-20s %12s %12.1f %8s" % (key, "n.d.", peer, "-"))
        short.append(key)
        continue
    ratio = mine / peer
    print("%-20s %12.1f %12.1f %8.3f" % (key, mine, peer, ratio))
    if ratio < 1 and not key.startswith("l1"):
        short.append(key)
for key in ("smem_read_gbps", "dram_peak_gbps", "dram_efficiency"):
    v = f.get(key, {}).get("value")
    print("%-20s %12s" % (key, "n.d." if v is None else "%.3f" % v if v < 10 else "%.1f" % v))
print("DRAM and L2 figures below the peers: %s" % (", ".join(short) or "none"))
PYEOF
echo "files: $OUT (mem-bandwidth.json: series KIND_WB of GB/s against footprint; peers.txt)"
