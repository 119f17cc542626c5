#!/usr/bin/env bash
# On a GPU: the wall time of the default report (`gpusonar` with no arguments: every default
# probe in quick mode), with its JSON document kept beside the text. Prints the seconds and each
# probe's own time; exits 1 when the whole run took longer than the limit (default 90 s).
# usage: bench/report_time.sh [gpusonar binary] [limit seconds] [output folder]
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
try:
    doc = json.load(open(sys.argv[1]))
    for p in doc["probes"]:
        print("  %-18s %-12s %6.1f s" % (p["name"], p.get("status"), p.get("elapsed_s") or 0))
    print("complete          %s" % doc.get("complete"))
except (OSError, ValueError) as e:
    print("no JSON document: %s" % e)
seconds = end - start
print("exit status       %d" % status)
print("report time       %.1f s  (acceptance <= %.0f s: %s)" % (seconds, limit,
      "PASS" if seconds <= limit else "FAIL"))
sys.exit(0 if seconds <= limit else 1)
PYEOF
