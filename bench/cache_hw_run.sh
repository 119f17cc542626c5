#!/bin/bash
# Device run of the `cache` probe's Hopper work: `cache --target all` timed (bench/cache_time.sh),
# its JSON and text kept, and a small `--target l1` under compute-sanitizer memcheck.
# Usage (on the GPU machine): bench/cache_hw_run.sh BUILD_DIR OUTDIR
B=$1
O=$2
export GS_MODELS_DIR=$PWD/models
nvidia-smi -L > $O/smi.txt 2>&1; cat $O/smi.txt
$B/gpusonar --help > $O/help.txt 2>&1
echo "== cache --target all"
timeout 200 bash bench/cache_time.sh $B/gpusonar $O
grep -E "^==|size|line_bytes|sector|sets |ways |latency_cycles|penalty_cycles|entries|page_bytes|coverage|not determined|warning" $O/cache_all.txt | cut -c1-200 | head -120
if [ "${MEMCHECK:-1}" = 1 ]; then
  echo "== memcheck (cache --target l1)"
  GS_UNDER_SANITIZER=1 timeout 240 compute-sanitizer --tool memcheck $B/gpusonar run cache --target l1 -q --json $O/memcheck_l1.json > $O/memcheck.txt 2>&1
  echo "rc=$?" >> $O/memcheck.txt
  grep -E "ERROR SUMMARY|Invalid|rc=" $O/memcheck.txt | tail -5
fi
