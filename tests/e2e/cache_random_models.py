#!/usr/bin/python3
"""Random valid cache models for the property test tests/e2e/cache_random_models.sh: `gen N SEED
DIR` writes N models made from a fixed seed and prints "MODEL TARGET" per line; even models test
the L1 (`--target l1`), odd ones the L2 (`--target l2`). Lines of 32, 64, 128 and 256 B, sectors
and fetch groups smaller than the line, modulo / bit-select / XOR indexes (masks of two or three
bits), every replacement policy, jitter; the L1s also with their chases' buffer placed off the
index's span and with data for fewer lines than tags (placement); the L2s also hashed and split
into near and far partitions. `check RESULT.json MODEL.json TARGET` holds every figure the probe
reported for the target to the model's truth: exact (a size may hold the truth inside its ci95)
or "not determined", never wrong. Prints one line per wrong figure; exit 1 on any."""
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cache_truth  # noqa: E402

DEVICE = {"cc_major": 9, "cc_minor": 0, "sm_count": 8, "clock_khz": 1500000, "l2_bytes": 524288,
          "smem_per_sm_bytes": 102400, "smem_per_block_bytes": 49152,
          "global_mem_bytes": 17179869184, "max_threads_per_sm": 2048,
          "max_threads_per_block": 1024, "max_blocks_per_sm": 32, "warp_size": 32}
POLICIES = ["lru", "fifo", "random", "plru", "weighted", "srrip"]


def line_and_sectors(rng, c, line):
    """A sector and a fetch group for a line: none, 32-B sectors, or (lines of 128 B and more)
    sectors of 32 or 64 B fetched one or two at a time."""
    c["line_bytes"] = line
    r = rng.random()
    if line >= 64 and r < 0.5:
        sector = 32 if line == 64 or r < 0.3 else 64
        c["sector_bytes"] = sector
        if line >= 2 * sector and rng.random() < 0.4:
            c["fetch_bytes"] = 2 * sector


def set_index(rng, c, sets, line, kinds):
    """A modulo, bit-select or XOR index (XOR masks of two or three bits) of sets sets."""
    kind = rng.choice(kinds if sets & (sets - 1) == 0 else ["modulo"])
    lb, k = line.bit_length() - 1, sets.bit_length() - 1
    if kind == "bits":
        low = lb + rng.choice([0, 0, 1])
        c["mapping"] = {"bits": list(range(low, low + k))}
    elif kind == "xor":
        shift = rng.choice([k, k + 1, k + 3])
        third = rng.random() < 0.3
        c["mapping"] = {"xor": [[lb + j, lb + j + shift] + ([lb + j + 2 * shift + 1] if third
                                                              else []) for j in range(k)]}
    elif kind == "modulo" and sets & (sets - 1) == 0 and rng.random() < 0.5:
        c["mapping"] = "modulo"


def policy_of(rng, c, ways, i):
    policy = rng.choice(POLICIES)
    c["policy"] = policy
    if policy == "weighted":
        w = [rng.randint(1, 4) for _ in range(ways)]
        c["way_probabilities"] = ["%d/%d" % (x, sum(w)) for x in w]
    # Segmented LRU (the H100 L1 keeps a re-referenced line) in place of some LRU models, drawn
    # from a stream of its own so every other draw stays as it was.
    side = random.Random(1000003 * (i + 1) + ways)
    if policy == "lru" and side.random() < 0.5:
        c["policy"] = "slru"
        c["protected_ways"] = side.randint(1, ways - 1)
        # segmented LRU over the last hits (the H100's L1) in half of those, from a third stream
        third = random.Random(7919 * (i + 1) + ways)
        if ways > 2 and third.random() < 0.5:
            c["policy"] = "hslru"
            c["protected_ways"] = third.randint(2, ways - 1)


def l1_cache(rng, i):
    line = rng.choice([32, 64, 128, 256])
    ways = rng.choice([2, 4, 8])
    sets = rng.choice([16, 32, 64, 24, 48])
    c = {"name": "l1", "size_bytes": sets * ways * line, "sets": sets, "ways": ways,
         "hit_latency_cycles": rng.choice([24, 30, 40]),
         "paths": ["default", "ca", "nc", "tex", "local"], "scope": "sm"}
    line_and_sectors(rng, c, line)
    set_index(rng, c, sets, line, ["modulo", "bits", "xor"])
    policy_of(rng, c, ways, i)
    return c


def l2_cache(rng, i):
    """An L2 of 256 to 1024 sets: as an L1 is drawn, or hashed, or in two partitions (a far hit
    240 cycles later, the far bit an XOR of five address bits above the line's)."""
    line = rng.choice([32, 64, 128, 256])
    ways = rng.choice([8, 16])
    sets = rng.choice([256, 512, 1024])
    c = {"name": "l2", "size_bytes": sets * ways * line, "sets": sets, "ways": ways,
         "hit_latency_cycles": 200, "scope": "device",
         "paths": ["default", "ca", "cg", "cv", "nc", "tex", "local"]}
    line_and_sectors(rng, c, line)
    set_index(rng, c, sets, line, ["modulo", "xor", "xor"])
    policy_of(rng, c, ways, i)
    if rng.random() < 0.3:
        lb = line.bit_length() - 1
        c["partitions"] = {"count": 2, "far_extra_cycles": 240,
                           "mapping": {"xor": [[lb + 5, lb + 6, lb + 9, lb + 10, lb + 12]]}}
    return c


def model(rng, i):
    target = "l1" if i % 2 == 0 else "l2"
    if target == "l1":
        caches = [l1_cache(rng, i), {"name": "l2", "size_bytes": 524288, "line_bytes": 128,
                                    "sets": 256, "ways": 16, "hit_latency_cycles": 200,
                                    "paths": ["default", "ca", "cg", "cv", "nc", "tex",
                                              "local"], "scope": "device"}]
    else:
        caches = [{"name": "l1", "size_bytes": 16384, "line_bytes": 128, "sets": 32, "ways": 4,
                   "hit_latency_cycles": 30, "paths": ["default", "ca", "nc", "tex", "local"],
                   "scope": "sm"}, l2_cache(rng, i)]
    l2_bytes = caches[1]["size_bytes"]
    memory_extra = placement(i, caches[0]) if target == "l1" else {}
    return target, {
        "name": "random_%02d" % i,
        "description": "Generated by tests/e2e/cache_random_models.py (property test)",
        "device": dict(DEVICE, name="random model %d (generated)" % i, l2_bytes=l2_bytes),
        "noise": {"jitter_cycles": rng.choice([0, 2, 4])},
        "memory": {"caches": caches,
                   "tlbs": [{"name": "l1tlb", "page_bytes": 2097152, "entries": 16,
                             "miss_penalty_cycles": 25}],
                   "dram": {"latency_cycles": 450}, "shared_latency_cycles": 25,
                   **memory_extra}}


def placement(i, c):
    """Every other L1 model (the second, fourth, ...) has its chases' buffer placed off the
    index's span (memory.chase_base_bytes: 256-B aligned, as cudaMalloc promises, up to 3 MiB),
    and every third (the third, sixth, ...) data for fewer lines than tags (data_lines, a
    carve-out of the array: capacity / (ways x line) is then no set count); the values from a
    stream of their own, so every other draw stays as it was."""
    side = random.Random(48611 * (i + 1))
    extra, k = {}, i // 2
    if k % 2 == 1:
        extra["chase_base_bytes"] = side.choice([256, 4096 + 256, 65536 + 768, 1310976, 3 << 20])
    if k % 3 == 2:
        c["data_lines"] = c["sets"] * c["ways"] * side.choice([5, 6, 7]) // 8
    return extra


def gen(n, seed, folder):
    rng = random.Random(seed)
    for i in range(n):
        target, m = model(rng, i)
        path = os.path.join(folder, m["name"] + ".json")
        json.dump(m, open(path, "w"), indent=1)
        print(path, target)


def describe(c):
    sector = "" if "sector_bytes" not in c else ", sector %d%s" % (
        c["sector_bytes"], ", fetch %d" % c["fetch_bytes"] if "fetch_bytes" in c else "")
    return "%s %d x %d x %d B%s %s %s%s%s" % (c["name"], c["sets"], c["ways"], c["line_bytes"],
                                              sector, json.dumps(c.get("mapping", "modulo")),
                                              c.get("policy", "lru"),
                                              " partitioned" if "partitions" in c else "",
                                              ", %d lines of data" % c["data_lines"]
                                              if "data_lines" in c else "")


def check(result, model_file, target):
    doc, model = json.load(open(result)), json.load(open(model_file))
    figs = [p["figures"] for p in doc["probes"] if p["params"].get("level") == target]
    truth = cache_truth.truths(model).get(target)
    if not figs or not truth:
        print("  %s: no %s record" % (model["name"], target))
        return 1
    figs = cache_truth.figures_of(figs[0])
    if truth.get("policy") == "plru" and truth.get("ways") == 2:
        truth["policy"] = "lru"  # tree-PLRU over two ways is LRU: one policy, two names
    known = {k: v for k, v in figs.items() if k in truth and v.get("value") is not None}
    if "mapping" in known and isinstance(truth["mapping"], str) and \
            known["mapping"]["value"] in ("modulo", "hashed") and truth["mapping"] in ("modulo",
                                                                                      "hashed"):
        known.pop("mapping")     # modulo against hashed: the fine-grained walks' naming
    bad = cache_truth.compare(model["name"], {k: truth[k] for k in known} |
                              ({"_xor": truth["_xor"]} if "_xor" in truth else {}), figs)
    desc = describe([c for c in model["memory"]["caches"] if c["name"] == target][0])
    for line in bad:
        print("  WRONG (%s): %s" % (desc, line))
    nd = sorted(k for k in truth if k in figs and figs[k].get("value") is None)
    print("  %s (%s): %d figures exact, not determined: %s" %
          (model["name"], desc, len(known) - len(bad), ", ".join(nd) or "none"))
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    else:
        sys.exit(check(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "l1"))
