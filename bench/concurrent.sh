#!/usr/bin/env bash
# Measures: whether --concurrent (every GPU of the node at once, one process each) gives the same
# figures as measuring the GPUs one after another (issue 22), and how much wall time it saves.
# Runs `gpusonar --device DEVICES --out-dir` twice, one after another (seq/) then --concurrent
# (con/), then `gpusonar compare --tolerance PCT` on each GPU's two documents.
# How to read it: per GPU the compare verdict (agree, or N figures differ beyond both intervals
# and PCT %; `compare` itself is in OUT/compare-*.txt), then the two wall times and their ratio.
# Exits 0 when every GPU agrees, 1 when one differs, 2 on trouble (fewer than two GPUs, a run
# that failed). Extra arguments go to both runs (e.g. --probes cache,pipeline or --thorough).
# usage: bench/concurrent.sh [gpusonar binary] [output folder] [PCT] [DEVICES] [-- args...]
#        (default build/release/gpusonar, a new temporary folder, 5, cuda:all)
set -uo pipefail
B=${1:-${GPUSONAR:-build/release/gpusonar}}
DIR=${2:-$(mktemp -d)}
PCT=${3:-5}
DEV=${4:-cuda:all}
shift $(( $# < 4 ? $# : 4 ))
[ "${1:-}" = "--" ] && shift
mkdir -p "$DIR/seq" "$DIR/con"
t0=$(date +%s.%N)
"$B" --device "$DEV" --out-dir "$DIR/seq" "$@" > "$DIR/seq.txt" 2> "$DIR/seq.err"
s1=$?
t1=$(date +%s.%N)
"$B" --device "$DEV" --concurrent --out-dir "$DIR/con" "$@" > "$DIR/con.txt" 2> "$DIR/con.err"
s2=$?
t2=$(date +%s.%N)
echo "one after another: exit status $s1; at once: exit status $s2"
n=$(ls "$DIR"/seq/*.json 2>/dev/null | wc -l)
if [ "$n" -lt 2 ] || [ "$s1" -ne 0 ] || [ "$s2" -ne 0 ]; then
  echo "trouble: $n documents (needs two GPUs or more) or a run failed; see $DIR/*.err"
  exit 2
fi
worst=0
for f in "$DIR"/seq/*.json; do
  name=$(basename "$f" .json)
  g="$DIR/con/$name.json"
  if [ ! -f "$g" ]; then echo "$name: no concurrent document"; worst=2; continue; fi
  "$B" compare --tolerance "$PCT" "$f" "$g" > "$DIR/compare-$name.txt"
  rc=$?
  summary=$(tail -1 "$DIR/compare-$name.txt")
  if [ $rc -eq 0 ]; then echo "$name: agree: $summary"
  else echo "$name: DIFFER: $summary"; grep -E '  [*!]$' "$DIR/compare-$name.txt" | sed 's/^/    /'; fi
  [ $rc -gt $worst ] && worst=$rc
done
/usr/bin/python3 -c "import sys; a, b, c = map(float, sys.argv[1:]); print('wall time: one after another %.1f s, at once %.1f s, ratio %.2f' % (b - a, c - b, (c - b) / (b - a)))" "$t0" "$t1" "$t2"
exit $worst
