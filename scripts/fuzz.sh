#!/usr/bin/env bash
# Runs gpusonar's libFuzzer targets (tests/fuzz/fuzz_*.c) over their seed corpora, one worker
# each, one target after the other. New inputs the fuzzer finds go to a temporary folder that is
# removed afterwards (the seed corpus is never changed); a crash, hang, leak or sanitizer report
# stops that target, leaves the input as <build>/artifacts/<target>-crash-... and makes the script
# fail. ctest runs it briefly on every build (tests/fuzz/fuzz_outer.cmake).
#
# usage: scripts/fuzz.sh [--runs N] [--seconds S] [--max-len B] [--build DIR] [--no-build] [TARGET...]
#   --runs N      inputs per target (default 1000000; -1: no limit, stop at --seconds)
#   --seconds S   stop each target after S seconds even if N inputs are not done (default: none)
#   --max-len B   longest input in bytes (default: per target, 4096 to 131072)
#   --build DIR   the clang fuzz build (default build/fuzz, configured here if missing)
#   --no-build    do not configure or build; use the fuzzers already in DIR
#   TARGET        model, document, cli, report, html, export, plot, compare, fleet (default: all)
# Example: scripts/fuzz.sh --runs 2000000 model     scripts/fuzz.sh --runs -1 --seconds 600
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

runs=1000000 seconds=0 build="$root/build/fuzz" do_build=1 targets=() max_len_arg=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --max-len) max_len_arg="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --no-build) do_build=0; shift ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    model|document|cli|report|html|export|plot|compare|fleet) targets+=("$1"); shift ;;
    *) echo "fuzz.sh: unknown argument '$1'; see --help" >&2; exit 2 ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(model document cli report html export plot compare fleet)

if [ "$do_build" = 1 ]; then
  if [ ! -f "$build/CMakeCache.txt" ]; then
    clang="$(command -v clang || command -v clang-14 || true)"
    [ -n "$clang" ] || { echo "fuzz.sh: clang not found; run scripts/setup.sh --test" >&2; exit 2; }
    cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER="$clang" -DCMAKE_BUILD_TYPE=Debug \
          -DGS_CUDA=OFF -DGS_SANITIZE=OFF -DGS_FUZZ=OFF -DGS_FUZZ_TARGETS=ON >/dev/null
  fi
  cmake --build "$build" -j "$(nproc)" >/dev/null
fi

# Longest input per target: a model or a CLI line is short, a result document can be long.
max_len() {
  [ -n "$max_len_arg" ] && { echo "$max_len_arg"; return; }
  case "$1" in model) echo 16384 ;; cli) echo 4096 ;; fleet) echo 131072 ;; *) echo 65536 ;; esac
}

# The writers' targets share one seed corpus of result documents and the document dictionary;
# compare and fleet read several documents separated by NUL bytes and have their own seeds.
corpus_of() {
  case "$1" in report|html|export|plot) echo report ;; *) echo "$1" ;; esac
}
dict_of() {
  case "$1" in model|cli) echo "$1" ;; *) echo document ;; esac
}

mkdir -p "$build/artifacts"
failed=0
for t in "${targets[@]}"; do
  fuzzer="$build/fuzz_$t"
  [ -x "$fuzzer" ] || { echo "fuzz.sh: $fuzzer is missing; build it first" >&2; exit 2; }
  work="$(mktemp -d)"
  args=(-runs="$runs" -timeout=10 -rss_limit_mb=2048 -max_len="$(max_len "$t")"
        -artifact_prefix="$build/artifacts/$t-" -print_final_stats=1)
  [ "$seconds" != 0 ] && args+=(-max_total_time="$seconds")
  dict="$root/tests/fuzz/$(dict_of "$t").dict"
  [ -f "$dict" ] && args+=(-dict="$dict")
  log="$build/artifacts/$t.log"
  rc=0
  "$fuzzer" "${args[@]}" "$work" "$root/tests/fuzz/corpus/$(corpus_of "$t")" >"$log" 2>&1 || rc=$?
  rm -rf "$work"
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
  secs="$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)"
  if [ "$rc" -ne 0 ]; then
    tail -n 60 "$log"
    echo "fuzz $t: FAILED (exit $rc) after ${execs:-?} inputs; log $log, input in $build/artifacts/"
    failed=1
  else
    echo "fuzz $t: ${execs:-?} inputs in ${secs:-?} s, no crash, hang, leak, sanitizer report or broken oracle"
  fi
done
exit "$failed"
