#!/usr/bin/env bash
# On a GPU machine: every acceptance benchmark of gpusonar in one go, each printing its own
# ratio or time, with the documents kept under OUTDIR. Meant for one batched device call.
#   - the default report (bench/report_time.sh: at most 90 s)
#   - `run cache --target all` (bench/cache_time.sh: under 60 s)
#   - best copy kernel over cudaMemcpy D2D (bench/copy_vs_memcpy.sh: at least 0.97)
#   - fp32 FMA peak over SMs x 128 x 2 x f (bench/fma_peak.sh: at least 0.97)
# usage: bench/all_on_gpu.sh BUILD_DIR OUTDIR
set -u
BUILD=${1:?usage: bench/all_on_gpu.sh BUILD_DIR OUTDIR}
OUT=${2:?usage: bench/all_on_gpu.sh BUILD_DIR OUTDIR}
B="$BUILD/gpusonar"
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
status=0
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,driver_version \
  --format=csv | tee "$OUT/nvidia-smi.txt"
"$B" info | tee "$OUT/info.txt"
echo "== default report"; bash "$here/report_time.sh" "$B" 90 "$OUT/report" || status=1
echo "== cache --target all"; bash "$here/cache_time.sh" "$B" "$OUT" || status=1
echo "== copy vs cudaMemcpy"; bash "$here/copy_vs_memcpy.sh" "$B" || status=1
echo "== fp32 FMA peak"; bash "$here/fma_peak.sh" "$BUILD" || status=1
exit $status
