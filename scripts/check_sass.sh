#!/usr/bin/env bash
# Checks that each issue kernel (src/cuda/issue.cu) runs the instruction it claims and nothing else
# in its timed loop: builds the kernels to a cubin, dumps the SASS with cuobjdump, finds each
# kernel's innermost timed loop (the backward branch whose body holds the most instructions of the
# claimed kind) and checks that the body holds exactly a multiple of the instructions per trip of
# the claimed opcode, plus at most a few loop-control instructions (counter add, compare, branch).
# Roofline paper, section III: "the loop holds only the instruction under test".
# It also checks the icache probe's kernels (src/cuda/icache.cu, ic_kernel<INSTR>: a block of
# INSTR straight-line adds of 16 bytes each, looped): each variant's timed loop (the backward
# branch holding the most adds, between two clock reads) must hold exactly INSTR two-register adds
# (none folded into a three-source add, none hoisted or peeled out of the loop: at most a few
# adds of the ring outside it) besides at most 8 loop-control and move instructions, so the
# loop's bytes are INSTR x 16 plus at most 128; the function's bytes must lie within 2 KB above
# INSTR x 16; and every size of icache.cu must be there.
#
# usage: scripts/check_sass.sh [ARCH ...]        (default: 90; needs nvcc and cuobjdump)
#        scripts/check_sass.sh --sass FILE       (check a saved `cuobjdump -sass` dump, python3
#                                                 only: its issue kernels, icache kernels or both)
# Environment for --sass: EXPECT_KERNELS (issue kernels, default 123), EXPECT_ICACHE (the icache
# variants' INSTR counts, default every size of src/cuda/icache.cu).
# A loop that holds what it claims in an order that costs issue slots (an instruction right after
# one of its own chain at ILP 2 and more, or two pipes not taking half each) is printed SCHED and
# fails only with SCHEDULE=strict: its figure measures the compiler's schedule.
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
    chain_note, chain_ok, sched_ok = "", True, True
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
        chain_ok = chains == ilp and (kind not in BANKS or 64 * conflicts <= n)
        sched_ok = split_ok and (ilp == 1 or back_to_back == 0)
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
    # A loop that holds what it claims but in ptxas's poor order (the ILP-2 hfma2 and hadd2 loops
    # of CUDA 13.0 for sm_90, whatever the source order) is SCHED: its figure measures that
    # schedule, which no source form changes (docs/methods.md, pipeline); it fails the check
    # only with SCHEDULE=strict.
    sched = ok and not sched_ok
    print(f"{'SCHED' if sched else 'ok  ' if ok else 'FAIL'} {name}: {n} x {claim.rstrip('$')} "
          f"in a loop of {len(body)} ({trips} trip(s) of {per_trip}), companions {len(comp)}, "
          f"NOP {nops}, control {control}, foreign {sorted(set(foreign))[:8]}{chain_note}")
    bad += not ok or (sched and os.environ.get("SCHEDULE") == "strict")
expected = int(os.environ.get("EXPECT_KERNELS", "123"))
if seen != expected:
    print(f"FAIL: found {seen} issue kernels, expected {expected}"); bad += 1
sys.exit(1 if bad else 0)
EOF
}
# The icache kernels' rules (the header above); the sizes are src/cuda/icache.cu's `case KB:` rows.
check_icache() { # SASS_FILE
    "$PYTHON" - "$1" "$here/src/cuda/icache.cu" <<'EOF'
import os, re, sys
INSTRUCTION_BYTES = 16            # every instruction since sm_70 (icache.cu, IC_INSTRUCTION_BYTES)
LOOP_EXTRA = 8                    # loop-control and move instructions allowed besides the adds
FUNCTION_EXTRA_BYTES = 2048       # the function beyond its block: set-up, clock reads, stores
OUTSIDE_ADDS = 8                  # adds of the ring allowed outside the timed loop
text = open(sys.argv[1]).read()
source = open(sys.argv[2]).read()
if os.environ.get("EXPECT_ICACHE"):
    expected = sorted(int(x) for x in os.environ["EXPECT_ICACHE"].split())
else:
    expected = sorted(int(kb) * 1024 // INSTRUCTION_BYTES
                      for kb in re.findall(r"case (\d+): return ic_kernel<", source))
line_re = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_.]+)([^;]*);")
ADD = re.compile(r"^(IADD3|IMAD(\.IADD)?)$")
# besides the adds: the trip counter's add, compare and branch, register moves and padding
ALLOWED = re.compile(r"^(IADD3|VIADD|UIADD3|ISETP\.\S+|UISETP\.\S+|BRA|MOV|IMAD\.MOV(\.U32)?|NOP)$")
REG = r"R\d+(?:\.reuse)?"
# an add of the ring, a += b: IADD3 Rd, Ra, Rb, RZ, or IMAD.IADD Rd, Ra, 0x1, Rb (a x 1 + b:
# ptxas puts about half of them on the FMA pipe so); no carry, no negation, no other immediate
RING = re.compile(rf"\s*R\d+, {REG}, ({REG}, RZ|0x1, {REG})\s*")
# IADD3 Rd, Ra, Rb, Rc: two adds of the ring folded into one
FUSED = re.compile(rf"\s*R\d+, {REG}, {REG}, {REG}\s*")
def ring(op, args):
    return bool(ADD.match(op) and RING.fullmatch(args))
def fused(op, args):
    return bool(op == "IADD3" and FUSED.fullmatch(args))
bad, seen = 0, set()
for f in re.split(r"\n\s*Function : ", text)[1:]:
    name = f.split("\n", 1)[0].strip()
    m = re.search(r"ic_kernel(?:ILi(\d+)E|<(\d+)>)", name)
    if not m:
        continue
    instr = int(m.group(1) or m.group(2))
    seen.add(instr)
    ins = [(int(a, 16), op, args) for a, _, op, args in line_re.findall(f)]
    label = f"ic_kernel<{instr}> ({instr * INSTRUCTION_BYTES // 1024} KB)"
    if not ins:
        print(f"FAIL {label}: no instructions"); bad += 1; continue
    best = None                   # (adds, -span, start, end): the most adds, then the innermost
    for addr, op, args in ins:
        t = re.search(r"0x([0-9a-f]+)", args) if op == "BRA" else None
        if not t or int(t.group(1), 16) >= addr:
            continue
        start = int(t.group(1), 16)
        n = sum(ring(o, g) or fused(o, g) for a, o, g in ins if start <= a <= addr)
        key = (n, -(addr - start), start, addr)
        if best is None or key[:2] > best[:2]:
            best = key
    if best is None:
        print(f"FAIL {label}: no loop found"); bad += 1; continue
    _, _, start, end = best
    body = [(o, g) for a, o, g in ins if start <= a <= end]
    outside = [(a, o, g) for a, o, g in ins if not start <= a <= end]
    adds = sum(ring(o, g) for o, g in body)
    folded = sum(fused(o, g) for o, g in body)
    other = [o for o, g in body if not ring(o, g) and not fused(o, g)]
    foreign = sorted({o for o in other if not ALLOWED.match(o)})
    clocks_in = sum("SR_CLOCKLO" in g for o, g in body)
    clock_before = any("SR_CLOCKLO" in g for a, o, g in outside if a < start)
    clock_after = any("SR_CLOCKLO" in g for a, o, g in outside if a > end)
    hoisted = sum(ring(o, g) or fused(o, g) for a, o, g in outside)
    loop_bytes = end + INSTRUCTION_BYTES - start
    function_bytes = ins[-1][0] + INSTRUCTION_BYTES
    block = instr * INSTRUCTION_BYTES
    ok = (adds == instr and folded == 0 and not foreign and len(other) <= LOOP_EXTRA and
          loop_bytes == len(body) * INSTRUCTION_BYTES and
          block <= function_bytes <= block + FUNCTION_EXTRA_BYTES and hoisted <= OUTSIDE_ADDS and
          clocks_in == 0 and clock_before and clock_after)
    print(f"{'ok  ' if ok else 'FAIL'} {label}: {adds} adds in a loop of {len(body)} "
          f"({loop_bytes} bytes, block {block}), folded {folded}, other {len(other)}, "
          f"foreign {foreign[:8]}, adds outside the loop {hoisted}, function {function_bytes} "
          f"bytes, clock reads before/inside/after {int(clock_before)}/{clocks_in}/"
          f"{int(clock_after)}")
    bad += not ok
missing = sorted(set(expected) - seen)
if missing or not expected:
    print(f"FAIL: icache kernels missing: {missing or 'no sizes known'}"); bad += 1
sys.exit(1 if bad else 0)
EOF
}
if [[ ${dumps+x} ]]; then
    [[ -r ${dumps[0]} ]] || { echo "check_sass: cannot read ${dumps[0]}" >&2; exit 2; }
    status=0 any=0
    if grep -q "Function : gs_issue_" "${dumps[0]}"; then
        any=1; check "${dumps[0]}" || status=1
    fi
    if grep -q "Function : .*ic_kernel" "${dumps[0]}"; then
        any=1; check_icache "${dumps[0]}" || status=1
    fi
    [[ $any == 1 ]] || { echo "FAIL: no issue or icache kernel in ${dumps[0]}"; status=1; }
    exit $status
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
    "$NVCC" -arch="sm_$arch" -cubin -I"$here/src" -o "$tmp/icache_$arch.cubin" "$here/src/cuda/icache.cu"
    "$CUOBJDUMP" -sass "$tmp/icache_$arch.cubin" > "$tmp/icache_$arch.sass"
    [[ -n ${SASS_KEEP:-} ]] && cp "$tmp/icache_$arch.sass" "$SASS_KEEP.icache.sm_$arch.sass"
    check_icache "$tmp/icache_$arch.sass" || status=1
done
exit $status
