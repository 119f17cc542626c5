#!/usr/bin/python3
"""Compare the `cache` probe's JSON (from `gpusonar run cache --target all`) with the truth of the
simulator model file it ran on (tests/e2e/cache_*.sh). The truth is read from the model file only;
the probe never saw it. `fetch_bytes` must equal the model's (default its sector) and
`sector_bytes` the model's where a miss fetches 32 B, else be null (not determined: a cold walk
cannot tell a 64-B sector from two 32-B ones filled together). Integers must be equal (a size
may instead hold the truth inside its ci95, at most 5 % of it), the policy's name equal (and
segmented LRU's protected_ways), weighted/random way probabilities within 0.05. Prints one line per checked figure that differs; exit 1 on any.

With GS_TRUTH_AVERAGE=1 (results of `--structure average`) the L1-like levels (l1, tex, ro) are
held to what average-mode walks can tell: sets, ways and policy are exact for equal sets under
any index, the mapping for a bit-select one and, as XOR masks, for an XOR one (their span must
equal the model's); unequal sets are refused (not determined, never wrong), and so are the sets
and mapping of a modulo index with fewer lines of data than tags (no index confirms a count).

An L2 of more lines than a trace follows (32767) on an XOR index must leave its sets, ways,
mapping and policy not determined (only --thorough's eviction sets could read them; set
GS_TRUTH_EVICT=1 for the results of such a run).

usage: cache_truth.py RESULT.json MODEL.json [SCHEMA.json [LEVELS]]"""
import os
import json
import math
import sys

SECTOR_UNIT = 32      # the smallest unit the memory system moves: a fetch this long is the sector
TRACE_ENTRIES = 32767  # the longest fine-grained trace (its 16-bit latencies in shared memory)
PATHS = {"l1": "ca", "tex": "tex", "ro": "nc", "l2": "cg", "const": "const"}


def pow2(n):
    return n > 0 and n & (n - 1) == 0


def log2(n):
    return int(math.log2(n))


def geometry(g, line):
    """sets, ways list, mapping truth of a cache or TLB entry."""
    if "ways_per_set" in g:
        ways = list(g["ways_per_set"])
    elif "ways" in g:
        ways = [g["ways"]] * g.get("sets", 1)
    else:                                    # fully associative TLB
        ways = [g["entries"]]
    sets = len(ways)
    m = g.get("mapping", "modulo")
    if isinstance(m, dict) and "bits" in m:
        mapping = sorted(m["bits"])
    elif isinstance(m, dict):
        mapping = "hashed"
    elif sets == 1:
        mapping = []
    elif pow2(sets) and len(set(ways)) == 1:
        mapping = list(range(log2(line), log2(line) + log2(sets)))
    else:
        mapping = "modulo"
    return sets, ways, mapping


def xor_masks(g):
    """The model's XOR index as one mask per index bit (None for other mappings)."""
    m = g.get("mapping")
    if not isinstance(m, dict) or "xor" not in m:
        return None
    return [sum(1 << b for b in group) for group in m["xor"]]


def gf2_basis(vectors):
    """Reduced row-echelon basis of the span of vectors over GF(2), as a sorted list."""
    basis = []
    for v in vectors:
        for b in basis:
            v = min(v, v ^ b)
        if v:
            basis = [min(b, b ^ v) for b in basis] + [v]
    basis = sorted(basis, reverse=True)
    changed = True
    while changed:                       # full reduction: no pivot bit in another row
        changed = False
        for i, b in enumerate(basis):
            top = b.bit_length() - 1
            for j, c in enumerate(basis):
                if j != i and (c >> top) & 1:
                    basis[j] = c ^ b
                    changed = True
    return sorted(basis, reverse=True)


def same_xor_index(got_masks, want_masks):
    """Do the reported masks span the model's, both restricted to the bits the probe examined
    (up to the highest bit of a reported mask)?"""
    if not isinstance(got_masks, list) or not got_masks:
        return False
    got = [int(round(x)) for x in got_masks]
    keep = (1 << max(g.bit_length() for g in got)) - 1
    return gf2_basis(got) == gf2_basis([w & keep for w in want_masks])


def cache_truth(c):
    line = c["line_bytes"]
    sets, ways, mapping = geometry(c, line)
    # data_lines: fewer lines of data than tags (the H100's L1); the capacity is the data's
    size = c["data_lines"] * line if c.get("data_lines") else c["size_bytes"]
    t = {"size_bytes": size, "line_bytes": line, "sets": sets, "mapping": mapping,
         "policy": c.get("policy", "lru")}
    if xor_masks(c):
        t["_xor"] = xor_masks(c)
    # a cold walk sees the fetch (what a miss brings in); it decides the sector (the valid-bit
    # unit, <= fetch) only where a miss fetches 32 B: elsewhere the sector must be null
    sector = c.get("sector_bytes", line)
    t["fetch_bytes"] = c.get("fetch_bytes", sector)
    t["sector_bytes"] = sector if t["fetch_bytes"] == SECTOR_UNIT else None
    t["ways" if len(set(ways)) == 1 else "ways_per_set"] = ways[0] if len(set(ways)) == 1 else ways
    if t["policy"] == "weighted":
        t["way_probabilities"] = [frac(p) for p in c["way_probabilities"]]
    if t["policy"] == "random":
        t["way_probabilities"] = [1.0 / ways[0]] * ways[0]
    if t["policy"] in ("slru", "hslru"):
        t["protected_ways"] = c["protected_ways"]
    return t


def frac(p):
    if isinstance(p, str):
        a, b = p.split("/")
        return float(a) / float(b)
    return float(p)


def tlb_truth(t):
    cover = t.get("coverage_bytes", t["page_bytes"])
    sets, ways, mapping = geometry(t, cover)
    # page_bytes is never a figure: stride walks see the region an entry covers, and a page
    # smaller than it (an entry holding several pages' translations) reads the same
    r = {"entries": t["entries"], "coverage_bytes": cover, "page_bytes": None,
         "size_bytes": t["entries"] * cover, "sets": sets, "mapping": mapping,
         "policy": t.get("policy", "lru")}
    r["ways" if len(set(ways)) == 1 else "ways_per_set"] = ways[0] if len(set(ways)) == 1 else ways
    if max(ways) > 256:
        r["policy"] = None   # more ways than a trace's policy test holds: average-mode counts only
    if sets > 1 and mapping == "hashed":
        # odd multiples of the page spread unevenly over a hashed set index (the H100's and
        # H200's second level, models/hopper.json); the ladder of power-of-two strides reads it
        # where a cyclic walk misses ways + 1 entries per entry past a full set (LRU, and FIFO,
        # which a cyclic walk cannot tell from it): every figure but the policy (counts do not
        # test it) and the index (the ladder does not name its bits)
        r.pop("mapping")
        r["policy"] = None
        if t.get("policy", "lru") not in ("lru", "fifo") or len(set(ways)) > 1:
            # random replacement: the full rise still stops doubling at the coverage, but the
            # staircase past the entries is no LRU's: the rest is not determined (other
            # policies and unequal sets: nothing is promised)
            r.update({k: None for k in ("entries", "size_bytes", "sets")})
            if t.get("policy") != "random" or len(set(ways)) > 1:
                r["coverage_bytes"] = None
            r.pop("ways_per_set", None)
            r["ways"] = None
    return r


def truths(model):
    mem = model["memory"]
    out = {}
    l2 = [c for c in mem["caches"] if "cg" in c.get("paths", [])]
    const_bytes = model["device"].get("const_mem_bytes", 65536)
    for target, path in PATHS.items():
        levels = [c for c in mem["caches"] if path in c.get("paths", [])]
        if target == "const":
            # the constant space is const_mem_bytes long: a level at least that large is unseen
            for i, c in enumerate(levels):
                if c["size_bytes"] < const_bytes:
                    out["const%d" % (i + 1)] = cache_truth(c)
        elif levels and (target == "l2" or not l2 or levels[0] is not l2[0]):
            out[target] = cache_truth(levels[0])
            c = levels[0]
            if target == "l2" and c["size_bytes"] // c["line_bytes"] > TRACE_ENTRIES and \
                    isinstance(c.get("mapping"), dict) and "xor" in c["mapping"] and \
                    not os.environ.get("GS_TRUTH_EVICT"):
                # more lines than a trace follows, on a hashed index that stride walks do not
                # count: only --thorough's eviction sets could read its structure (an H100's
                # L2, and models/hopper.json's), so a run without them must
                # say not determined
                out[target].update({"sets": None, "ways": None, "mapping": None, "policy": None})
                out[target].pop("_xor", None)
        elif levels:
            out[target] = {"size_bytes": None}     # the path goes straight to L2: none found
    tlbs = [t for t in mem.get("tlbs", []) if "cg" in t.get("paths", ["cg"])]
    for i, t in enumerate(tlbs):
        out["l%dtlb" % (i + 1)] = tlb_truth(t)
    return out


def figures_of(figs):
    """A level's figures with the L2's usable_size_bytes (the capacity a random walk keeps) read
    as its size_bytes, the name the truth gives every level's capacity."""
    if "usable_size_bytes" in figs and "size_bytes" not in figs:
        figs = dict(figs, size_bytes=figs["usable_size_bytes"])
    return figs


def value(fig):
    v = fig.get("value")
    return v


def compare(name, truth, figs):
    bad = []
    for key, want in truth.items():
        if key == "_xor":
            continue
        if key == "mapping" and want in ("hashed", "xor") and "_xor" in truth and \
                figs.get(key, {}).get("value") == "xor":
            masks = figs.get("set_index_xor_masks", {}).get("value")
            if not same_xor_index(masks, truth["_xor"]):
                bad.append("%s.set_index_xor_masks: got %s, want the span of %s" %
                           (name, masks, truth["_xor"]))
            continue
        if key not in figs:
            bad.append("%s.%s: missing (want %s)" % (name, key, want))
            continue
        got = value(figs[key])
        if want is None:
            ok = got is None
        elif key == "way_probabilities":
            ok = isinstance(got, list) and len(got) == len(want) and \
                all(abs(a - b) <= 0.05 for a, b in zip(got, want))
        elif isinstance(want, list):
            ok = isinstance(got, list) and [int(round(x)) for x in got] == want
        elif isinstance(want, str):
            ok = got == want
        elif key == "size_bytes":                # exact, or the truth inside its ci95
            ci = figs[key].get("ci95") or 0
            # JSON numbers carry 10 significant digits (src/report): 64 GB reads 68719476740
            ok = got is not None and abs(got - want) <= ci + max(0.5, 1e-9 * want) and \
                ci <= 0.05 * want
        else:
            ok = got is not None and abs(got - want) < 0.5
        if not ok:
            reason = figs[key].get("reason", "")
            bad.append("%s.%s: got %s%s, want %s" % (name, key, got,
                                                     " (%s)" % reason if reason else "", want))
    return bad


def main():
    doc = json.load(open(sys.argv[1]))
    model = json.load(open(sys.argv[2]))
    if len(sys.argv) > 3:
        try:
            import jsonschema
            jsonschema.validate(doc, json.load(open(sys.argv[3])))
        except ImportError:
            pass
    got = {}
    for p in doc["probes"]:
        if p["name"] == "cache":
            got[p["params"]["level"]] = figures_of(p["figures"])
    bad = []
    truth = truths(model)
    if os.environ.get("GS_TRUTH_AVERAGE") == "1":
        for level in ("l1", "tex", "ro"):
            t = truth.get(level)
            if not t or t.get("size_bytes") is None:
                continue
            if "ways_per_set" in t:              # unequal sets: refused
                t.pop("ways_per_set")
                t.pop("way_probabilities", None)
                t.update({"sets": None, "ways": None, "mapping": None, "policy": None})
            elif "_xor" in t and pow2(t["sets"]):
                t["mapping"] = "xor"             # an XOR index: its masks, exactly
            elif t["mapping"] == "modulo" and not pow2(t["sets"]) and \
                    t["sets"] * t["ways"] * t["line_bytes"] > t["size_bytes"]:
                # more tags than lines of data on a non-linear index: capacity / (ways x line)
                # is not the set count, and no index picks one line per set: sets not counted
                t.update({"sets": None, "mapping": None})
            elif t["mapping"] == "modulo" and not pow2(t["sets"]):
                pass                             # line mod sets, from distances in lines
            elif not isinstance(t["mapping"], list):
                t["mapping"] = None              # other hash: sets and ways counted
    only = set(sys.argv[4].split(",")) if len(sys.argv) > 4 and sys.argv[4] else None
    for level, t in truth.items():
        if only and level not in only:
            continue
        if level not in got:
            bad.append("%s: level not reported" % level)
            continue
        bad += compare(level, t, got[level])
    for line in bad:
        print("  " + line)
    checked = [l for l in truth if not only or l in only]
    print("  %s: %d levels checked (%s), %d differences" %
          (model.get("name"), len(checked), ", ".join(checked), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
