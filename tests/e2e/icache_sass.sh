#!/usr/bin/env bash
# Test of scripts/check_sass.sh's rules for the icache probe's kernels (src/cuda/icache.cu): on a
# synthetic sm_90 dump of ic_kernel<256>, <512> and <768> (tests/e2e/icache_sass_dump.py, laid out
# as ptxas lays out the kernels) each timed loop holds its block whole and passes, also with half
# the adds as IMAD.IADD (ptxas moves adds to the FMA pipe so); a dump missing sizes of icache.cu
# fails naming them; the pass loop unrolled twice (twice the block's bytes), the block peeled out
# of the repetition loop (the warm-up pass running other code), adds folded in pairs into
# three-source IADD3, and a foreign instruction (a spill) in the loop each fail, naming the kernel.
# Where nvcc and cuobjdump exist, the live kernels are checked by scripts/check_sass.sh 90 (in
# tests/e2e/pipeline_sass.sh).
set -u
SRC=${GS_SOURCE_DIR:?set GS_SOURCE_DIR to the source tree}
CHECK="$SRC/scripts/check_sass.sh"
DUMP="$SRC/tests/e2e/icache_sass_dump.py"
PY=${PYTHON:-python3}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
export EXPECT_ICACHE="256 512 768"

# expect NAME WANT(pass|fail) GREP-PATTERN: run the check on $T/NAME.sass, want its verdict and a
# line matching the pattern.
expect() {
  bash "$CHECK" --sass "$T/$1.sass" > "$T/$1.out" 2>&1
  local rc=$?
  if { [ "$2" = pass ] && [ $rc -ne 0 ]; } || { [ "$2" = fail ] && [ $rc -ne 1 ]; } ||
     ! grep -Eq "$3" "$T/$1.out"; then
    echo "FAIL $1: wanted $2 with /$3/, exit status $rc:"; sed 's/^/  /' "$T/$1.out"
    fails=$((fails+1))
  fi
}

$PY "$DUMP" 256 512 768 > "$T/good.sass"
expect good pass "^ok   ic_kernel<512> \(8 KB\): 512 adds in a loop of 515 \(8240 bytes, block 8192\), folded 0"
grep -c "^ok   ic_kernel" "$T/good.out" | grep -qx 3 || { echo "FAIL good: not three kernels passed"; fails=$((fails+1)); }

awk '/IADD3 R[0-9]+, R[0-9]+, R[0-9]+, RZ ;/ && (n++ % 2) {
       match($0, /IADD3 R[0-9]+, R[0-9]+, R[0-9]+, RZ/); s = substr($0, RSTART, RLENGTH)
       split(s, r, /[ ,]+/); sub(s, "IMAD.IADD " r[2] ", " r[3] ", 0x1, " r[4])
     } {print}' "$T/good.sass" > "$T/imad.sass"
expect imad pass "^ok   ic_kernel<256> \(4 KB\): 256 adds"
grep -q "IMAD.IADD" "$T/imad.sass" || { echo "FAIL imad: no IMAD.IADD written"; fails=$((fails+1)); }

cp "$T/good.sass" "$T/allsizes.sass"
EXPECT_ICACHE= expect allsizes fail "^FAIL: icache kernels missing: \[1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384\]"

$PY "$DUMP" --unroll 2 256 512 768 > "$T/unrolled.sass"
expect unrolled fail "^FAIL ic_kernel<256> \(4 KB\): 512 adds in a loop of 515 \(8240 bytes"

$PY "$DUMP" --peel 256 512 768 > "$T/peeled.sass"
expect peeled fail "^FAIL ic_kernel<768> \(12 KB\): 768 adds .*adds outside the loop 768"

$PY "$DUMP" --fold 256 512 768 > "$T/folded.sass"
expect folded fail "^FAIL ic_kernel<256> \(4 KB\): 0 adds .*folded 128"

awk '/Function :/ {f = /ILi512E/} f && /IADD3 R[0-9]+, R[0-9]+, R[0-9]+, RZ ;/ && ++n == 100 {
       sub(/IADD3 R[0-9]+, R[0-9]+, R[0-9]+, RZ/, "LDL R3, [R1+0x4]")
     } {print}' "$T/good.sass" > "$T/spill.sass"
expect spill fail "^FAIL ic_kernel<512> \(8 KB\): 511 adds .*foreign \['LDL'\]"

if [ "$fails" -ne 0 ]; then
  echo "icache_sass: $fails failed"
  exit 1
fi
echo "icache_sass: the icache kernels' SASS rules pass whole blocks and refuse doctored ones"
