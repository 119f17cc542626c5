#!/usr/bin/env bash
# Test of scripts/check_sass.sh, the check that each issue kernel's timed loop holds only the
# instruction it claims: a saved H100 (sm_90) dump of the current kernels passes; a dump of an early
# version fails where it was wrong (ptxas fused add pairs into half as many IADD3, the mma loop held
# register moves and a WARPSYNC, a division left a MUFU.RCP in the software-sinf kernel); a good dump
# with one foreign instruction planted in the FFMA loop fails; the hfma2 loops must hold ILP
# independent chains with no register bank conflict (tests/fixtures/issue_sm90_hfma2_*.sass: the
# ILP-2 loop before its fix fails), and a loop with an instruction right after one of its own chain
# at ILP 2 and more, or not half of them on each pipe where ptxas splits them, is named SCHED
# (failing only with SCHEDULE=strict); the instruction table's popc loops
# (a fixture written from the PTX) pass, and fail folded or crossed. Where nvcc and cuobjdump exist,
# the live kernels are checked too.
set -u
SRC=${GS_SOURCE_DIR:?set GS_SOURCE_DIR to the source tree}
CHECK="$SRC/scripts/check_sass.sh"
FIX="$SRC/tests/fixtures"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0

EXPECT_KERNELS=5 bash "$CHECK" --sass "$FIX/issue_sm90_good.sass" > "$T/good" 2>&1 ||
  { echo "FAIL: the good dump does not pass:"; cat "$T/good"; fails=$((fails+1)); }

EXPECT_KERNELS=3 bash "$CHECK" --sass "$FIX/issue_sm90_bad.sass" > "$T/bad" 2>&1 &&
  { echo "FAIL: the early version's dump passes"; fails=$((fails+1)); }
for k in gs_issue_iadd_1 gs_issue_mma_4 gs_issue_sw_sin_1; do
  grep -q "^FAIL $k" "$T/bad" || { echo "FAIL: $k of the early version not flagged"; fails=$((fails+1)); }
done

# Plant an FMUL in the FFMA loop (right after its first FFMA).
awk '/Function : gs_issue_ffma_1/ {f=1} f && /FFMA/ && !done {print; print "        /*0fff*/                   FMUL R9, R9, R0 ;"; done=1; next} {print}' \
  "$FIX/issue_sm90_good.sass" > "$T/planted.sass"
EXPECT_KERNELS=5 bash "$CHECK" --sass "$T/planted.sass" > "$T/planted" 2>&1 &&
  { echo "FAIL: a planted FMUL passes"; fails=$((fails+1)); }
grep -q "^FAIL gs_issue_ffma_1.*FMUL" "$T/planted" ||
  { echo "FAIL: the planted FMUL is not named"; cat "$T/planted"; fails=$((fails+1)); }

# The hfma2 loops: before, ILP 2's chain and its operand shared a register bank in every other
# instruction (lambda 0.38 against 0.27 and 0.26 at ILP 1 and 4 on an H200); now each chain reads
# only its own register. Each variant must hold ILP chains and no bank conflict.
EXPECT_KERNELS=3 bash "$CHECK" --sass "$FIX/issue_sm90_hfma2_before.sass" > "$T/hb" 2>&1 &&
  { echo "FAIL: the hfma2 loops with bank conflicts pass"; fails=$((fails+1)); }
grep -q "^FAIL gs_issue_hfma2_2: .*register bank conflicts 128" "$T/hb" ||
  { echo "FAIL: the ILP-2 bank conflicts are not named"; cat "$T/hb"; fails=$((fails+1)); }
# After it: no conflict, but ILP 2's loop ran one chain on each pipe, the FMA one two-to-one ahead
# with its pairs back to back, then 64 of the MMA chain back to back (6 % under ILP 1 and 4 on an
# H200): named SCHED for its 127 back-to-back pairs (the compiler's order, which no source form
# changes: refused with SCHEDULE=strict, the check passes without); ILP 1 and 4 pass. The same
# loops with ILP 2 alternating between its chains (issue_sm90_hfma2_balanced.sass) pass.
EXPECT_KERNELS=3 SCHEDULE=strict bash "$CHECK" --sass "$FIX/issue_sm90_hfma2_after.sass" \
  > "$T/ha" 2>&1 && { echo "FAIL: the unbalanced ILP-2 hfma2 loop passes"; fails=$((fails+1)); }
grep -q "^SCHED gs_issue_hfma2_2: .*register bank conflicts 0, back to back 127, MMA pipe 128 of 256" \
  "$T/ha" || { echo "FAIL: the ILP-2 back-to-back pairs are not named"; cat "$T/ha"; fails=$((fails+1)); }
EXPECT_KERNELS=3 bash "$CHECK" --sass "$FIX/issue_sm90_hfma2_after.sass" > "$T/ha2" 2>&1 ||
  { echo "FAIL: a loop whose only fault is its schedule fails without SCHEDULE=strict"
    cat "$T/ha2"; fails=$((fails+1)); }
for k in 1 4; do
  grep -q "^ok   gs_issue_hfma2_$k: 256 x .*dependency chains $k (ILP $k), register bank conflicts 0" \
    "$T/ha" ||
    { echo "FAIL: hfma2 ILP $k: not $k chains of 256 HFMA2 without conflicts"; fails=$((fails+1)); }
done
EXPECT_KERNELS=3 bash "$CHECK" --sass "$FIX/issue_sm90_hfma2_balanced.sass" > "$T/hb2" 2>&1 ||
  { echo "FAIL: the balanced hfma2 loops do not pass:"; cat "$T/hb2"; fails=$((fails+1)); }
grep -q "^ok   gs_issue_hfma2_2: .*dependency chains 2 (ILP 2), register bank conflicts 0, back to back 0, MMA pipe 128 of 256" \
  "$T/hb2" || { echo "FAIL: the balanced ILP-2 loop is not passed as balanced"; fails=$((fails+1)); }
# Half the instructions on each pipe: a loop with all of them on the MMA pipe is flagged SCHED.
sed '/gs_issue_hfma2_2/,/gs_issue_hfma2_4/s/HFMA2 R3, R3, R3, R3/HFMA2.MMA R3, R3, R3, R3/' \
  "$FIX/issue_sm90_hfma2_balanced.sass" > "$T/onepipe.sass"
EXPECT_KERNELS=3 SCHEDULE=strict bash "$CHECK" --sass "$T/onepipe.sass" 2>&1 |
  grep -q "^SCHED gs_issue_hfma2_2: .*back to back 0, MMA pipe 256 of 256" ||
  { echo "FAIL: a loop on one pipe is not flagged"; fails=$((fails+1)); }
# A chain that reads another's register is no independent chain: ILP 2 then holds one chain.
sed 's/HFMA2 R3, R3, R3, R3/HFMA2 R3, R3, R0, R3/' "$FIX/issue_sm90_hfma2_balanced.sass" > "$T/crossed.sass"
EXPECT_KERNELS=3 bash "$CHECK" --sass "$T/crossed.sass" 2>&1 |
  grep -q "^FAIL gs_issue_hfma2_2: .*dependency chains 1 (ILP 2)" ||
  { echo "FAIL: a read across chains is not flagged"; fails=$((fails+1)); }

# The instruction table's popc kernels (tests/fixtures/issue_sm90_popc.sass, written from the
# PTX): 256 POPC per trip in ILP chains pass; ptxas folding two steps into one (half the POPC),
# or ILP 2's chains crossing, fails.
EXPECT_KERNELS=3 bash "$CHECK" --sass "$FIX/issue_sm90_popc.sass" > "$T/pp" 2>&1 ||
  { echo "FAIL: the popc loops do not pass:"; cat "$T/pp"; fails=$((fails+1)); }
for k in 1 2 4; do
  grep -q "^ok   gs_issue_popc_$k: 256 x POPC .*dependency chains $k (ILP $k)" "$T/pp" ||
    { echo "FAIL: popc ILP $k: not $k chains of 256 POPC"; fails=$((fails+1)); }
done
awk '/Function : gs_issue_popc_1/ {f=1} /Function : gs_issue_popc_2/ {f=0} f && /POPC/ && (n++ % 2) {next} {print}' \
  "$FIX/issue_sm90_popc.sass" > "$T/folded.sass"
EXPECT_KERNELS=3 bash "$CHECK" --sass "$T/folded.sass" 2>&1 | grep -q "^FAIL gs_issue_popc_1: 128 x POPC" ||
  { echo "FAIL: a popc loop with half its POPC passes"; fails=$((fails+1)); }
sed 's/POPC R3, R3/POPC R3, R0/' "$FIX/issue_sm90_popc.sass" > "$T/pcross.sass"
EXPECT_KERNELS=3 bash "$CHECK" --sass "$T/pcross.sass" 2>&1 |
  grep -q "^FAIL gs_issue_popc_2: .*dependency chains 1 (ILP 2)" ||
  { echo "FAIL: popc chains that cross are not flagged"; fails=$((fails+1)); }

# The hadd2 kernels: ptxas issues half the f16x2 adds as HFMA2.MMA (a * 1 + b on the MMA pipe),
# as it does for hfma2; both are the class's work. Written from the popc fixture: each POPC step
# becomes HADD2 and HFMA2.MMA in turn. All pass; a loop of HADD2 with an HFMA2 (not .MMA) fails.
sed 's/gs_issue_popc_/gs_issue_hadd2_/' "$FIX/issue_sm90_popc.sass" |
  awk '/POPC/ { if (n++ % 2) sub(/POPC R([0-9]+), R([0-9]+)/, "HFMA2.MMA R&"); else sub(/POPC/, "HADD2") } {print}' |
  sed -E 's/HFMA2\.MMA RPOPC R([0-9]+), R([0-9]+)/HFMA2.MMA R\1, R\2, 1, 1, R\2/; s/HADD2 R([0-9]+), R([0-9]+) ;/HADD2 R\1, R\2, R\2 ;/' \
  > "$T/hadd2.sass"
EXPECT_KERNELS=3 bash "$CHECK" --sass "$T/hadd2.sass" > "$T/h2" 2>&1 ||
  { echo "FAIL: the hadd2 loops (HADD2 and HFMA2.MMA) do not pass:"; cat "$T/h2"; fails=$((fails+1)); }
for k in 1 2 4; do
  grep -q "^ok   gs_issue_hadd2_$k: 256 x .*dependency chains $k (ILP $k)" "$T/h2" ||
    { echo "FAIL: hadd2 ILP $k: not $k chains of 256"; fails=$((fails+1)); }
done
sed '0,/HFMA2\.MMA/s/HFMA2\.MMA/HFMA2/' "$T/hadd2.sass" > "$T/hadd2_fma.sass"
EXPECT_KERNELS=3 bash "$CHECK" --sass "$T/hadd2_fma.sass" 2>&1 | grep -q "^FAIL gs_issue_hadd2_1: .*foreign \['HFMA2'\]" ||
  { echo "FAIL: an HFMA2 off the MMA pipe in the hadd2 loop passes"; fails=$((fails+1)); }

if command -v cuobjdump >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/cuobjdump ]; then
  bash "$CHECK" 90 > "$T/live" 2>&1 || { echo "FAIL: live SASS check:"; cat "$T/live"; fails=$((fails+1)); }
else
  echo "live SASS check skipped: no cuobjdump here (the fixtures were checked)"
fi

[ "$fails" -eq 0 ] && echo "pipeline_sass: all passed" || echo "pipeline_sass: $fails failed"
exit $((fails > 0))
