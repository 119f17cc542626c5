#!/bin/bash
# Second device run of the chase work: GPU tests (+ memcheck), the paths and l2-partitions probes
# timed, and the cache probe timed; every output in OUTDIR/run.tgz.
# Usage (on the GPU machine): bench/chase_run2.sh OUTDIR
B=${B:-build-chase-rel}
OUT_DIR=$1
O=$(mktemp -d)
trap 'tar czf $OUT_DIR/run.tgz -C $O .' EXIT
t() { local a=$(date +%s.%N); "$@"; echo "elapsed $(awk -v a=$a -v b=$(date +%s.%N) 'BEGIN{printf "%.1f", b-a}') s" >&2; }
export LD_LIBRARY_PATH=$PWD/$B/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $O/smi.txt 2>&1
echo "== tests"; timeout 100 $B/cuda_test_chase > $O/test.txt 2>&1; echo "rc=$?" >> $O/test.txt; grep -E "OK|FAIL|PASSED|SKIP|rc=|chase failed|Error" $O/test.txt | head -20
echo "== paths"; t $B/gpusonar run paths --json $O/paths.json > $O/paths.txt 2>$O/paths.err; grep -E "levels|latency_cycles|_vs_" $O/paths.txt | cut -c1-90
echo "== l2-partitions"; for f in 37.5MB 30MB 45MB; do echo "-- $f"; t $B/gpusonar run l2-partitions --footprint $f --json $O/l2p_$f.json > $O/l2p_$f.txt 2>/dev/null; grep -E "cycles|fraction|hash|sm_id| s$" $O/l2p_$f.txt | cut -c1-120; done
echo "== cache"; timeout 150 bash bench/cache_time.sh $B/gpusonar $O; grep -E "^==|size_bytes|line|latency_cycles|not determined" $O/cache_all.txt | head -60 | cut -c1-120
echo "== memcheck"; timeout 120 compute-sanitizer --tool memcheck $B/cuda_test_chase > $O/memcheck.txt 2>&1; echo "rc=$?" >> $O/memcheck.txt; tail -4 $O/memcheck.txt
