#!/usr/bin/env bash
# The test suite's speed target, measured: `make test` (the set-up check, the sanitized test
# build with its CUDA code where nvcc is found and its fuzz build, then every test through ctest
# on all CPUs) in a fresh clone of this repository's committed HEAD; target at most 600 s of wall
# time, build included, on two cores. Prints the build's and the tests' wall times (the build
# ends where make starts ctest), the CPU seconds of the whole (user + system of every process),
# the ten longest tests with their own wall times, and the total beside the target. The clone and
# make's output (make.log) are removed afterwards unless --keep, which prints where they are.
# Exits 1 when `make test` fails or the target is missed. Needs what scripts/setup.sh installs.
# usage: bench/suite_time.sh [--keep] [target seconds]        (default 600)
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0;; esac
set -uo pipefail
KEEP=0
if [ "${1:-}" = "--keep" ]; then KEEP=1; shift; fi
TARGET=${1:-600}
REPO=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
if [ $KEEP -eq 1 ]; then echo "clone and make.log kept in $T"; else trap 'rm -rf "$T"' EXIT; fi
git clone -q "$REPO" "$T/src" || { echo "git clone failed"; exit 2; }
cd "$T/src" || exit 2
echo "$(git log -1 --format='%h %s' | cut -c1-80), $(nproc) CPUs"
/usr/bin/python3 - "$TARGET" "$T/make.log" <<'PYEOF'
import re, resource, subprocess, sys, time
target, log_path = float(sys.argv[1]), sys.argv[2]
start = time.monotonic()
tests_start = None
tests = []
with open(log_path, "w") as log:
    make = subprocess.Popen(["make", "test"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, errors="replace")
    for line in make.stdout:
        log.write(line)
        if tests_start is None and re.search(r"&& ctest\b", line):
            tests_start = time.monotonic()
        m = re.search(r"Test +#\d+: (\S+) \.*\**\s*(\w[\w ]*?)\s+([\d.]+) sec", line)
        if m:
            tests.append((float(m.group(3)), m.group(1), m.group(2)))
    rc = make.wait()
end = time.monotonic()
use = resource.getrusage(resource.RUSAGE_CHILDREN)
total = end - start
build = (tests_start or end) - start
print("build   %7.1f s wall" % build)
print("tests   %7.1f s wall, %d tests" % (end - (tests_start or end), len(tests)))
print("cpu     %7.1f s (user + system, every process)" % (use.ru_utime + use.ru_stime))
for secs, name, status in sorted(tests, reverse=True)[:10]:
    print("  %-40s %7.1f s  %s" % (name, secs, status))
verdict = "FAIL (make test exit %d)" % rc if rc else ("PASS" if total <= target else "FAIL")
print("make test from a fresh clone  %7.1f s  target <= %g s  %s" % (total, target, verdict))
sys.exit(1 if rc or total > target else 0)
PYEOF
