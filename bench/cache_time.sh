#!/usr/bin/env bash
# Times `gpusonar run cache --target all` on a GPU (the Hopper issue's acceptance: under 60 s on
# the H100) and keeps its JSON and text report. Run it on the GPU machine.
# Usage: bench/cache_time.sh [GPUSONAR] [OUTDIR]     (defaults: build/gpusonar, .)
set -u
B=${1:-build/gpusonar}
O=${2:-.}
LIMIT_S=60
start=$(date +%s.%N)
"$B" run cache --target all --json "$O/cache_all.json" >"$O/cache_all.txt" 2>"$O/cache_all.err"
rc=$?
end=$(date +%s.%N)
elapsed=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
echo "gpusonar run cache --target all: exit $rc, $elapsed s (limit $LIMIT_S s)"
[ "$rc" -eq 0 ] || { tail -5 "$O/cache_all.err"; exit 1; }
awk -v t="$elapsed" -v l="$LIMIT_S" 'BEGIN { exit !(t < l) }' || { echo "over the limit"; exit 1; }
