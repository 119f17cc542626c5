#!/usr/bin/env bash
# Measures: the wall time of the default report on the first CUDA GPU (`gpusonar` with no
# arguments: every default probe in quick mode; the target is at most 20 s on an H100 or H200),
# and with --thorough also of `gpusonar --thorough` (at most 90 s) and how the intervals
# of the figures both documents give compare (tighter, equal, wider, the median ratio), each with
# its JSON document, text and progress kept in the output folder (the thorough run's in thorough/);
# wider intervals are listed with their share of the value, and counted apart where the thorough
# one exceeds 0.1 % of it (below that both are at the noise floor of the card's state); figures
# with as many samples in both runs are counted apart (--thorough measures them the same way);
# figures whose two values lie further apart than both intervals are counted, the 12 furthest
# listed.
# How to read it: per run, one line per probe (name, status, its own seconds), whether the document
# is complete, the exit status, then `report time  S s (target <= 20 s: PASS|FAIL)` (and
# `thorough time ... (target <= 90 s: ...)`). Exits 1 when a run failed, took longer than its
# target or ran on the simulator (no GPU seen: no acceptance).
# usage: bench/report_time.sh [--thorough] [gpusonar binary] [limit seconds] [output folder]
#                             [thorough limit seconds]
#        (default build/release/gpusonar, 20, a new temporary folder, 90)
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0;; esac
set -uo pipefail
THOROUGH=0
if [ "${1:-}" = "--thorough" ]; then THOROUGH=1; shift; fi
B=${1:-${GPUSONAR:-build/release/gpusonar}}
LIMIT=${2:-20}
DIR=${3:-$(mktemp -d)}
THOROUGH_LIMIT=${4:-90}

# timed LABEL LIMIT OUTDIR [gpusonar arguments]: run the report into OUTDIR, print its time
# against LIMIT; exit status 1 when it failed, was over it or simulated
timed() {
  local label=$1 limit=$2 out=$3; shift 3
  mkdir -p "$out"
  local start end status
  start=$(date +%s.%N)
  "$B" "$@" --json "$out/report.json" >"$out/report.txt" 2>"$out/progress.txt"
  status=$?
  end=$(date +%s.%N)
  /usr/bin/python3 - "$out/report.json" "$start" "$end" "$limit" "$status" "$label" <<'PYEOF'
import json, sys
start, end = float(sys.argv[2]), float(sys.argv[3])
limit, status, label = float(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
simulated, have_doc = False, False
try:
    doc = json.load(open(sys.argv[1]))
    dev = doc.get("device", {})
    simulated = bool(dev.get("simulated"))
    print("%-17s %s (%s)" % (label, dev.get("name"), dev.get("backend")))
    seen = set()       # a probe's records share its elapsed time: one line per probe
    for p in doc["probes"]:
        if p["name"] in seen:
            continue
        seen.add(p["name"])
        print("  %-18s %-12s %6.1f s" % (p["name"], p.get("status"), p.get("elapsed_s") or 0))
    print("complete          %s" % doc.get("complete"))
    have_doc = True
except (OSError, ValueError) as e:
    print("no JSON document: %s" % e)
seconds = end - start
ok = seconds <= limit and not simulated and status == 0 and have_doc
print("exit status       %d" % status)
print("%-17s %.1f s  (target <= %.0f s: %s)" % (label + " time", seconds, limit,
      "PASS" if ok else "FAIL"))
if simulated:
    print("the report ran on the simulator: no GPU was seen, so this is no acceptance run")
sys.exit(0 if ok else 1)
PYEOF
}

result=0
timed report "$LIMIT" "$DIR" || result=1
if [ "$THOROUGH" = 1 ]; then
  timed thorough "$THOROUGH_LIMIT" "$DIR/thorough" --thorough || result=1
  # Intervals: every figure with a ci95 in both documents (same probe, level/space/path and name),
  # the thorough one's over the default one's; --thorough is meant to give tighter intervals.
  /usr/bin/python3 - "$DIR/report.json" "$DIR/thorough/report.json" <<'PYEOF' || result=1
import json, statistics, sys
def cis(path):
    out = {}
    for p in json.load(open(path))["probes"]:
        q = p.get("params", {})           # what the record is about, not its sample counts
        key = (p["name"], "/".join(str(q.get(k, "")) for k in ("level", "space", "path")))
        for name, f in p.get("figures", {}).items():
            ci = f.get("ci95")
            v = f.get("value")
            if isinstance(ci, (int, float)) and ci > 0 and isinstance(v, (int, float)):
                out[key + (name,)] = (ci, abs(v), f.get("n"), v)
    return out
try:
    d, t = cis(sys.argv[1]), cis(sys.argv[2])
except (OSError, ValueError) as e:
    print("intervals: no documents to compare (%s)" % e)
    sys.exit(1)
both = sorted(set(d) & set(t))
# A figure whose sample count is the same in both runs is measured the same way by --thorough:
# its two intervals are draws of one, tighter or wider by chance; counted apart.
same = [k for k in both if d[k][2] is not None and d[k][2] == t[k][2]]
ratios = [(t[k][0] / d[k][0], k) for k in both if k not in same]
if not ratios:
    print("intervals: no figure has a ci95 in both documents")
    sys.exit(0)
tighter = sum(r < 0.999 for r, _ in ratios)
wider = [(r, k) for r, k in ratios if r > 1.001]
print("intervals         %d figures with a ci95 in both and more samples with --thorough: %d "
      "tighter, %d equal, %d wider; median thorough / default %.2f; %d more with the same "
      "samples in both" % (len(ratios), tighter, len(ratios) - tighter - len(wider), len(wider),
                           statistics.median(r for r, _ in ratios), len(same)))
# A thorough interval under FLOOR of its value is at the precision nobody reads (the SM clock to
# 0.005 %, a host copy to 0.04 %): wider ones count apart from those above it.
FLOOR = 0.001
above = [(r, k) for r, k in wider if t[k][0] > FLOOR * t[k][1]]
print("  wider above %.1f %% of the value: %d (below it: %d)" % (100 * FLOOR, len(above),
      len(wider) - len(above)))
def show(what, r, k):
    print("  %s x %.2f: %s %s %s (default %.3g, thorough %.3g = %.3f %% of %.4g)"
          % (what, r, k[0], k[1], k[2], d[k][0], t[k][0],
             100 * t[k][0] / t[k][1] if t[k][1] else 0, t[k][1]))
for r, k in sorted(above, reverse=True):
    show("wider", r, k)
# Two runs of one figure whose values lie further apart than both intervals together (an
# interval holds the sampling noise of one run, not what differs between runs: the pipeline's
# rates move 0.1-0.5 % between its default and thorough launches); the 12 furthest apart.
apart = sorted(((abs(d[k][3] - t[k][3]) / max(abs(t[k][3]), 1e-300), k) for k in both
                if abs(d[k][3] - t[k][3]) > d[k][0] + t[k][0]), reverse=True)
print("values apart by more than both intervals: %d of %d" % (len(apart), len(both)))
for rel, k in apart[:12]:
    print("  apart %.2f %%: %s %s %s (default %.6g +- %.3g, thorough %.6g +- %.3g)"
          % (100 * rel, k[0], k[1], k[2], d[k][3], d[k][0], t[k][3], t[k][0]))
PYEOF
fi
echo "output in $DIR"
exit $result
