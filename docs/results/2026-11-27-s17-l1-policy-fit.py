#!/usr/bin/env python3
"""Offline fit of the L1 policy traces kept in docs/results (run from the repository root).
Adds to session 16's segmented-LRU fit the policy 'segmented LRU whose protected segment holds
the lines of the last two hits' (hit events, not distinct lines), as explicit lists."""
import glob, json, sys
from collections import Counter
sys.path.insert(0, 'docs/results')

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
            lv = p.get('params', {}).get('level')
            if lv not in ('l1', 'tex', 'ro'):
                continue
            s = p.get('series', {})
            for kind in ('sequence', 'cyclic', 'round'):
                b, c = s.get('policy_%s_blocks' % kind), s.get('policy_%s_cycles' % kind)
                if b and c:
                    yield f, lv, kind, [int(x) for x in b['y']], c['y']

def misses(cycles):
    s, best, thr = sorted(cycles), 0, None
    for i in range(len(s) - 1):
        if s[i + 1] - s[i] > best and s[i] < 200:
            best, thr = s[i + 1] - s[i], (s[i] + s[i + 1]) / 2
    return [x > thr for x in cycles]

def slru(blocks, ways, k):
    """classic segmented LRU, k protected lines (distinct), as in session 16's script"""
    U, P, out = [], [], []
    for b in blocks:
        if b in P:
            out.append(True); P.remove(b); P.append(b)
        elif b in U:
            out.append(True); U.remove(b); P.append(b)
            if len(P) > k:
                U.append(P.pop(0))
        else:
            out.append(False)
            if len(U) + len(P) == ways:
                U.pop(0)
            U.append(b)
    return out

def last_hits(blocks, ways, n=2):
    """protected = the lines of the last n hits (a line hit twice in a row fills two places);
    unprotected lines in order of entry (fill or demotion), the victim the oldest."""
    H, U, out = [], [], []          # H: lines of the last n hits, oldest first
    for b in blocks:
        if b in H or b in U:
            out.append(True)
            if b in U:
                U.remove(b)
            H.append(b)
            if len(H) > n:
                d = H.pop(0)
                if d not in H:      # no longer among the last n hits: demoted, MRU end
                    U.append(d)
        else:
            out.append(False)
            resident = len(U) + len(set(H))
            if resident == ways:
                U.pop(0)
            U.append(b)
    return out

def wrong(pred, miss):
    return sum(p == m for p, m in zip(pred, miss))

T = [(f, lv, k, b, misses(c)) for f, lv, k, b, c in traces()]
print('%d traces' % len(T), dict(Counter(k for _, _, k, _, _ in T)))
cands = {'slru-1 (classic)': lambda b: slru(b, 4, 1), 'slru-2 (classic)': lambda b: slru(b, 4, 2),
         'last-1-hit (= slru-1)': lambda b: last_hits(b, 4, 1),
         'last-2-hits': lambda b: last_hits(b, 4, 2), 'last-3-hits': lambda b: last_hits(b, 4, 3)}
for name, fn in cands.items():
    parts = []
    for kind in ('sequence', 'cyclic', 'round'):
        ws = [wrong(fn(b), m) for _, _, kk, b, m in T if kk == kind]
        parts.append('%s %d/%d exact (%d wrong accesses)' % (kind, sum(w <= 1 for w in ws), len(ws), sum(ws)))
    print('%-22s' % name, '; '.join(parts))
print('last-2-hits by card and level (wrong accesses / traces):')
by = Counter(); nt = Counter()
for f, lv, k, b, m in T:
    key = ('h200' if 'h200' in f else 'h100', lv)
    by[key] += wrong(last_hits(b, 4, 2), m); nt[key] += 1
for key in sorted(nt):
    print('  %s %-3s %d / %d' % (key[0], key[1], by[key], nt[key]))
