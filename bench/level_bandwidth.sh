#!/usr/bin/env bash
# On a GPU, in one call: gpusonar's mem-bandwidth probe and peer-style reference kernels
# (bench/level_peers.cu: the methods of te42kyfo/gpu-benches' gpu-stream, gpu-l2-cache and
# gpu-cache, rewritten) on the same GPU, then gpusonar / peer per figure. The target:
# every DRAM and L2 figure at least as high as the peer's. How to read it: per figure gpusonar's
# value with its ci95, the peer's with its interval (stream figures: the median of 9 fresh
# timings of the peer's best block size and their 2nd and 8th, a 96 % interval), the ratio, and
# a verdict: "below" only where gpusonar's interval lies wholly under the peer's (a ratio under
# 1 inside both intervals is "level": the two kernels are the same within what either run
# resolves); the L1 and L2 peers give the fastest of 5 timings, no interval. A DRAM figure
# gpusonar took from its own run of gpu-stream's launch order (better than its tiles there) says
# so after the verdict. Needs nvcc and python3 only (no jansson: gpusonar comes prebuilt).
# usage: bench/level_bandwidth.sh BUILD_DIR [OUT_DIR]   (extra probe options: $MB_ARGS)
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0;; esac
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
peers = {}
for line in open(sys.argv[2]):
    if line.startswith("peer_"):
        w = line.split()
        peers[w[0][5:]] = [float(v) for v in w[1:]]
print("device  %s   (probe %s, %.1f s)" % (doc["device"]["name"], probe.get("status"),
                                            probe.get("elapsed_s", float("nan"))))
print("%-18s %16s %24s %7s  %s" % ("figure", "gpusonar +- ci95", "peer [interval]", "ratio",
                                   "verdict"))
short = []
for key in ("dram_read_gbps", "dram_write_gbps", "dram_copy_gbps", "stream_scale_gbps",
            "stream_add_gbps", "stream_triad_gbps", "l2_read_gbps", "l1_read_gbps"):
    fig = f.get(key, {})
    mine, ci = fig.get("value"), fig.get("ci95") or 0.0
    peer = peers.get(key, [float("nan")])
    span = "[%.1f, %.1f]" % (peer[1], peer[2]) if len(peer) == 3 else ""
    if mine is None:
        print("%-18s %16s %10.1f %13s %7s  below (not determined)" % (key, "n.d.", peer[0], span,
                                                                     "-"))
        short.append(key)
        continue
    ratio = mine / peer[0]
    low = peer[1] if len(peer) == 3 else peer[0]
    verdict = "above" if ratio >= 1 else "below" if mine + ci < low else "level"
    if ratio != ratio:
        verdict = "no peer figure"
    elif key.startswith("l1"):
        verdict += " (L1: no target)"
    elif verdict == "below":
        short.append(key)
    if fig.get("method", "").startswith("gpu-stream's launch order"):
        verdict += " (gpusonar: the launch order)"
    print("%-18s %9.1f +- %4.1f %10.1f %13s %7.3f  %s" % (key, mine, ci, peer[0], span, ratio,
                                                          verdict))
for key in ("smem_read_gbps", "dram_peak_gbps", "dram_efficiency"):
    v = f.get(key, {}).get("value")
    print("%-20s %12s" % (key, "n.d." if v is None else "%.3f" % v if v < 10 else "%.1f" % v))
print("DRAM and L2 figures below the peers (beyond both intervals): %s" %
      (", ".join(short) or "none"))
PYEOF
echo "files: $OUT (mem-bandwidth.json: series KIND_WB of GB/s against footprint; peers.txt)"
