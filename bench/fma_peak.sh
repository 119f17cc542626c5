#!/usr/bin/env bash
# Measures: the fp32 FMA peak of cuda:0 against its theoretical peak at the clock measured in the
# same run. FFMA at ILP 4 with every SM full (two blocks of 32 warps per SM) for about
# 50 ms, timed with CUDA events, over SMs x LANES x 2 x f, where f is the largest of the SM clock
# measured with the clock operation (globaltimer windows) just before and just after the kernel
# and the kernel's own clock64 cycles over its event time. LANES is the fp32 lanes per SM of the
# datasheet (128 on Volta and later, up to Hopper and Blackwell); it is the one number here that
# is not measured.
# How to read it: the driver's line `fma_peak,clock_before_khz=..,clock_after_khz=..,kernel_khz=..,
# measured_tflops=..,theory_tflops=..,ratio=R,ipc=..` and then `fma_peak: ratio R >= 0.97` (exit 0)
# or `< 0.97` (exit 1). A ratio near 1 says the issue kernels reach the FMA units' peak; the
# clocks show whether the card held its clock through the kernel.
#
# usage: bench/fma_peak.sh [BUILD_DIR]   (default build/release; MIN_RATIO=0.97, LANES=128)
# BUILD_DIR is a build folder of this project made with nvcc (`make build`, or cmake with the
# project's CMakeLists.txt): its `fma_peak` driver (bench/fma_peak.c, target fma_peak) is run as
# it is; this script compiles nothing, so a folder built elsewhere and carried to the GPU machine
# works there without jansson or a compiler.
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build/release}
LANES=${LANES:-128}
MIN_RATIO=${MIN_RATIO:-0.97}
driver=$build/fma_peak
if [[ ! -x $driver ]]; then
    echo "fma_peak: no $driver; build it with the project: cmake -S $here -B $build" \
         "-DCMAKE_BUILD_TYPE=Release && cmake --build $build --target fma_peak" >&2
    exit 2
fi
out=$(LANES=$LANES "$driver")
echo "$out"
ratio=$(echo "$out" | sed -n 's/.*,ratio=\([0-9.]*\),.*/\1/p')
[[ -n $ratio ]] || { echo "fma_peak: no ratio in the driver's output" >&2; exit 1; }
if awk -v r="$ratio" -v m="$MIN_RATIO" 'BEGIN { exit !(r >= m) }'; then
    echo "fma_peak: ratio $ratio >= $MIN_RATIO"
else
    echo "fma_peak: ratio $ratio < $MIN_RATIO" >&2
    exit 1
fi
