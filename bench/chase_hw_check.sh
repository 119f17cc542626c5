#!/usr/bin/env bash
# On a GPU machine, after a change to the chase kernels (src/cuda/chase_kernels.cu) or to the cache
# probe: `cache --target all` timed (bench/cache_time.sh), the probes that share the kernel
# (paths, l2-partitions, a pchase trace), the SASS of the fine-grained loop of the ca-path kernel,
# and `cache --target l1` under compute-sanitizer memcheck. Everything lands under OUTDIR.
# usage: bench/chase_hw_check.sh BUILD_DIR OUTDIR       (MEMCHECK=0 skips the sanitizer run)
set -u
BUILD=${1:?usage: bench/chase_hw_check.sh BUILD_DIR OUTDIR}
O=${2:?usage: bench/chase_hw_check.sh BUILD_DIR OUTDIR}
B="$BUILD/gpusonar"
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$O"
nvidia-smi -L > "$O/smi.txt" 2>&1; cat "$O/smi.txt"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv >> "$O/smi.txt"
echo "== cache --target all"
bash "$here/cache_time.sh" "$B" "$O"
grep -E "^==|size|line_bytes|sector|sets |ways |mapping|policy|latency_cycles|penalty_cycles|entries|page_bytes|coverage|not determined|warning" \
  "$O/cache_all.txt" | cut -c1-220 | head -150
echo "== paths, l2-partitions, pchase"
"$B" run paths -q --json "$O/paths.json" > "$O/paths.txt" 2>&1; echo "paths rc=$?"
"$B" run l2-partitions -q --json "$O/l2p.json" > "$O/l2p.txt" 2>&1; echo "l2-partitions rc=$?"
"$B" run pchase -q --path ca --array 196608 --stride 128 --iterations 4000 --warmup 2 \
  --trace "$O/pchase.csv" --json "$O/pchase.json" > "$O/pchase.txt" 2>&1; echo "pchase rc=$?"
grep -E "hit|near|far|agree|mean|median" "$O/paths.txt" "$O/l2p.txt" "$O/pchase.txt" | head -40
if command -v cuobjdump >/dev/null; then
  echo "== SASS of the ca-path fine-grained loop"
  cuobjdump -sass "$B" > "$O/chase.sass" 2>&1
  awk '/Function : .*chase_kernelImLi1ELb0E/ { p = 1 } p && /CLOCK|LDG|STS/ { print }
       p && /EXIT/ { exit }' "$O/chase.sass" | head -30
fi
if [ "${MEMCHECK:-1}" = 1 ]; then
  echo "== memcheck (cache --target l1)"
  GS_UNDER_SANITIZER=1 timeout 300 compute-sanitizer --tool memcheck "$B" run cache --target l1 -q \
    --json "$O/memcheck_l1.json" > "$O/memcheck.txt" 2>&1
  echo "rc=$?" >> "$O/memcheck.txt"
  grep -E "ERROR SUMMARY|Invalid|rc=" "$O/memcheck.txt" | tail -5
fi
