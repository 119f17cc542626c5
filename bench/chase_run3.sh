#!/bin/bash
# Third device run of the chase work: GPU tests (+ memcheck), l2-partitions at its default
# footprint (two seeds, and --thorough), the TLB exploration (physical pieces of 64 MB and 2 MB),
# and the cache probe timed. Every output in OUTDIR/run.tgz.
# Usage (on the GPU machine): bench/chase_run3.sh OUTDIR
B=${B:-build-chase-rel}
OUT_DIR=$1
O=$(mktemp -d)
trap 'tar czf $OUT_DIR/run.tgz -C $O .' EXIT
t() { local a=$(date +%s.%N); "$@"; echo "elapsed $(awk -v a=$a -v b=$(date +%s.%N) 'BEGIN{printf "%.1f", b-a}') s" >&2; }
export LD_LIBRARY_PATH=$PWD/$B/lib:${LD_LIBRARY_PATH:-}
echo "== tests"; timeout 100 $B/cuda_test_chase > $O/test.txt 2>&1; echo "rc=$?" >> $O/test.txt; grep -E "OK|FAIL|PASSED|rc=|chase failed|ERROR" $O/test.txt | head -20
echo "== l2-partitions"; for a in "--seed 1" "--seed 2" "--thorough"; do n=$(echo $a | tr -d ' -'); echo "-- $a"; t $B/gpusonar run l2-partitions $a --json $O/l2p_$n.json > $O/l2p_$n.txt 2>$O/l2p_$n.err; tail -1 $O/l2p_$n.err; grep -E "cycles|fraction|hash" $O/l2p_$n.txt | cut -c1-120; done
echo "== tlb"; GS_EXPLORE_TLB_ONLY=1 timeout 120 $B/chase_explore $O > $O/tlb.txt 2>&1; cut -c1-100 $O/tlb.txt
echo "== cache"; timeout 150 bash bench/cache_time.sh $B/gpusonar $O; grep -E "^==|size_bytes|line_bytes|latency_cycles" $O/cache_all.txt | head -50 | cut -c1-120
echo "== memcheck"; timeout 120 compute-sanitizer --tool memcheck $B/cuda_test_chase > $O/memcheck.txt 2>&1; echo "rc=$?" >> $O/memcheck.txt; grep -E "OK|FAIL|ERROR SUMMARY|Invalid|rc=" $O/memcheck.txt | tail -12
