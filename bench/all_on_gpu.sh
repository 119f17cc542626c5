#!/usr/bin/env bash
# Measures: every acceptance benchmark of gpusonar on cuda:0 in one go (one batched device call),
# each printing its own time or ratio, with the documents kept under OUTDIR:
#   - the default report                    bench/report_time.sh     at most 20 s
#   - `run cache --target all`              bench/cache_time.sh      under 60 s
#   - best copy kernel over cudaMemcpy D2D  bench/copy_vs_memcpy.sh  at least 0.97
#   - fp32 FMA peak over SMs x 128 x 2 x f  bench/fma_peak.sh        at least 0.97
# How to read it: each section ends with its figure and PASS/FAIL (or the ratio against its
# threshold); the exit status is 0 only when every one passed. OUTDIR keeps nvidia-smi's view of
# the card, `gpusonar info`, the report's and the cache run's JSON documents and text.
#
# usage: bench/all_on_gpu.sh BUILD_DIR OUTDIR
# BUILD_DIR is a build folder of this project made with nvcc (`make build`, or cmake with the
# project's CMakeLists.txt) holding `gpusonar` and `fma_peak`; it may have been built on another
# machine and carried here: nothing is compiled, and jansson is linked into the binaries.
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0;; esac
set -uo pipefail
usage="usage: bench/all_on_gpu.sh BUILD_DIR OUTDIR"
BUILD=${1:?$usage}
OUT=${2:?$usage}
B="$BUILD/gpusonar"
here=$(cd "$(dirname "$0")" && pwd)
for f in "$B" "$BUILD/fma_peak"; do
  [ -x "$f" ] || { echo "all_on_gpu: no $f; build the project with nvcc first (make build)" >&2
                   exit 2; }
done
mkdir -p "$OUT"
status=0
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,driver_version \
    --format=csv | tee "$OUT/nvidia-smi.txt"
fi
"$B" info --device cuda:0 | tee "$OUT/info.txt" ||
  { echo "all_on_gpu: gpusonar sees no cuda:0 (a build without nvcc, or no GPU)" >&2; exit 2; }
echo "== default report"; bash "$here/report_time.sh" "$B" 20 "$OUT/report" || status=1
echo "== cache --target all"; bash "$here/cache_time.sh" "$B" "$OUT" || status=1
echo "== copy vs cudaMemcpy"; bash "$here/copy_vs_memcpy.sh" "$B" || status=1
echo "== fp32 FMA peak"; bash "$here/fma_peak.sh" "$BUILD" || status=1
exit $status
