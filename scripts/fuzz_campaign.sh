#!/usr/bin/env bash
# A long fuzz campaign: every libFuzzer target of tests/fuzz/ (scripts/fuzz.sh) for at least
# 1,000,000 inputs each, one target after the other at low priority, with a summary line per
# target (inputs run, and whether anything was found) in <build>/artifacts/campaign.txt. Not a
# test: ctest runs each target for a few seconds only (tests/fuzz/fuzz_outer.cmake).
#
# usage: scripts/fuzz_campaign.sh [--runs N] [--seconds S] [--max-len B] [--build DIR] [--no-build]
#                                 [TARGET...]
#   --runs N     inputs per target (default 1000000)
#   --seconds S  stop each target after S seconds even if N inputs are not done (default: none)
#   --max-len B  longest input (default: 8192 for one document, 16384 for compare's two, 32768
#                for fleet's several: small documents run fastest; the small seeds fit whole)
#   --build DIR  the clang fuzz build (default build/fuzz; configured and built if missing)
#   --no-build   use the fuzzers already in DIR
#   TARGET       as scripts/fuzz.sh (default: all)
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs=1000000 seconds=0 max_len="" build="$root/build/fuzz" targets=() no_build=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --max-len) max_len="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --no-build) no_build=--no-build; shift ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(export report html compare fleet plot document model cli)

nice -n 19 bash "$root/scripts/fuzz.sh" --build "$build" $no_build --runs 1 "${targets[0]}" \
  >/dev/null ||
  { echo "fuzz_campaign: the fuzz build failed" >&2; exit 2; }
mkdir -p "$build/artifacts"
summary="$build/artifacts/campaign.txt"
: >"$summary"
failed=0
for t in "${targets[@]}"; do
  start=$(date +%s)
  len="$max_len"
  [ -n "$len" ] || case "$t" in compare) len=16384 ;; fleet) len=32768 ;; *) len=8192 ;; esac
  line="$(nice -n 19 bash "$root/scripts/fuzz.sh" --build "$build" --no-build --runs "$runs" \
                 --seconds "$seconds" --max-len "$len" "$t" |
          tail -n 1)" || failed=1
  echo "$line ($(( $(date +%s) - start )) s wall)" | tee -a "$summary"
done
exit "$failed"
