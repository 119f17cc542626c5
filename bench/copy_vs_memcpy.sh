#!/usr/bin/env bash
# Measures: gpusonar's best copy kernel on cuda:0 against cudaMemcpy device-to-device on buffers
# of the same size, in the same run (probe `bandwidth`; the acceptance bar is 0.97).
# How to read it: the device, the best copy kernel's rate and configuration (element width, loop
# bound, grid), cudaMemcpy's rate with its 95% interval and sample count, and `ratio R
# (acceptance >= 0.97: PASS|FAIL)`; exits 1 below the threshold.
# usage: bench/copy_vs_memcpy.sh [gpusonar binary] [threshold]   (extra probe options: $BW_ARGS)
#        (default build/release/gpusonar, 0.97)
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0;; esac
set -euo pipefail
B=${1:-${GPUSONAR:-build/release/gpusonar}}
MIN=${2:-0.97}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
"$B" run bandwidth -q --device cuda:0 --json "$OUT/bw.json" ${BW_ARGS:-} >/dev/null
/usr/bin/python3 - "$OUT/bw.json" "$MIN" <<'PYEOF'
import json, sys
doc = json.load(open(sys.argv[1]))
f = next(p for p in doc["probes"] if p["name"] == "bandwidth")["figures"]
v = lambda k: f[k]["value"]
print("device            %s" % doc["device"]["name"])
print("best copy kernel  %.1f GB/s  (%s)" % (v("best_copy_gbps"), v("best_copy_config")))
print("cudaMemcpy D2D    %.1f GB/s  +- %.1f (n=%d)" % (v("memcpy_d2d_gbps"),
      f["memcpy_d2d_gbps"]["ci95"], f["memcpy_d2d_gbps"]["n"]))
ratio, need = v("copy_over_memcpy"), float(sys.argv[2])
print("ratio             %.3f  (acceptance >= %.2f: %s)" % (ratio, need,
      "PASS" if ratio >= need else "FAIL"))
sys.exit(0 if ratio >= need else 1)
PYEOF
