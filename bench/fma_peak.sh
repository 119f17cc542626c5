#!/usr/bin/env bash
# The fp32 FMA peak on a real GPU against its theoretical peak at the clock measured in the same
# run: FFMA at ILP 4 with every SM full (two blocks of 32 warps per SM) for about 50 ms, timed
# with CUDA events, over SMs x LANES x 2 x f, where f is the largest of the SM clock measured with
# the clock operation (globaltimer windows) just before and just after the kernel and the
# kernel's own clock64 cycles over its event time. LANES is the fp32 lanes per SM of the
# datasheet (128 on Volta and later, up to Hopper and Blackwell); it is the one number here that
# is not measured.
#
# usage: bench/fma_peak.sh [BUILD_DIR]    (default build/release; needs its libgs.a and CUDA)
# Prints the measured and theoretical TFLOP/s and the ratio; exits 1 when the ratio is under
# MIN_RATIO (default 0.97).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build/release}
LANES=${LANES:-128}
MIN_RATIO=${MIN_RATIO:-0.97}
CUDA=${CUDA_HOME:-/usr/local/cuda}
driver=$build/issue_sweep
if [[ ! -x $driver || $driver -ot $here/bench/issue_sweep.c ]]; then
    cc -O2 -std=gnu11 -I"$here/src" "$here/bench/issue_sweep.c" "$build/libgs.a" \
       -L"$build/lib" -L"$CUDA/lib64" -L"$CUDA/lib" -lcudart -ljansson -lm -ldl -lstdc++ -o "$driver"
fi
out=$(LANES=$LANES "$driver" peak)
echo "$out"
ratio=$(echo "$out" | sed -n 's/.*,ratio=\([0-9.]*\),.*/\1/p')
[[ -n $ratio ]] || { echo "fma_peak: no ratio in the driver's output" >&2; exit 1; }
awk -v r="$ratio" -v m="$MIN_RATIO" 'BEGIN { exit !(r >= m) }' &&
    echo "fma_peak: ratio $ratio >= $MIN_RATIO" ||
    { echo "fma_peak: ratio $ratio < $MIN_RATIO" >&2; exit 1; }
