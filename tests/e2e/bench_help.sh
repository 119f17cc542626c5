#!/usr/bin/env bash
# Every benchmark script under bench/ answers -h and --help with its header (what it measures,
# how to read it, its usage line) and exit status 0, before it builds or measures anything: a
# user who asks how to run one must not start a build or a GPU run instead (fma_peak.sh once
# took --help for a build folder).
set -u
. "$(dirname "$0")/common.bash"
n=0
for f in "$SRC"/bench/*.sh; do
  for opt in -h --help; do
    n=$((n+1))
    if ! out=$(cd "$T" && timeout 10 bash "$f" "$opt" 2>&1); then
      echo "FAIL $(basename "$f") $opt: exit status"; fails=$((fails+1)); continue
    fi
    case "$out" in
      *"usage: bench/$(basename "$f")"*) ;;
      *) echo "FAIL $(basename "$f") $opt: no usage line"; echo "$out" | head -3 | sed 's/^/  /'
         fails=$((fails+1));;
    esac
    [ -z "$(ls -A "$T")" ] || { echo "FAIL $(basename "$f") $opt: wrote files"; fails=$((fails+1)); }
  done
done
echo "bench_help: $n answers, $fails failures"
[ "$fails" -eq 0 ]
