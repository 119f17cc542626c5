#!/usr/bin/env python3
"""A synthetic `cuobjdump -sass` dump (sm_90 format) of the icache probe's kernels
(src/cuda/icache.cu, ic_kernel<INSTR>) for the test of scripts/check_sass.sh: set-up, the
repetition loop with a clock read on each side of the timed loop, the timed loop of INSTR
two-register IADD3 over R2..R9 in a ring (a0 += a1, ..., a7 += a0) closed by the trip counter's
add, compare and branch, the stores, EXIT and padding to 128 bytes, as ptxas lays it out.

usage: icache_sass_dump.py [--unroll N] [--peel] [--fold] INSTR...
  --unroll N   the timed loop holds N copies of the block (ptxas unrolling the pass loop)
  --peel       one copy of the block before the repetition loop (the untimed pass peeled off)
  --fold       the adds folded in pairs, a += b + c in one three-source IADD3 (half the block)
"""
import argparse


def ring(n, fold=False):
    """n adds of the ring a0 += a1, a1 += a2, ..., a7 += a0 over R2..R9 (folded: n / 2)."""
    if fold:
        return [f"IADD3 R{2 + i % 8}, R{2 + i % 8}, R{2 + (i + 1) % 8}, R{2 + (i + 2) % 8}"
                for i in range(0, n, 2)]
    return [f"IADD3 R{2 + i % 8}, R{2 + i % 8}, R{2 + (i + 1) % 8}, RZ" for i in range(n)]


def kernel(instr, unroll, peel, fold):
    code = ["LDC R1, c[0x0][0x28]", "LDC R2, c[0x0][0x210]", "ULDC UR4, c[0x0][0x214]",
            "ULDC UR5, c[0x0][0x218]", "ULDC.64 UR6, c[0x0][0x208]"]
    code += [f"IADD3 R{2 + k}, R2, 0x{k:x}, RZ" for k in range(7, 0, -1)]
    if peel:
        code += ring(instr)
    code += ["MOV R10, 0xffffffff", "S2R R0, SR_TID.X"]
    outer = len(code)
    code += ["CS2R R12, SR_CLOCKLO", "ISETP.NE.U32.AND P0, PT, RZ, UR4, PT",
             "@!P0 BRA {after}", "MOV R11, RZ"]
    inner = len(code)
    code += ring(instr * unroll, fold)
    code += ["IADD3 R11, R11, 0x1, RZ", "ISETP.GE.U32.AND P0, PT, R11, UR4, PT",
             f"@!P0 BRA 0x{inner * 16:x}"]
    after = len(code)
    code += ["CS2R R14, SR_CLOCKLO", "ISETP.GE.AND P1, PT, R10, RZ, PT",
             "ISETP.EQ.OR P1, PT, R0, RZ, !P1", "IADD3 R16, P2, R14, -R12, RZ",
             "@!P1 STG.E.64 desc[UR6][R18.64], R16", "IADD3 R10, R10, 0x1, RZ",
             "ISETP.GE.U32.AND P0, PT, R10, UR5, PT", f"@!P0 BRA 0x{outer * 16:x}",
             "LOP3.LUT R2, R2, R3, R4, 0x96, !PT", "LOP3.LUT R5, R5, R6, R7, 0x96, !PT",
             "LOP3.LUT R8, R8, R9, R2, 0x96, !PT", "LOP3.LUT R5, R5, R8, RZ, 0x3c, !PT",
             "STG.E desc[UR6][R20.64], R5", "EXIT"]
    code.append("BRA 0x{self}")
    while len(code) % 8:
        code.append("NOP")
    lines = [f"\t\tFunction : _Z9ic_kernelILi{instr}EEvjjjPxPj",
             '\t.headerflags\t@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"']
    for i, text in enumerate(code):
        text = text.replace("{after}", f"0x{after * 16:x}").replace("0x{self}", f"0x{i * 16:x}")
        pred, _, rest = text.partition(" ") if text.startswith("@") else ("", "", text)
        lines.append(f"        /*{i * 16:04x}*/ {pred:>19} {rest} ;"
                     f"{'':20}/* 0x000fe20000000f00 */")
        lines.append(f"{'':89}/* 0x000fe20000000f00 */")
    lines.append("\t\t..........\n")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--unroll", type=int, default=1)
    ap.add_argument("--peel", action="store_true")
    ap.add_argument("--fold", action="store_true")
    ap.add_argument("instr", type=int, nargs="+")
    a = ap.parse_args()
    print("\nFatbin elf code:\n================\narch = sm_90\ncode version = [1,8]\n"
          "host = linux\ncompile_size = 64bit\n\n\tcode for sm_90")
    for n in a.instr:
        print(kernel(n, a.unroll, a.peel, a.fold))
    print("\t\t....................................\n\nFatbin ptx code:\n================")


if __name__ == "__main__":
    main()
