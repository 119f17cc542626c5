#!/bin/bash
# Final device run of the chase work: GPU tests and memcheck, `paths` and `l2-partitions` as
# committed, the L1 carve-out sweep, and `gpusonar run cache --target all` timed
# (bench/cache_time.sh). Every output in OUTDIR/run.tgz.
# Usage (on the GPU machine): bench/chase_run4.sh OUTDIR
B=${B:-build-chase-rel}
OUT_DIR=$1
O=$(mktemp -d)
trap 'tar czf $OUT_DIR/run.tgz -C $O .' EXIT
t() { local a=$(date +%s.%N); "$@"; echo "elapsed $(awk -v a=$a -v b=$(date +%s.%N) 'BEGIN{printf "%.1f", b-a}') s" >&2; }
export LD_LIBRARY_PATH=$PWD/$B/lib:${LD_LIBRARY_PATH:-}
nvidia-smi -L > $O/smi.txt 2>&1
echo "== cache"; timeout 200 bash bench/cache_time.sh $B/gpusonar $O; grep -E "^==|size_bytes|line_bytes|sets |ways |latency_cycles|entries|page_bytes|coverage" $O/cache_all.txt | head -90 | cut -c1-110
echo "== tests"; timeout 100 $B/cuda_test_chase > $O/test.txt 2>&1; echo "rc=$?" >> $O/test.txt; grep -E "FAIL|PASSED|rc=" $O/test.txt | head -8
echo "== paths"; t $B/gpusonar run paths --json $O/paths.json > $O/paths.txt 2>$O/paths.err; tail -1 $O/paths.err; grep -E "levels|_vs_" $O/paths.txt | cut -c1-90
echo "== l2-partitions"; t $B/gpusonar run l2-partitions --json $O/l2p.json > $O/l2p.txt 2>$O/l2p.err; tail -1 $O/l2p.err; grep -E "cycles|fraction|hash" $O/l2p.txt | cut -c1-120
echo "== carveout"; GS_EXPLORE_CARVEOUT_ONLY=1 timeout 100 $B/chase_explore $O > $O/carveout.txt 2>&1; cat $O/carveout.txt
echo "== memcheck"; GS_UNDER_SANITIZER=1 timeout 150 compute-sanitizer --tool memcheck $B/cuda_test_chase > $O/memcheck.txt 2>&1; echo "rc=$?" >> $O/memcheck.txt; grep -E "FAIL|PASSED|ERROR SUMMARY|Invalid|rc=" $O/memcheck.txt | tail -6
