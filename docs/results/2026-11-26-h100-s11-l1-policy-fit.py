#!/usr/bin/env python3
"""Session 11: candidate replacement policies against the H100 L1's policy traces recorded after
the chase's start read moved to the L2 (calls 3 and 5, -l1-policy-traces.json: one 4-way set,
5 blocks; a latency under 2.5 x the trace's fastest is a hit). Prints, per candidate, the total
and per-trace mispredictions, best first.
Candidates: classic segmented LRU (a probationary and a protected LRU list of k lines; a miss
enters the probationary MRU, a probationary hit moves to the protected MRU, a protected overflow
sends its LRU line to the probationary MRU or LRU; the victim is the probationary LRU), and an
RRIP/QLRU family (ages 0..A-1, every non-increasing hit table, every insertion age, aging at an
eviction or after every access (optionally not the accessed line), victim the leftmost or
rightmost line at the top age).
usage: 2026-11-26-h100-s11-l1-policy-fit.py [TRACES.json]"""
import itertools, json, os, sys

W = 4
path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__),
                                                         "2026-11-26-h100-s11-l1-policy-traces.json")
traces = []
for t in json.load(open(path)):
    fast = min(t["cycles"])
    traces.append((t["run"], t["level"], t["kind"], t["blocks"], [c < 2.5 * fast for c in t["cycles"]]))


def score(pred, obs):
    return sum(a != b for a, b in zip(pred, obs))


def classic_slru(blocks, k, demote_to_mru):
    prob, prot, out = [], [], []          # newest first
    for x in blocks:
        if x in prot:
            out.append(True); prot.remove(x); prot.insert(0, x); continue
        if x in prob:
            out.append(True); prob.remove(x); prot.insert(0, x)
            if len(prot) > k:
                d = prot.pop()
                prob.insert(0, d) if demote_to_mru else prob.append(d)
            continue
        out.append(False)
        if len(prob) + len(prot) == W:
            (prob if prob else prot).pop()
        prob.insert(0, x)
    return out


def rrip(blocks, A, hit, ins, every, excl, right):
    tags, age, out = [None] * W, [0] * W, []
    for x in blocks:
        if x in tags:
            i = tags.index(x); out.append(True); age[i] = hit[age[i]]
        else:
            out.append(False)
            if None in tags:
                i = tags.index(None)
            else:
                if not every and max(age) < A - 1:
                    d = A - 1 - max(age); age = [a + d for a in age]
                top = [j for j in range(W) if age[j] == max(age)]
                i = top[-1] if right else top[0]
            tags[i] = x; age[i] = ins
        if every and None not in tags and max(age) < A - 1:
            others = [j for j in range(W) if not (excl and j == i)]
            d = A - 1 - max(age[j] for j in others)
            for j in others:
                age[j] = min(A - 1, age[j] + d)
    return out


results = []
for k in (1, 2, 3):
    for mru in (True, False):
        e = [score(classic_slru(b, k, mru), h) for (_, _, _, b, h) in traces]
        results.append((sum(e), "classic SLRU k=%d, demoted to the probationary %s" %
                        (k, "MRU" if mru else "LRU"), e))
for A in (2, 3, 4):
    for hit in itertools.product(*[range(a + 1) for a in range(A)]):
        for ins in range(A):
            for every, excl in ((False, False), (True, False), (True, True)):
                for right in (False, True):
                    e = [score(rrip(b, A, hit, ins, every, excl, right), h) for (_, _, _, b, h) in traces]
                    results.append((sum(e), "RRIP A=%d hit=%s insert=%d aging=%s victim=%s" %
                                    (A, hit, ins, ("every access" + (" but the accessed" if excl else ""))
                                     if every else "at eviction", "rightmost" if right else "leftmost"), e))
results.sort()
print("%d traces: %s" % (len(traces), ", ".join("%s/%s/%s" % t[:3] for t in traces)))
for total, name, e in results[:15]:
    print("%5d  %-75s %s" % (total, name, e))
