#!/usr/bin/env bash
# Checks that each issue kernel (src/cuda/issue.cu) runs the instruction it claims and nothing else
# in its timed loop: builds the kernels to a cubin, dumps the SASS with cuobjdump, finds each
# kernel's innermost timed loop (the backward branch whose body holds the most instructions of the
# claimed kind) and checks that the body holds exactly a multiple of the instructions per trip of
# the claimed opcode, plus at most a few loop-control instructions (counter add, compare, branch).
# Roofline paper, section III: "the loop holds only the instruction under test".
#
# usage: scripts/check_sass.sh [ARCH ...]        (default: 90; needs nvcc and cuobjdump)
#        scripts/check_sass.sh --sass FILE       (check a saved `cuobjdump -sass` dump; python3 only)
# Exit 0 when every kernel passes, 1 when one fails, 77 when the tools are missing.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${PYTHON:-$(command -v python3)}
if [[ ${1:-} == --sass ]]; then
    dumps=("${2:?--sass needs a file}")
fi
check() { # SASS_FILE
    "$PYTHON" - "$1" <<'EOF'
import os, re, sys
# kernel name -> (regex of the claimed opcode, instructions per trip, companion opcodes allowed
# one for one with the claimed one). Per-trip counts match TRIP_* in src/cuda/issue.cu.
CLAIMS = {
    "fadd": (r"FADD$", 256, []),
    "ffma": (r"FFMA$", 256, []),
    "iadd": (r"IADD3$", 256, []),                      # each is x + c + c (two PTX adds)
    "imul": (r"IMAD$", 256, []),
    "dfma": (r"DFMA$", 256, []),
    "sfu_sin": (r"MUFU\.SIN$", 128, [r"FMUL\.RZ$"]),   # PTX sin.approx = scale by 1/2pi + MUFU.SIN
    "sfu_rsqrt": (r"MUFU\.RSQ$", 256, []),
    "hfma2": (r"HFMA2(\.MMA)?$", 256, []),
    "mma": (r"HMMA\.16816\.F16$", 128, []),
    "sw_sin": (None, 8, []),                           # software sinf: checked for no MUFU
    # The instruction table's classes (pipeline --table). A pair's second opcode is its companion.
    "lop3": (r"LOP3\.LUT$", 256, []),
    "shf": (r"SHF\.L\.W(\.U32)?(\.HI)?$", 256, []),
    "popc": (r"POPC$", 256, []),
    "flo": (r"FLO\.U32$", 256, []),
    "brev": (r"BREV$", 256, []),
    "prmt": (r"PRMT$", 256, []),
    "fmul": (r"FMUL$", 256, []),
    "fmnmx": (r"FMNMX$", 256, []),
    "sfu_cos": (r"MUFU\.COS$", 128, [r"FMUL\.RZ$"]),
    "sfu_ex2": (r"MUFU\.EX2$", 256, []),
    "sfu_lg2": (r"MUFU\.LG2$", 256, []),
    "sfu_rcp": (r"MUFU\.RCP$", 256, []),
    "sfu_sqrt": (r"MUFU\.SQRT$", 256, []),
    "dadd": (r"DADD$", 256, []),
    "dmul": (r"DMUL$", 256, []),
    "hadd2": (r"(HADD2|HFMA2\.MMA)$", 256, []),        # ptxas puts half as a*1+b on the MMA pipe
    "f2f_f64": (r"F2F\.F32\.F64$", 128, [r"F2F\.F64\.F32$"]),
    "f2f_f16": (r"F2FP\.F16\.F32\.PACK_AB$", 128, [r"HADD2\.F32$"]),
    "f2i_i2f": (r"F2I\.TRUNC\.NTZ$", 128, [r"I2FP?\.F32\.S32$"]),
    "shfl": (r"SHFL\.IDX$", 256, []),
    "vote": (r"VOTE\.ANY$", 128, [r"ISETP\.NE\.U32\.AND$"]),
    "match": (r"MATCH\.ANY$", 256, []),
    "redux": (r"REDUX\.SUM(\.S32)?$", 256, [r"(MOV|IMAD\.U32)$"]),  # REDUX writes a uniform register
    "lds": (r"LDS(\.U?32)?$", 256, []),
    "sts": (r"STS(\.U?32)?$", 256, []),
    "ldg": (r"LDG\.E\.64(\.\w+)*$", 256, []),
    "stg": (r"STG\.E(\.U?32)?(\.\w+)*$", 256, []),
    "ldsm": (r"LDSM\.16\.M88(\.1)?$", 256, []),
    "atoms": (r"ATOMS\.ADD$", 256, []),
    "dpx_max3": (r"VIMNMX3(\.\w+)*$", 256, []),
    "dpx_addmax": (r"VIADDMNMX(\.\w+)*$", 256, []),
}
# (One companion more than the pairs is the loop's own compare when it has the companion's form,
# the ISETP of the vote kernels.)
# Companions that ptxas may leave out (REDUX's move from the uniform register, when it writes the
# vector register at once): none, or one for one.
OPTIONAL_COMPANIONS = {"redux"}
# Kernels whose claimed instruction takes three register sources: each loop must hold ILP
# independent dependency chains (whatever registers ptxas gives each step of a chain) and no
# instruction may read two distinct registers of one register bank (register number mod 2 on
# Volta and later) unless one comes from the operand reuse cache (.reuse): such a read costs an
# issue cycle (at most one such instruction in 64 passes). The hfma2 kernel of ILP 2 once read its chain R0 and its operand R2 from one bank
# in every other instruction, with no reuse, and issued at 2/3 the rate of ILP 1 and 4.
BANKS = {"hfma2", "ffma"}
# Single-opcode classes whose claimed instruction writes the chain's register: each loop must
# hold ILP dependency chains of it (a pair's chain runs through its companion: not counted here).
CHAINS = BANKS | {"lop3", "shf", "popc", "flo", "brev", "prmt", "fmul", "fmnmx", "sfu_ex2",
                  "sfu_lg2", "sfu_rcp", "sfu_sqrt", "dadd", "dmul", "hadd2", "shfl", "match",
                  "lds", "ldg", "ldsm", "atoms", "dpx_max3", "dpx_addmax"}
# Loop control: the trip counter's add, compare and branch. NOP is scheduling padding that ptxas
# puts between dependent instructions (the mma chain); it issues nothing to a unit, and is counted
# apart. Anything else in the loop is foreign and fails the kernel.
CONTROL = re.compile(r"^(IADD3|VIADD|UIADD3|ISETP\.\S+|UISETP\.\S+|BRA)$")
text = open(sys.argv[1]).read()
ARCH = int(os.environ.get("SASS_ARCH", "90"))
funcs = re.split(r"\n\s*Function : ", text)[1:]
line_re = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_.]+)([^;]*);")
bad = 0
seen = 0
for f in funcs:
    name = f.split("\n", 1)[0].strip()
    m = re.match(r"gs_issue_(\w+)_(\d)$", name)
    if m and ((ARCH < 90 and m.group(1).startswith("dpx_")) or
              (ARCH < 80 and m.group(1) == "redux")):
        seen += 1   # emulated (DPX below sm_90) or empty (redux below sm_80): the host refuses them
        continue
    if not m:
        continue
    kind, ilp = m.group(1), int(m.group(2))
    seen += 1
    # An instruction of the claimed opcode whose sources are all RZ and immediates is ptxas
    # materialising a constant (HFMA2.MMA R8, -RZ, RZ, 0, 0 zeroes a loop counter): a move, not the
    # instruction under test; it is renamed MOV so that it counts as neither.
    ins = [(int(a, 16), "MOV" if re.fullmatch(r"\s*R\d+,\s*-?RZ,\s*-?RZ(,\s*-?[0-9.]+)*\s*", args)
            else op, args) for a, _, op, args in line_re.findall(f)]
    claim, per_trip, companions = CLAIMS[kind]
    if claim is None:
        mufu = [op for _, op, _ in ins if op.startswith("MUFU")]
        ffma = sum(op.startswith("FFMA") for _, op, _ in ins)
        ok = not mufu and ffma >= per_trip
        print(f"{'ok  ' if ok else 'FAIL'} {name}: software sinf, {ffma} FFMA, MUFU: {mufu or 'none'}")
        bad += not ok
        continue
    best = None
    for i, (addr, op, args) in enumerate(ins):
        if op != "BRA":
            continue
        t = re.search(r"0x([0-9a-f]+)", args)
        if not t or int(t.group(1), 16) >= addr:
            continue
        body = [(o, g) for a, o, g in ins if int(t.group(1), 16) <= a <= addr]
        n = sum(bool(re.match(claim, o)) for o, _ in body)
        if best is None or n > best[0]:
            best = (n, body)
    if best is None:
        print(f"FAIL {name}: no loop found"); bad += 1; continue
    n, body_args = best
    body = [o for o, _ in body_args]
    chain_note, chain_ok = "", True
    if kind in CHAINS:
        regs = [re.findall(r"\bR(\d+)((?:\.\w+)*)", g) for o, g in body_args if re.match(claim, o)]
        regs = [r for r in regs if r]
        conflicts = 0
        for r in regs:
            srcs = {x for x, suffix in r[1:] if "reuse" not in suffix}
            banks = [int(x) % 2 for x in srcs]
            conflicts += len(banks) - len(set(banks))
        # The chains are the dependency chains of the loop (ptxas may rename a chain's register
        # from one instruction to the next): an instruction joins the chain of every register it
        # reads that the loop writes, over two passes so the loop-carried reads count too.
        parent = list(range(len(regs)))
        def find(i):
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i
        writer = {}
        for _ in range(2):
            for i, r in enumerate(regs):
                for x, _suffix in r[1:]:
                    if x in writer:
                        parent[find(i)] = find(writer[x])
                writer[r[0][0]] = i
        chains = len({find(i) for i in range(len(regs))})
        # The stream's balance. At ILP 2 and more no instruction may follow one of its own chain
        # (back to back it waits the whole latency, where another chain's could issue); and
        # where ptxas splits the type over two pipes (HFMA2 on the FMA pipe, HFMA2.MMA on the
        # MMA pipe) each pipe takes half of the loop's instructions (within 1 in 16). The hfma2
        # kernel of ILP 2 once ran one chain on each pipe, the FMA one two-to-one ahead and back
        # to back, then the last 64 of the MMA chain back to back: 6 % under ILP 1 and 4.
        ops = [o for o, g in body_args if re.match(claim, o) and re.findall(r"\bR(\d+)", g)]
        chain_of = [find(i) for i in range(len(regs))]
        back_to_back = sum(chain_of[i] == chain_of[i - 1] for i in range(1, len(chain_of)))
        mma = sum(o.endswith(".MMA") for o in ops)
        split_ok = mma == 0 or 16 * abs(2 * mma - len(ops)) <= len(ops)
        # one conflict in 64 instructions passes (a chain's first read, before the reuse cache
        # holds the operand)
        chain_ok = (chains == ilp and (kind not in BANKS or 64 * conflicts <= n) and split_ok and
                    (ilp == 1 or back_to_back == 0))
        chain_note = (f", dependency chains {chains} (ILP {ilp}), "
                      f"register bank conflicts {conflicts}, back to back {back_to_back}, "
                      f"MMA pipe {mma} of {len(ops)}")
    comp = [o for o in body if any(re.match(c, o) for c in companions)]
    other = [o for o in body if not re.match(claim, o) and o not in comp and o != "NOP"]
    nops = sum(o == "NOP" for o in body)
    control = [o for o in other if CONTROL.match(o)]
    foreign = [o for o in other if not CONTROL.match(o)]
    # the loop counter may use the claimed opcode itself (IADD3 in the iadd kernel)
    trips = max(1, round(n / per_trip))
    extra = n - trips * per_trip
    ok = (0 <= extra <= 1 and not foreign and len(control) + extra <= 4 * trips and
          (not companions or trips * per_trip <= len(comp) <= trips * per_trip + 1 or
           (kind in OPTIONAL_COMPANIONS and not comp)) and chain_ok)
    print(f"{'ok  ' if ok else 'FAIL'} {name}: {n} x {claim.rstrip('$')} in a loop of {len(body)} "
          f"({trips} trip(s) of {per_trip}), companions {len(comp)}, NOP {nops}, control {control}, "
          f"foreign {sorted(set(foreign))[:8]}{chain_note}")
    bad += not ok
expected = int(os.environ.get("EXPECT_KERNELS", "123"))
if seen != expected:
    print(f"FAIL: found {seen} issue kernels, expected {expected}"); bad += 1
sys.exit(1 if bad else 0)
EOF
}
if [[ ${dumps+x} ]]; then
    check "${dumps[0]}"
    exit $?
fi
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUOBJDUMP=${CUOBJDUMP:-$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)}
if [[ ! -x $NVCC || ! -x $CUOBJDUMP ]]; then
    echo "check_sass: nvcc or cuobjdump not found (NVCC=$NVCC CUOBJDUMP=$CUOBJDUMP); skipped" >&2
    exit 77
fi
archs=("$@")
[[ ${#archs[@]} -gt 0 ]] || archs=(90)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for arch in "${archs[@]}"; do
    "$NVCC" -arch="sm_$arch" -cubin -I"$here/src" -o "$tmp/issue_$arch.cubin" "$here/src/cuda/issue.cu"
    "$CUOBJDUMP" -sass "$tmp/issue_$arch.cubin" > "$tmp/issue_$arch.sass"
    [[ -n ${SASS_KEEP:-} ]] && cp "$tmp/issue_$arch.sass" "$SASS_KEEP.sm_$arch.sass"
    echo "== sm_$arch"
    SASS_ARCH=$arch check "$tmp/issue_$arch.sass" || status=1
done
exit $status
