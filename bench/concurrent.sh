#!/usr/bin/env bash
# Measures: whether --concurrent (every GPU of the node at once, one process each) gives the same
# figures as measuring the GPUs one after another, and how much wall time it saves.
# Runs `gpusonar --device DEVICES --out-dir` three times: one after another twice (seq1/, seq2/:
# the control, run-to-run noise) and --concurrent once (con/); then `gpusonar compare --tolerance
# PCT` on each GPU's documents: seq1-seq2, seq1-con, seq2-con (OUT/compare-*.txt).
# How to read it: per GPU, how many figures differ between the two sequential runs (noise) and
# between each of them and the concurrent run; "interference" lists the figures where the
# concurrent run differs from both sequential runs while those two agree: the figures concurrency
# disturbed. Fit-quality figures (residuals, rms, model errors, step sharpness, clock spread),
# which describe a fit rather than the hardware, are listed apart and not judged, as `fleet` does.
# Then the wall times and their ratio. Exits 0 when no GPU shows interference, 1 when
# one does, 2 on trouble (fewer than two GPUs, a run that failed). Arguments after -- go to every
# run (e.g. -- --probes cache,pipeline).
# usage: bench/concurrent.sh [gpusonar binary] [output folder] [PCT] [DEVICES] [-- args...]
#        (default build/release/gpusonar, a new temporary folder, 5, cuda:all)
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0;; esac
set -uo pipefail
B=${1:-${GPUSONAR:-build/release/gpusonar}}
DIR=${2:-$(mktemp -d)}
PCT=${3:-5}
DEV=${4:-cuda:all}
shift $(( $# < 4 ? $# : 4 ))
[ "${1:-}" = "--" ] && shift
declare -A wall status
for run in seq1 con seq2; do
  mkdir -p "$DIR/$run"
  extra=(); [ "$run" = con ] && extra=(--concurrent)
  t0=$(date +%s.%N)
  "$B" --device "$DEV" "${extra[@]}" --out-dir "$DIR/$run" "$@" > "$DIR/$run.txt" 2> "$DIR/$run.err"
  status[$run]=$?
  wall[$run]=$(/usr/bin/python3 -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$(date +%s.%N)")
  echo "$run: exit status ${status[$run]}, ${wall[$run]} s"
done
n=$(ls "$DIR"/seq1/*.json 2>/dev/null | wc -l)
if [ "$n" -lt 2 ] || [ "${status[seq1]}" -ne 0 ] || [ "${status[seq2]}" -ne 0 ] || [ "${status[con]}" -ne 0 ]; then
  echo "trouble: $n documents (needs two GPUs or more) or a run failed; see $DIR/*.err"
  exit 2
fi
marked() { grep -E '  [*!]$' "$1" | awk '{print $1}' | sort; }
QUALITY='(_rms_cycles|_residual_cycles|_error_percent|_step_sharpness|_spread_percent|measured_vs_driver_percent)$'
worst=0
for f in "$DIR"/seq1/*.json; do
  name=$(basename "$f" .json)
  for pair in "seq1 seq2" "seq1 con" "seq2 con"; do
    set -- $pair
    if [ ! -f "$DIR/$2/$name.json" ]; then echo "$name: no $2 document"; worst=2; continue 2; fi
    "$B" compare --tolerance "$PCT" "$DIR/$1/$name.json" "$DIR/$2/$name.json" > "$DIR/compare-$1-$2-$name.txt"
    marked "$DIR/compare-$1-$2-$name.txt" > "$DIR/marked-$1-$2-$name.txt"
  done
  noise=$(wc -l < "$DIR/marked-seq1-seq2-$name.txt")
  c1=$(wc -l < "$DIR/marked-seq1-con-$name.txt")
  c2=$(wc -l < "$DIR/marked-seq2-con-$name.txt")
  total=$(tail -1 "$DIR/compare-seq1-seq2-$name.txt" | awk '{print $1}')
  inter=$(comm -12 "$DIR/marked-seq1-con-$name.txt" "$DIR/marked-seq2-con-$name.txt" |
          comm -23 - "$DIR/marked-seq1-seq2-$name.txt")
  quality=$(echo "$inter" | grep -E "$QUALITY")
  inter=$(echo "$inter" | grep -Ev "$QUALITY")
  echo "$name: $total figures; differ seq1-seq2 $noise (noise), seq1-con $c1, seq2-con $c2"
  if [ -n "$inter" ]; then
    echo "  interference (concurrent differs from both sequential runs, which agree):"
    for fig in $inter; do grep -h "^$fig " "$DIR/compare-seq1-con-$name.txt" | sed 's/^/    /'; done
    worst=1
  fi
  if [ -n "$quality" ]; then
    echo "  fit quality moved (not judged): $(echo $quality)"
  fi
  if [ -z "$inter" ]; then
    echo "  no interference: every figure the concurrent run moved also moves between sequential runs"
  fi
done
/usr/bin/python3 -c "import sys; a, b = map(float, sys.argv[1:]); print('wall time: one after another %.1f s, at once %.1f s, ratio %.2f' % (a, b, b / a))" "${wall[seq1]}" "${wall[con]}"
exit $worst
