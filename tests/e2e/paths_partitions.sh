#!/usr/bin/env bash
# End-to-end tests of the `paths` and `l2-partitions` probes on the built-in hopper model, whose
# truth is known: which paths pass through the L1 (default, ca, nc, tex but not cg, cv), the
# constant caches (2 KB, 32 KB) and the L2 partition hash (XOR of bits 12, 14, 17, 20, 23).
set -u
. "$(dirname "$0")/common.bash"

"$B" run paths --device sim:hopper -q --json "$T/paths.json" --stride 256 --max-footprint 128MB \
    --accesses 1024 >/dev/null 2>"$T/err" || { echo "FAIL paths run:"; cat "$T/err"; exit 1; }
"$B" run l2-partitions --device sim:hopper -q --json "$T/l2.json" >/dev/null 2>"$T/err" ||
    { echo "FAIL l2-partitions run:"; cat "$T/err"; exit 1; }

"$PY" - "$T/paths.json" "$T/l2.json" <<'EOF'
import json, sys
def figs(path, name):
    doc = json.load(open(path))
    return [p for p in doc["probes"] if p["name"] == name][0]["figures"]
def val(f, k):
    v = f[k]["value"] if isinstance(f[k], dict) else f[k]
    return v
fails = []
f = figs(sys.argv[1], "paths")
for path in ("default", "ca", "nc", "tex"):
    lv = val(f, path + "_levels").split(",")
    if lv[0] != "l1" or lv[-1] != "dram":
        fails.append(f"{path}: levels {lv}, wanted l1 first and dram last")
    elif abs(val(f, path + "_l1_latency_cycles") - 34) > 3:
        fails.append(f"{path}: L1 latency {val(f, path + '_l1_latency_cycles')}, model has 33 + clock")
for path in ("cg", "cv"):
    lv = val(f, path + "_levels").split(",")
    if "l1" in lv or lv[-1] != "dram":
        fails.append(f"{path}: levels {lv}: must bypass the L1 and end in dram")
lv = val(f, "const_levels").split(",")
if lv[:2] != ["const-l1", "const-l1.5"]:
    fails.append(f"const: levels {lv}")
elif val(f, "const_const-l1_footprint_max_bytes") != 2048:
    fails.append("const: L1 should hold 2 KB, got %s" % val(f, "const_const-l1_footprint_max_bytes"))
if val(f, "default_vs_ca") != "alike" or val(f, "cg_vs_cv") != "alike":
    fails.append("default/ca or cg/cv differ in the model, where they are the same")
g = figs(sys.argv[2], "l2-partitions")
if val(g, "l2_partition_hash") != "xor of bits 12,14,17,20,23":
    fails.append("hash: " + str(val(g, "l2_partition_hash")))
near, far = val(g, "l2_near_latency_cycles"), val(g, "l2_far_latency_cycles")
# 200 / 290 cycles, + 10 for SM 0's distance from the slices (the L2's sm_extra_cycles[0])
if not (205 <= near <= 216 and 295 <= far <= 306):
    fails.append(f"near/far {near}/{far}, model has 210/300 + clock from SM 0")
for x in fails:
    print("FAIL", x)
sys.exit(1 if fails else 0)
EOF
rc=$?
[ $rc -eq 0 ] && echo "paths_partitions: all passed"
exit $rc
