#!/usr/bin/env bash
# Measures: the wall time of the default report on the first CUDA GPU (`gpusonar` with no
# arguments: every default probe in quick mode; issue 9 asks for at most 90 s), with its JSON
# document, text and progress kept in the output folder.
# How to read it: one line per probe (name, status, its own seconds), whether the document is
# complete, the exit status, then `report time  S s (acceptance <= 90 s: PASS|FAIL)`. Exits 1
# when the run took longer than the limit or ran on the simulator (no GPU seen: no acceptance).
# usage: bench/report_time.sh [gpusonar binary] [limit seconds] [output folder]
#        (default build/release/gpusonar, 90, a new temporary folder)
set -uo pipefail
B=${1:-${GPUSONAR:-build/release/gpusonar}}
LIMIT=${2:-90}
DIR=${3:-$(mktemp -d)}
mkdir -p "$DIR"
start=$(date +%s.%N)
"$B" --json "$DIR/report.json" >"$DIR/report.txt" 2>"$DIR/progress.txt"
status=$?
end=$(date +%s.%N)
/usr/bin/python3 - "$DIR/report.json" "$start" "$end" "$LIMIT" "$status" <<'PYEOF'
import json, sys
start, end = float(sys.argv[2]), float(sys.argv[3])
limit, status = float(sys.argv[4]), int(sys.argv[5])
simulated = False
try:
    doc = json.load(open(sys.argv[1]))
    dev = doc.get("device", {})
    simulated = bool(dev.get("simulated"))
    print("device            %s (%s)" % (dev.get("name"), dev.get("backend")))
    for p in doc["probes"]:
        print("  %-18s %-12s %6.1f s" % (p["name"], p.get("status"), p.get("elapsed_s") or 0))
    print("complete          %s" % doc.get("complete"))
except (OSError, ValueError) as e:
    print("no JSON document: %s" % e)
seconds = end - start
ok = seconds <= limit and not simulated
print("exit status       %d" % status)
print("report time       %.1f s  (acceptance <= %.0f s: %s)" % (seconds, limit,
      "PASS" if ok else "FAIL"))
if simulated:
    print("the report ran on the simulator: no GPU was seen, so this is no acceptance run")
sys.exit(0 if ok else 1)
PYEOF
