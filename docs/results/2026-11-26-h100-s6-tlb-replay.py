#!/usr/bin/env python3
"""Replay the H100's session-6 TLB exploration walks (2026-11-26-h100-s6-tlb-explore.txt, path cg,
strides of k x 2 MB where every region has its own entry in both TLB levels: k = 17, 32, 128)
through the second-level count of src/probes/cache_tlb_second.c: the old rule (the first count
whose step over n0 regions passes 3 cycles, doubling then bisection to 1/64) and the new one
(analysis/step_search.c: a rise of 3 cycles between counts at most 1/64 apart; a wider rise is
creep). The walks are raw averages, not steps over a base walk: this is the worst case, where the
base walk cancels none of the creep. Between the counts the exploration walked, the average is
interpolated linearly ("linear": the second step smeared over the gap between its last fitting and
first stepping count) or linearly up to the last count below the second step and as a step
right after it ("sharp"). Usage: replay.py [explore file]"""
import sys

N0, THR = 34, 3.0


def load(path):
    walks = {}
    call = 0
    for line in open(path):
        if line.startswith("# call"):
            call += 1
        f = line.split()
        if call == 2 and len(f) >= 4 and f[0] == "cg":
            try:
                walks.setdefault(int(f[1]), []).append((int(f[2]), float(f[3])))
            except ValueError:
                pass
    return {k: sorted(v) for k, v in walks.items()}


def curve(points, sharp):
    """Average at any count: linear between the walked ones; sharp: the second step (the first
    rise of more than 30 cycles between walked counts) put just past its lower count."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    big = next((i for i in range(1, len(xs)) if ys[i] - ys[i - 1] > 30), None)

    def at(n):
        if n <= xs[0]:
            return ys[0]
        for i in range(1, len(xs)):
            if n <= xs[i]:
                if sharp and i == big:
                    return ys[i - 1] if n == xs[i - 1] else ys[i]
                t = (n - xs[i - 1]) / (xs[i] - xs[i - 1])
                return ys[i - 1] + t * (ys[i] - ys[i - 1])
        return ys[-1]
    return at, xs[-1]


def old_rule(step, n_max, first):
    lo, hi, n = N0, 0, first
    while not hi and n <= n_max:
        if step(n) > THR:
            hi = n
        else:
            lo, n = n, n * 2
    while hi and hi - lo > 1 and hi - lo > lo // 64:
        mid = lo + (hi - lo) // 2
        if step(mid) > THR:
            hi = mid
        else:
            lo = mid
    return lo if hi else None


def new_rule(step, n_max, first):
    """step_search.c, line for line."""
    lo, s_lo, hi, s_hi, nxt = N0, 0.0, 0, 0.0, first
    while nxt:
        n, s = nxt, step(nxt)
        if s - s_lo > THR:
            hi, s_hi = n, s
        else:
            lo, s_lo = n, s
            if hi and s_hi - s <= THR:
                lo, s_lo, hi = hi, s_hi, 0
        if hi and (hi - lo <= 1 or hi - lo <= lo // 64):
            return lo, s_lo
        nxt = lo + (hi - lo) // 2 if hi else (lo * 2 if lo * 2 <= n_max else 0)
    return None, None


def main():
    walks = load(sys.argv[1] if len(sys.argv) > 1 else
                 "docs/results/2026-11-26-h100-s6-tlb-explore.txt")
    print("k  MB    interp  first  old  new  creep_at_new  (step = avg - avg(%d regions))" % N0)
    for k in (17, 32, 128):
        for sharp in (False, True):
            at, n_max = curve(walks[k], sharp)
            step = lambda n: at(n) - at(N0)
            for first in (2 * N0, 244, 682):
                old = old_rule(step, n_max, first)
                new, plateau = new_rule(step, n_max, first)
                print("%-3d %-5d %-7s %-6d %-4s %-4s %s" % (
                    k, 2 * k, "sharp" if sharp else "linear", first, old,
                    new if new else "none", "%.1f" % plateau if plateau is not None else
                    "(no step below %d, the most regions walked)" % n_max))
    # The probe's own counts on the cards (2026-11-26-h100-s6-tlb.json, -h200-s6-tlb.json, and
    # the other seed in 2026-11-26-h100-s6.md): count x stride, the virtual span each walked.
    print("\nprobe counts (16 MB page units): count x stride")
    for card, pages, count in (("H100", 1, 4096), ("H100", 3, 1385), ("H100", 17, 484),
                               ("H100", 17, 274), ("H200", 3, 1364), ("H200", 17, 277),
                               ("H200", 17, 450)):
        print("  %s %2d pages: %4d regions x %3d MB = %5.1f GB" % (
            card, pages, count, 16 * pages, count * 16 * pages / 1024))


if __name__ == "__main__":
    main()
