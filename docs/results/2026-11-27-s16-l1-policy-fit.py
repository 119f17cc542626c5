#!/usr/bin/env python3
"""Session 16: segmented LRU against every L1/texture/read-only policy trace kept in docs/results.

Reads the series policy_sequence_*, policy_cyclic_* and policy_round_* of every result document
here, classifies each access as a miss above the widest gap between the hit band and the misses,
and counts, per trace kind, the traces that segmented LRU with 1 or 2 protected lines predicts
exactly (at most one access wrong) and within 2 %, under the classic demotion (a line the
protected segment sends back goes to the most recent end of the unprotected lines) and under the
old rule (it keeps its place). Then, per random sequence, which candidates fit it (2 %).
Run from the repository root: python3 docs/results/2026-11-27-s16-l1-policy-fit.py
Output of session 16: docs/results/2026-11-27-s16-l1-policy-fit.txt"""
import glob, json
from collections import Counter

def traces():
    for f in sorted(glob.glob('docs/results/*.json')):
        try:
            d = json.load(open(f))
        except Exception:
            continue
        if not isinstance(d, dict):
            continue
        for p in d.get('probes', []):
            if not isinstance(p, dict) or p.get('name') != 'cache':
                continue
            if p.get('params', {}).get('level') not in ('l1', 'tex', 'ro'):
                continue
            s = p.get('series', {})
            for kind in ('sequence', 'cyclic', 'round'):
                b, c = s.get('policy_%s_blocks' % kind), s.get('policy_%s_cycles' % kind)
                if b and c:
                    yield kind, [int(x) for x in b['y']], c['y']

def misses(cycles):
    s, best, thr = sorted(cycles), 0, None
    for i in range(len(s) - 1):
        if s[i + 1] - s[i] > best and s[i] < 200:
            best, thr = s[i + 1] - s[i], (s[i] + s[i + 1]) / 2
    return [x > thr for x in cycles]

def lru(blocks, ways, fifo=False):
    st, out = [], []
    for b in blocks:
        out.append(b in st)
        if b in st and not fifo:
            st.remove(b)
        if b not in st:
            if len(st) == ways and not out[-1]:
                st.pop(0)
            st.append(b)
    return out

def slru(blocks, ways, k, classic):
    line, stamp, prot, out = [None] * ways, [0.0] * ways, [False] * ways, []
    for i, b in enumerate(blocks):
        t = i + 1
        if b in line:
            w = line.index(b)
            out.append(True)
            stamp[w] = t
            if not prot[w]:
                prot[w] = True
                ps = [x for x in range(ways) if prot[x] and x != w]
                if len(ps) + 1 > k:
                    o = min(ps, key=lambda x: stamp[x])
                    prot[o] = False
                    if classic:
                        stamp[o] = t - 0.5
        else:
            out.append(False)
            w = line.index(None) if None in line else \
                min((x for x in range(ways) if not prot[x]), key=lambda x: stamp[x])
            line[w], stamp[w], prot[w] = b, t, False
    return out

def wrong(pred, miss):
    return sum(p == m for p, m in zip(pred, miss))

all_traces = [(k, b, misses(c)) for k, b, c in traces()]
print('%d traces' % len(all_traces), dict(Counter(k for k, _, _ in all_traces)))
for k in (1, 2):
    for classic in (False, True):
        parts = []
        for kind in ('sequence', 'cyclic', 'round'):
            ws = [wrong(slru(b, 4, k, classic), m) for kk, b, m in all_traces if kk == kind]
            parts.append('%s %d/%d exact, %d within 2 %%' % (
                kind, sum(w <= 1 for w in ws), len(ws),
                sum(w <= max(1, 0.02 * 512) for w in ws)))
        print('slru-%d %-8s' % (k, 'classic' if classic else 'old'), '; '.join(parts))
fits = Counter()
for kind, b, m in all_traces:
    if kind != 'sequence':
        continue
    tol = 0.02 * len(b)
    cands = {'lru': lru(b, 4), 'fifo': lru(b, 4, True), 'slru-1': slru(b, 4, 1, True),
             'slru-2': slru(b, 4, 2, True), 'slru-3': slru(b, 4, 3, True)}
    fits[tuple(n for n, p in cands.items() if wrong(p, m) <= tol)] += 1
print('random sequences, the classic candidates that fit each (2 %):')
for c, n in fits.most_common():
    print('  %3d  %s' % (n, ', '.join(c) or '(none)'))
