#!/usr/bin/env bash
# End-to-end test of the TLB levels of probe `cache --target tlb` on simulator models: a first
# level whose fine-grained and average-mode walks disagree is "not determined" with both readings
# (tests/models/tlb_disagree.json), never a figure with a warning; the second level's entries,
# coverage, sets and ways exact or not determined on models with a fully associative second
# level (tlb_second_fa), equal sets (tlb_second_sets), unequal ones (fermi: 17 + 6 x 8),
# entries covering many pages (tlb_coverage), and a second level whose average creeps up before
# its step (tlb_creep with the card's jitter, tlb_creep_sets: 8 sets under a creep), conflicts one
# region at a time past its reach (tlb_va_span: not determined), or sets on a hashed index, which
# the ladder of power-of-two strides reads (hopper, as the H100's and H200's: 256 sets of 8 ways
# of 32 MB; tlb_ladder_1024: 64 sets of 16 ways of 64 MB) unless the policy is no LRU
# (tlb_ladder_plru, tlb_ladder_random: the coverage only).
set -u
GS_E2E_SIM=1   # a sweep over simulator models: the unsanitized simulator build (common.bash)
. "$(dirname "$0")/common.bash"

# disagree: tlb_disagree's first level not determined, with both readings in the reason
disagree() {
  if $B run cache --target tlb -q --device "sim:$SRC/tests/models/tlb_disagree.json" \
       --json "$T/d.json" >/dev/null 2>"$T/err"; then
    $PY - "$T/d.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
doc = json.load(open(sys.argv[1]))
rec = {p["params"]["level"]: p for p in doc["probes"]}
l1 = rec["l1tlb"]
for k in ("entries", "page_bytes", "coverage_bytes", "size_bytes", "miss_penalty_cycles"):
    f = l1["figures"][k]
    assert f["value"] is None, ("l1tlb", k, f)
    assert "fine-grained walks found" in f["reason"] and "average-mode stride walks:" in f["reason"], f
assert not l1.get("warnings"), l1.get("warnings")
print("  tlb_disagree: first level not determined, both readings in the reason")
PYEOF
  else
    echo "FAIL tlb_disagree: exit status"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
  fi
}
# The second level from average-mode walks (odd multiples of the page, then powers of two of the
# coverage), in the default run: entries, coverage, sets and ways exact or not determined, never
# wrong; the figures each model must determine are listed.
tlb_check() {  # SPEC MODE MUST
  local file=$1; case "$1" in */*) ;; *) file="$SRC/models/$1.json";; esac
  local extra=""; [ "$2" = average ] && extra="--structure average"
  if $B run cache --target tlb -q $extra --device "sim:$1" --json "$T/t.json" >/dev/null 2>"$T/err"; then
    $PY - "$T/t.json" "$file" "$3" "$2" <<'PYEOF' || { echo "FAIL tlb $1 $2"; fails=$((fails+1)); }
import json, sys
doc, model = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
must = set(sys.argv[3].split(",")) if sys.argv[3] else set()
rec = {p["params"]["level"]: p["figures"] for p in doc["probes"]}
t1, t2 = model["memory"]["tlbs"][:2]
cover = t2.get("coverage_bytes", t2["page_bytes"])
ways = t2.get("ways_per_set") or [t2.get("ways", t2["entries"])] * t2.get("sets", 1)
truth = {"entries": t2["entries"], "coverage_bytes": cover, "size_bytes": t2["entries"] * cover,
         "miss_penalty_cycles": t2["miss_penalty_cycles"]}
if len(set(ways)) == 1:
    truth.update({"sets": len(ways), "ways": ways[0]})
else:
    truth.update({"sets": len(ways), "ways": None})     # unequal: never one figure
bad, seen = [], []
f = rec["l2tlb"]
for k, want in truth.items():
    got = f.get(k, {}).get("value")
    if got is None:
        if k in must:
            bad.append("l2tlb.%s not determined (%s), want %s" % (k, f.get(k, {}).get("reason"), want))
        continue
    # JSON numbers carry 10 significant digits (src/report): 64 GB reads 68719476740
    tol = 0.05 * want if k == "miss_penalty_cycles" else max(0.5, 1e-9 * want)
    if want is None or abs(got - want) > tol:
        bad.append("l2tlb.%s = %s, want %s" % (k, got, want))
    seen.append(k)
for b in bad:
    print("  " + b)
print("  %s (%s): second level %s determined, %d wrong" % (model["name"], sys.argv[4],
      ", ".join(seen) or "nothing", len(bad)))
sys.exit(1 if bad else 0)
PYEOF
  else
    echo "FAIL tlb $1 $2: exit status"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
  fi
}
# hopper_ladder: hopper's L2 TLB in average mode, and the ladder's evidence in its record
hopper_ladder() {
  tlb_check hopper average $ALL
  $PY - "$T/t.json" <<'PYEOF' || { echo "FAIL hopper: the ladder's evidence"; fails=$((fails+1)); }
import json, sys
p = {p["params"]["level"]: p for p in json.load(open(sys.argv[1]))["probes"]}["l2tlb"]
rise = p["series"]["ladder_rise_by_stride"]["y"]
assert len(rise) == 3 and abs(rise[1] - 2 * rise[0]) < 2 and rise[2] < rise[1] / 2, rise
st = p["series"]["ladder_staircase"]
pred = p["series"]["ladder_staircase_predicted"]["y"]
assert len(st["x"]) >= 4 and all(abs(a - b) < 1 for a, b in zip(st["y"], pred)), (st, pred)
assert "ladder" in p["figures"]["entries"]["method"], p["figures"]["entries"]
print("  hopper: the ladder's rises (%s) and staircase (%d walks) recorded" %
      (", ".join("%.1f" % r for r in rise), len(st["x"])))
PYEOF
}
# ladder_random: random replacement leaves the ladder's figures not determined, saying why
ladder_random() {
  tlb_check "$M/tlb_ladder_random.json" average coverage_bytes
  $PY - "$T/t.json" <<'PYEOF' || { echo "FAIL tlb_ladder_random: reasons"; fails=$((fails+1)); }
import json, sys
f = {p["params"]["level"]: p["figures"] for p in json.load(open(sys.argv[1]))["probes"]}["l2tlb"]
for k in ("entries", "sets", "ways", "miss_penalty_cycles"):
    r = f[k].get("reason", "")
    assert f[k]["value"] is None and "ladder" in r and "would decide" in r, (k, f[k])
print("  tlb_ladder_random: not determined, the reason names the staircase and what would decide")
PYEOF
}
# a first level whose miss hides in the trace's jitter (the H100's: 10 cycles in a 15-cycle band):
# the fine-grained walk is blind, and the stride walks stand alone, exact, with a warning saying so;
# the page is never a figure (an entry covers 16 pages)
blind() {
  if $B run cache --target tlb -q --device "sim:$M/tlb_blind.json" --json "$T/b.json" >/dev/null 2>"$T/err"; then
    $PY - "$T/b.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
doc = json.load(open(sys.argv[1]))
rec = {p["params"]["level"]: p for p in doc["probes"]}
l1, l2 = rec["l1tlb"], rec["l2tlb"]
want = {"entries": 16, "coverage_bytes": 16777216, "size_bytes": 16 * 16777216}
for k, v in want.items():
    assert l1["figures"][k]["value"] == v, ("l1tlb", k, l1["figures"][k])
assert abs(l1["figures"]["miss_penalty_cycles"]["value"] - 10) <= 1.5, l1["figures"]["miss_penalty_cycles"]
assert any("cannot see this level" in w for w in l1.get("warnings", [])), l1.get("warnings")
for r in (l1, l2):
    assert r["figures"]["page_bytes"]["value"] is None, r["figures"]["page_bytes"]
assert l2["figures"]["entries"]["value"] == 2048, l2["figures"]["entries"]
assert l2["figures"]["coverage_bytes"]["value"] == 33554432, l2["figures"]["coverage_bytes"]
print("  tlb_blind: first level from stride walks alone (16 x 16 MB), second 2048 x 32 MB")
PYEOF
  else
    echo "FAIL tlb_blind: exit status"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
  fi
}
# far L2 lines a few hundred bytes apart (the card's 2 MB alias spreads a fine-grained walk's lines
# over both partitions): the fine-grained walk reads them as a small level, which is no TLB; the
# stride walks, over the same physical words as their base walks, stand alone and exact
far_lines() {
  if $B run cache --target tlb -q --device "sim:$M/tlb_far_lines.json" --json "$T/f.json" >/dev/null 2>"$T/err"; then
    $PY - "$T/f.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
doc = json.load(open(sys.argv[1]))
rec = {p["params"]["level"]: p for p in doc["probes"]}
l1 = rec["l1tlb"]
assert l1["figures"]["entries"]["value"] == 16, l1["figures"]["entries"]
assert l1["figures"]["coverage_bytes"]["value"] == 16777216, l1["figures"]["coverage_bytes"]
assert abs(l1["figures"]["miss_penalty_cycles"]["value"] - 10) <= 1.5, l1["figures"]["miss_penalty_cycles"]
assert any("fine-grained walk" in w for w in l1.get("warnings", [])), l1.get("warnings")
assert rec["l2tlb"]["figures"]["entries"]["value"] == 2048, rec["l2tlb"]["figures"]["entries"]
print("  tlb_far_lines: the fine-grained walk's far lines are no TLB; stride walks exact")
PYEOF
  else
    echo "FAIL tlb_far_lines: exit status"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
  fi
}
M=$SRC/tests/models
par tlb_check "$M/tlb_second_fa.json" average entries,coverage_bytes,size_bytes,sets,ways,miss_penalty_cycles
par tlb_check "$M/tlb_second_sets.json" average entries,coverage_bytes,size_bytes,sets,ways,miss_penalty_cycles
# hopper: 256 sets of 8 ways on an XOR of address bits, as the cards' staircases read:
# the odd multiples spread unevenly over a hashed index and read no one count; the ladder reads
# every figure (the policy aside)
ALL=entries,coverage_bytes,size_bytes,sets,ways,miss_penalty_cycles
par hopper_ladder
par tlb_check hopper default $ALL
# the ladder on another hashed level (1024 entries of 64 MB, 64 sets of 16 ways, miss 150), and
# on hopper's under tree-PLRU (8.6 misses per added entry, close to LRU's 9) and random
# replacement: their staircases are no LRU's, so only the coverage stands
par tlb_check "$M/tlb_ladder_1024.json" average $ALL
par tlb_check "$M/tlb_ladder_1024.json" default $ALL
par tlb_check "$M/tlb_ladder_plru.json" average coverage_bytes
par ladder_random
par tlb_check fermi average entries,coverage_bytes,size_bytes
par tlb_check "$M/tlb_coverage.json" average ""
par tlb_check "$M/tlb_creep.json" average entries,coverage_bytes,size_bytes,sets,ways,miss_penalty_cycles
par tlb_check "$M/tlb_creep_sets.json" average entries,coverage_bytes,size_bytes,sets,ways,miss_penalty_cycles
# conflicts that grow one region at a time past a 64 GB span (the cards' counts under the old
# rule): nothing need be determined, nothing may be wrong
par tlb_check "$M/tlb_va_span.json" average ""
for spec in "$M/tlb_second_fa.json" "$M/tlb_second_sets.json" fermi "$M/tlb_coverage.json" \
            "$M/tlb_creep.json"; do
  par tlb_check "$spec" default entries
done
par disagree
par blind
par far_lines
# a level the fine-grained walk does not find: the average-mode record stands alone
par tlb_check "$M/tlb_large_second.json" default entries,coverage_bytes,size_bytes,sets,ways,miss_penalty_cycles
par_wait
[ $fails -eq 0 ] && echo "tlb_levels: ok" || echo "tlb_levels: $fails failures"
exit $((fails > 0))
