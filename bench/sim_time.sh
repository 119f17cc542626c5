#!/usr/bin/env bash
# The simulator's speed targets, measured: the default report on sim:hopper (target: at most 6 s
# of CPU, user + system, of the process and the child it forks for random-walk, on two cores),
# and the 65,536-way model (hopper with a fully associative first-level TLB of 65536 entries, the
# model reader's bound: simulator cost must follow accesses, not ways; target < 2 s of wall time
# for the cache probe's TLB target, its default report shown beside it).
# A run that fails is a FAIL, whatever its time. Also `--thorough` on sim:hopper
# (no target). Each is run RUNS times (default 3); the minimum and the median CPU and wall times
# are printed beside the target, which the minimum must meet (the least disturbed run on a
# shared machine). Builds a release simulator-only binary into build/simtime unless one is given.
# Exits 1 when a target is missed. Needs only what scripts/setup.sh installs (cmake, gcc,
# python3).
# usage: bench/sim_time.sh [gpusonar binary] [runs]
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0;; esac
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
B=${1:-}
RUNS=${2:-3}
if [ -z "$B" ]; then
  cmake -S . -B build/simtime -DGS_CUDA=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build build/simtime -j2 --target gpusonar >/dev/null || { echo "build failed"; exit 2; }
  B=build/simtime/gpusonar
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# The most-ways model: hopper's l1tlb with 65536 entries (one set, so 65536 ways).
/usr/bin/python3 - models/hopper.json "$T/many_ways.json" <<'PYEOF'
import json, sys
m = json.load(open(sys.argv[1]))
m["name"] = "hopper-65536-way-tlb"
m["memory"]["tlbs"][0]["entries"] = 65536
json.dump(m, open(sys.argv[2], "w"), indent=1)
PYEOF

# measure LABEL KIND TARGET_SECONDS ARGS...: RUNS runs of `gpusonar ARGS -q`, their CPU seconds
# (user + system of the run and its children) and wall seconds, min and median; KIND (cpu or
# wall) is the one the target applies to, "-" for no target.
measure() {
  local label=$1 kind=$2 target=$3; shift 3
  /usr/bin/python3 - "$label" "$kind" "$target" "$RUNS" "$T" "$B" "$@" <<'PYEOF'
import os, resource, statistics, subprocess, sys, time
label, kind, target, runs, tmp, binary = sys.argv[1:7]
args = sys.argv[7:]
cpu, wall, failed = [], [], False
for _ in range(int(runs)):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    with open(os.path.join(tmp, "err"), "w") as err:
        rc = subprocess.call([binary] + args + ["-q", "--json", os.path.join(tmp, "out.json")],
                             stdout=subprocess.DEVNULL, stderr=err)
    wall.append(time.monotonic() - start)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    if rc != 0:
        failed = True
        print("%s: failed (exit %d)" % (label, rc))
        sys.stdout.write(open(os.path.join(tmp, "err")).read())
measured = min(cpu) if kind == "cpu" else min(wall)
verdict = "FAIL (a run failed)" if failed else \
    "" if target == "-" else ("PASS" if measured <= float(target) else "FAIL")
goal = "-" if target == "-" else "<= %s s %s" % (target, kind)
print("%-36s cpu min %6.2f median %6.2f s  wall min %6.2f median %6.2f s  target %-14s %s" %
      (label, min(cpu), statistics.median(cpu), min(wall), statistics.median(wall), goal,
       verdict))
PYEOF
}

echo "$("$B" version 2>/dev/null | head -1), $(nproc) CPUs, $RUNS runs each"
{
measure "default report, sim:hopper" cpu 6 --device sim:hopper
measure "cache --target tlb, 65536-way TLB" wall 2 run cache --target tlb --device "sim:$T/many_ways.json"
measure "default report, 65536-way TLB" cpu - --device "sim:$T/many_ways.json"
measure "--thorough report, sim:hopper" cpu - --thorough --device sim:hopper
} | tee "$T/lines"
! grep -q FAIL "$T/lines"
