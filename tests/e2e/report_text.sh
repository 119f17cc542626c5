#!/usr/bin/env bash
# End-to-end tests of the text report's shape: the one-page summary, then per probe its headline
# figures and a pointer to the rest; --details restores every figure with its whole reason; a
# "not determined" reason shortened to its first clause and wrapped within 100 columns; figure
# names that differ by more than case (issue λ / completion Λ); sizes with binary prefixes, here
# and in `info`.
set -u
. "$(dirname "$0")/common.bash"
passes=0
ok() { passes=$((passes+1)); }
bad() { echo "FAIL $*"; fails=$((fails+1)); }

$B report --device sim:hopper --probes clock,smem-banks,mem-bandwidth,pipeline,roofline,bandwidth \
  -q --json "$T/doc.json" >"$T/head.txt" 2>"$T/err" || bad "report: $(cat "$T/err")"
# A long reason on a headline figure, as a saved document may hold one.
$PY - "$T/doc.json" "$T/nd.json" <<'PYEOF'
import json, sys
doc = json.load(open(sys.argv[1]))
for p in doc["probes"]:
    if p["name"] == "clock":
        f = p["figures"]["driver_sm_clock_khz"]
        f.update(value=None, ci95=None, reason="the driver reports no clock for this device: "
                 + "the application clock query failed, " * 12 + "and the last word is TAILWORD")
        p["figures"]["measured_vs_driver_percent"].update(value=None, ci95=None,
                                                          reason=f["reason"])
json.dump(doc, open(sys.argv[2], "w"))
PYEOF
$B report --from "$T/nd.json" >"$T/head.txt" || bad "report --from"
$B report --from "$T/nd.json" --details >"$T/all.txt" || bad "report --from --details"
$B report --from "$T/nd.json" --format markdown >"$T/head.md" || bad "markdown"
$B report --from "$T/nd.json" --format markdown --details >"$T/all.md" || bad "markdown --details"

$PY - "$T/nd.json" "$T/head.txt" "$T/all.txt" "$T/head.md" "$T/all.md" <<'PYEOF' || bad "report shape"
import json, re, sys
doc = json.load(open(sys.argv[1]))
head, full = open(sys.argv[2]).read(), open(sys.argv[3]).read()
head_md, full_md = open(sys.argv[4]).read(), open(sys.argv[5]).read()
errors = []
def label(name):
    return re.sub(r"(^|_)Lambda(?=_|$)", r"\1completion_latency",
                  re.sub(r"(^|_)lambda(?=_|$)", r"\1issue_latency", name))
def sections(text):
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"^== (\S+)( \(.*\))? ==", line)
        if m:
            cur = m.group(1); out[cur] = []
        elif cur:
            out[cur].append(line)
    return out
hs, fs = sections(head), sections(full)
if "Performance report" not in head or head.find("Performance report") > head.find("== "):
    errors.append("the summary does not come first")
# Headline: at most 13 figure lines per probe (pipeline and roofline: one table row per
# instruction type), and a pointer to the rest wherever figures were left out.
for p in doc["probes"]:
    name, figs = p["name"], p["figures"]
    lines = [l for l in hs.get(name, []) if l.startswith("  ") and not l.startswith("   ")]
    if len(lines) > 16:
        errors.append("%s: %d headline lines" % (name, len(lines)))
    shown = [n for n in figs if re.search(r"^  %s +\S" % re.escape(label(n)), "\n".join(hs[name]), re.M)]
    more = re.search(r"\((\d+) more figures?: --details", "\n".join(hs[name]))
    if len(figs) > len(shown) + 15 and not more:
        errors.append("%s: no pointer to the figures left out" % name)
    # --details: every figure, under its label.
    body = "\n".join(fs.get(name, []))
    missing = [n for n in figs if not re.search(r"^  %s +\S" % re.escape(label(n)), body, re.M)]
    if missing:
        errors.append("%s --details lacks %s" % (name, missing[:3]))
    if "more figure" in body:
        errors.append("%s --details still points to more" % name)
    missing_md = [n for n in figs if "| %s |" % label(n).replace("_", "_") not in full_md]
    if missing_md:
        errors.append("%s markdown --details lacks %s" % (name, missing_md[:3]))
if len(head.splitlines()) * 2 > len(full.splitlines()):
    errors.append("headline report %d lines against %d with --details"
                  % (len(head.splitlines()), len(full.splitlines())))
if len(head_md.splitlines()) >= len(full_md.splitlines()):
    errors.append("markdown without --details is not shorter")
# The pipeline's headline is its table with both latencies named.
if not re.search(r"^  itype +issue λ \(cycles\) +completion Λ \(cycles\)", "\n".join(hs["pipeline"]), re.M):
    errors.append("pipeline headline table header")
if not re.search(r"^  ffma +\S+ +\S+ +\S+ +\S+$", "\n".join(hs["pipeline"]), re.M):
    errors.append("pipeline ffma row")
# No two figure names differ only by case.
names = re.findall(r"^  ([A-Za-z0-9_.-]+) {2,}", full, re.M)
lower = {}
for n in set(names):
    if n.lower() in lower and lower[n.lower()] != n:
        errors.append("names differ by case only: %s / %s" % (n, lower[n.lower()]))
    lower[n.lower()] = n
# A reason: first clause and an ellipsis in the headline, whole with --details; no line over 100.
if "TAILWORD" in head or "the driver reports no clock for this device …" not in head:
    errors.append("the reason is not shortened to its first clause")
if "TAILWORD" not in full:
    errors.append("--details lost the reason's end")
# The same reason twice in a row: named, not repeated, in the headline; whole with --details.
if not re.search(r"^  measured_vs_driver_percent +not determined: as driver_sm_clock_khz$", head, re.M):
    errors.append("a repeated reason is not named")
if full.count("TAILWORD") != 2:
    errors.append("--details does not repeat the reason")
for text, what in ((head, "report"), (full, "--details")):
    long = [l for l in text.splitlines() if len(l) > 100 and " " in l.strip()
            and not l.startswith("gpusonar ")]
    if long:
        errors.append("%s: a line of %d characters: %s" % (what, len(long[0]), long[0][:60]))
# Units: the clock in MHz, sizes in binary prefixes, an interval in the value's unit.
if not re.search(r"^  sm_clock_khz +1\d{3}(\.\d+)? MHz", head, re.M):
    errors.append("the SM clock is not in MHz")
if re.search(r"\d(KB|MB|GB)\b", head + full):
    errors.append("a size with a decimal prefix: %s" % re.search(r".*\d(KB|MB|GB)\b.*", head + full).group(0))
if re.search(r"kHz", head):
    errors.append("a clock in kHz")
for e in errors:
    print(e)
sys.exit(1 if errors else 0)
PYEOF


# `run PROBE` prints every figure of its probe: it has no summary to stand for them.
$B run pipeline --device sim:hopper -q --json "$T/p.json" >"$T/run.txt" 2>"$T/err" || bad "run pipeline"
grep -q "^  ffma_ilp2_completion_latency_cycles " "$T/run.txt" && ok || bad "run pipeline hides figures"
grep -q "more figure" "$T/run.txt" && bad "run points to --details" || ok

# info: sizes with binary prefixes, and the L2's size said to be the driver's.
$B info --device sim:hopper -q >"$T/info.txt" 2>"$T/err" || bad "info"
grep -Eq "^L2 cache \(driver\) +[0-9.]+ (KiB|MiB); the report's L2 size is measured" "$T/info.txt" \
  && ok || bad "info's L2 line: $(grep L2 "$T/info.txt")"
grep -Eq "^global memory +[0-9.]+ GiB" "$T/info.txt" && ok || bad "info's memory in GiB"
grep -Eq "[0-9] ?(KB|MB|GB)\b" "$T/info.txt" && bad "info with decimal prefixes" || ok

echo "report_text: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
