#!/usr/bin/env bash
# End-to-end test of probe global-patterns on the built-in simulator models: the request
# granularity inferred from the L1-hit warp sweep (sector_bytes, line_bytes, and the extra cycles
# per sector and per line) must equal the model's L1 geometry and warp_request costs, and the
# latency table must order as the model does (L1 hit < L2 hit < L2 miss < l1tlb_miss <= tlb_miss,
# each TLB pattern an L2 miss plus the penalties of the TLB levels its span passes, and path cg
# never hits L1), and the trace's own cost (taken off every latency) must read about 0, as the
# simulator's records cost nothing beyond the load.
set -u
. "$(dirname "$0")/common.bash"

for m in hopper kepler fermi; do
  if ! $B run global-patterns -q --device "sim:$m" --seed 5 --json "$T/$m.json" >/dev/null 2>"$T/err"; then
    echo "FAIL $m: exit status"; sed 's/^/  /' "$T/err"; fails=$((fails+1)); continue
  fi
  $PY - "$T/$m.json" "$SRC/models/$m.json" "$SRC/docs/gpusonar-1.schema.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
doc = json.load(open(sys.argv[1]))
model = json.load(open(sys.argv[2]))
from e2e_doc import validate
validate(doc, sys.argv[3])
mem = model["memory"]
l1 = [c for c in mem["caches"] if "ca" in c["paths"]][0]
line = l1["line_bytes"]
sector = l1.get("sector_bytes", line)
req = mem["warp_request"]
fig = doc["probes"][0]["figures"]
def val(k):
    v = fig.get(k, {}).get("value")
    if v is None:
        sys.exit("FAIL %s: %s not determined: %s" % (model["name"], k, fig.get(k, {}).get("reason")))
    return v
bad = []
if sector == line:                          # one unit: no sector size to find
    for k in ("sector_bytes", "l1_latency_sector_bytes"):
        if fig[k].get("value") is not None: bad.append("%s determined without sectors" % k)
elif val("sector_bytes") != sector: bad.append("sector_bytes %s != %s" % (val("sector_bytes"), sector))
if val("line_bytes") != line: bad.append("line_bytes %s != %s" % (val("line_bytes"), line))
def close(k, want):
    v, ci = val(k), fig[k]["ci95"]
    if abs(v - want) > 2 * ci + 0.1: bad.append("%s %.3f +- %.3f != %s" % (k, v, ci, want))
if sector != line:
    close("l1_latency_extra_sector_cycles", req["extra_sector_cycles"])
    close("l1_latency_extra_line_cycles", req["extra_line_cycles"])
else:
    close("l1_latency_extra_line_cycles", req["extra_sector_cycles"] + req["extra_line_cycles"])
order = [val("latency_%s_ca_cycles" % p)
         for p in ("l1_hit", "l2_hit", "l2_miss", "l1tlb_miss", "tlb_miss")]
has_l1 = "cg" not in l1["paths"]           # the first cache on path ca is an L1 (not the L2)
if not (order[0] <= order[1] < order[2] < order[3] <= order[4]) or (has_l1 and not order[0] < order[1]):
    bad.append("path ca latencies not increasing: %s" % order)
# the TLB patterns cost an L2 miss plus the penalty of every TLB level whose reach (entries x
# coverage) their span passes: l1tlb_miss's device memory, tlb_miss's aliased terabyte
params = doc["probes"][0]["params"]
jitter = model.get("noise", {}).get("jitter_cycles", 0) + 2
for pat, span in (("l1tlb_miss", params["tlb_footprint_bytes"]), ("tlb_miss", params["tlb_span_bytes"])):
    extra, clear, skipped = 0, True, set()
    for t in mem.get("tlbs", []):
        reach = t["entries"] * t.get("coverage_bytes", t["page_bytes"])
        if 2 * reach <= span:
            extra += t["miss_penalty_cycles"]
            skipped |= set(t.get("on_miss_skip", []))   # a cache such a miss does not look up
        elif reach < span:
            clear = False                   # a reach near the span: hits and misses mix
    extra -= sum(c.get("miss_cycles", 0) for c in mem["caches"]
                 if c["name"] in skipped and "ca" in c["paths"])
    got = val("latency_%s_ca_cycles" % pat) - val("latency_l2_miss_ca_cycles")
    if clear and abs(got - extra) > jitter:
        bad.append("%s costs %.1f cycles over an L2 miss, the model's TLB levels %d" % (pat, got, extra))
    if pat == "tlb_miss" and not clear:
        bad.append("a TLB level of the model reaches about --tlb-span")
if has_l1 and val("latency_l1_hit_cg_cycles") <= val("latency_l1_hit_ca_cycles"):
    bad.append("path cg hit L1")
want = l1["hit_latency_cycles"] + mem.get("path_extra_cycles", {}).get("ca", 0)
if abs(val("latency_l1_hit_ca_cycles") - want) > model.get("noise", {}).get("jitter_cycles", 0) + 1:
    bad.append("first-level hit latency %s != model %s" % (val("latency_l1_hit_ca_cycles"), want))
# the simulator's traces cost nothing beyond the load: the trace's own cost reads about 0
if abs(val("trace_cost_cycles")) > 1:
    bad.append("trace_cost_cycles %s on a simulator whose records cost nothing" % val("trace_cost_cycles"))
if bad:
    sys.exit("FAIL %s: %s" % (model["name"], "; ".join(bad)))
print("ok %s: sector %d B, line %d B, ca latencies %s" % (model["name"], sector, line, [round(x) for x in order]))
PYEOF
done
[ $fails -eq 0 ] && echo "banks_patterns: all passed" || echo "banks_patterns: $fails failed"
exit $((fails > 0))
