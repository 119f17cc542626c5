#!/bin/bash
# First device run of the CUDA chase: GPU tests, SASS of the chase kernels, exploration sweeps,
# and the tests under compute-sanitizer memcheck. Usage (on the GPU machine): bench/chase_run1.sh OUTDIR
B=${B:-build-chase-rel}
O=$1
nvidia-smi -L > $O/smi.txt 2>&1
cuobjdump -sass $B/CMakeFiles/gs.dir/src/cuda/chase_kernels.cu.o > $O/chase_sass.txt 2>&1
echo "== tests"; timeout 120 $B/cuda_test_chase_manual > $O/test.txt 2>&1; echo "rc=$?" >> $O/test.txt; tail -15 $O/test.txt
echo "== explore"; timeout 200 $B/chase_explore $O > $O/explore.txt 2>&1; echo "rc=$?" >> $O/explore.txt; cat $O/explore.txt | cut -c1-110
echo "== memcheck"; timeout 150 compute-sanitizer --tool memcheck $B/cuda_test_chase_manual > $O/memcheck.txt 2>&1; echo "rc=$?" >> $O/memcheck.txt; tail -8 $O/memcheck.txt
