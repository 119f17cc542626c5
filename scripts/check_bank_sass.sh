#!/usr/bin/env bash
# Checks that each bank kernel (src/cuda/bank.cu, one per access width) times nothing but its
# loads: builds the kernels to a cubin, dumps the SASS with cuobjdump, finds the three clock reads
# (CS2R ... SR_CLOCKLO) of the repetition loop and checks that the first region holds exactly 32
# shared loads of the kernel's width and one STS (the drain), and the second 64 loads and one STS.
# Memory-hierarchy paper, Listing 1: the timed region holds only the stride accesses.
#
# usage: scripts/check_bank_sass.sh [ARCH]        (default 90; needs nvcc and cuobjdump)
# Exit 0 when every kernel passes, 1 when one fails, 77 when the tools are missing.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUOBJDUMP=${CUOBJDUMP:-$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)}
PYTHON=${PYTHON:-$(command -v python3)}
if [[ ! -x $NVCC || ! -x $CUOBJDUMP ]]; then
    echo "check_bank_sass: nvcc or cuobjdump not found; skipped" >&2
    exit 77
fi
arch=${1:-90}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$NVCC" -arch="sm_$arch" -cubin -I"$here/src" -o "$tmp/bank.cubin" "$here/src/cuda/bank.cu"
"$CUOBJDUMP" -sass "$tmp/bank.cubin" > "$tmp/bank.sass"
[[ -n ${SASS_KEEP:-} ]] && cp "$tmp/bank.sass" "$SASS_KEEP"
"$PYTHON" - "$tmp/bank.sass" <<'PYEOF'
import re, sys
want = {"2": r"LDS\.U16$", "4": r"LDS(\.32)?$", "8": r"LDS\.64$", "16": r"LDS\.128$"}
funcs, cur = {}, None
for line in open(sys.argv[1]):
    m = re.search(r"Function : (\S+)", line)
    if m:
        cur = m.group(1); funcs[cur] = []; continue
    m = re.search(r"/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_.]+)(.*?);", line)
    if cur and m:
        funcs[cur].append((m.group(2), m.group(3)))
status = 0
for name, ins in sorted(funcs.items()):
    m = re.search(r"bank_kernelILi(\d+)E", name)
    if not m:
        continue
    w = m.group(1)
    clocks = [i for i, (op, args) in enumerate(ins) if op.startswith("CS2R") and "SR_CLOCKLO" in args]
    if len(clocks) < 3:
        print("FAIL width %s: %d clock reads" % (w, len(clocks))); status = 1; continue
    for (a, b), loads in zip(zip(clocks, clocks[1:3]), (32, 64)):
        body = [op for op, _ in ins[a + 1:b]]
        lds = sum(1 for op in body if re.match(want[w], op))
        sts = sum(1 for op in body if op.startswith("STS"))
        other = [op for op in body if not re.match(want[w], op) and not op.startswith("STS")]
        ok = lds == loads and sts == 1 and not other
        print("%s width %2s B: region of %d loads: %d %s, %d STS, other: %s" %
              ("ok  " if ok else "FAIL", w, loads, lds, want[w].split("$")[0].replace("\\", ""),
               sts, ", ".join(other) or "none"))
        status |= not ok
sys.exit(status)
PYEOF
