#!/usr/bin/env bash
# End-to-end test of probe l2-persist on simulator models whose persisting L2 is known. A hopper
# copy with a 4 MB L2 (16 ways, 3 MB persisting set-aside; small so the sweeps stay quick) must
# read back its limits, a hot region that hits after every sweep with the window (hit rate near
# 1, the L2-hit latency, the L2's GB/s) and misses without it or with the control window (hitProp
# normal), and a speedup. A set-aside of a quarter of a 2 MB hot region must give a partial hit
# rate; a set-aside under one way per set must give "not determined: the persistence window
# changed nothing measurable". A model without persisting_max_bytes, and fermi, must say "not
# applicable (the model has no persisting L2)"; malformed keys are refused naming the key. The text
# report's table must show the limits, one row per window with the hot region's hit rate, cycles
# and GB/s as the figures give them, the speedups, "n/d" where nothing changed, and one
# "not applicable" line for fermi.
set -u
. "$(dirname "$0")/common.bash"
HOPPER="$SRC/models/hopper.json"

SEED=7   # run NAME ARGS... (common.bash) seeds with it

variant() { # NAME PYTHON-EDIT: the small hopper copy edited by PYTHON-EDIT (acting on m, l2)
  $PY - "$HOPPER" "$T/$1.model.json" "$2" <<'PYEOF'
import json, sys
m = json.load(open(sys.argv[1]))
(l2,) = [c for c in m["memory"]["caches"] if c["name"] == "l2"]
l2.update(size_bytes=4194304, sets=2048, ways=16, mapping="modulo", persisting_max_bytes=3145728)
del l2["persisting_window_max_bytes"]
m["device"]["l2_bytes"] = 4194304
exec(sys.argv[3])
json.dump(m, open(sys.argv[2], "w"))
PYEOF
}

# check DOC MODEL WHAT: the figures against the model's L2; WHAT is full, partial or nothing.
check() {
  $PY - "$1" "$2" "$3" "$SRC/docs/gpusonar-1.schema.json" <<'PYEOF'
import json, sys
doc, model, what = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
from e2e_doc import validate
validate(doc, sys.argv[4])
(probe,) = [p for p in doc["probes"] if p["name"] == "l2-persist"]
figs, mem = probe["figures"], model["memory"]
(l2,) = [c for c in mem["caches"] if c["name"] == "l2"]
dram = mem["dram"]
bad = []
def value(name):
    f = figs.get(name)
    if f is None or f.get("value") is None:
        bad.append("%s not determined: %s" % (name, (f or {}).get("reason")))
        return None
    return f["value"]
def between(name, lo, hi):
    v = value(name)
    if v is not None and not lo <= v <= hi:
        bad.append("%s = %.6g, not in [%.6g, %.6g]" % (name, v, lo, hi))
    return v
def nothing(name):
    f = figs.get(name, {})
    if f.get("value") is not None or "changed nothing measurable" not in f.get("reason", ""):
        bad.append("%s: %s, not 'changed nothing measurable'" % (name, f))
between("max_set_aside_bytes", l2["persisting_max_bytes"], l2["persisting_max_bytes"])
between("max_window_bytes", l2["size_bytes"], l2["size_bytes"])   # the default: the level's size
hit = l2["hit_latency_cycles"]
far = l2.get("partitions", {}).get("far_extra_cycles", 0)
between("l2_hit_cycles", hit, hit + far + 10)
between("dram_cycles", dram["latency_cycles"], dram["latency_cycles"] + 60)
between("hit_rate_none", 0, 0.05)
between("hit_rate_normal", 0, 0.05)
between("hot_read_gbps_none", dram["max_accesses_per_ns"] * 32 * 0.97,
        dram["max_accesses_per_ns"] * 32 * 1.001)
l2_gbps = l2["max_accesses_per_ns"] * l2["sector_bytes"]
between("l2_read_gbps", l2_gbps * 0.97, l2_gbps * 1.001)
if what == "full":
    between("set_aside_bytes", l2["persisting_max_bytes"], l2["persisting_max_bytes"])
    between("hit_rate_persisting", 0.95, 1)
    l2hit = value("l2_hit_cycles")
    between("hot_cycles_persisting", l2hit - 5, l2hit + 5)
    between("latency_speedup", 1.5, 4)
    between("hot_read_gbps_persisting", l2_gbps * 0.97, l2_gbps * 1.001)
    between("read_speedup", 1.3, 2)
    between("read_hit_rate_persisting", 0.9, 1)
elif what == "partial":
    between("hit_rate_persisting", 0.1, 0.9)
    between("latency_speedup", 1.05, 3)
else:
    for name in ("hit_rate_persisting", "latency_speedup", "read_speedup"):
        nothing(name)
if probe.get("warnings"):
    bad.append("warnings: %s" % probe["warnings"])
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PYEOF
}

not_applicable() { # DOC: every figure "not applicable (the model has no persisting L2)"
  $PY - "$1" <<'PYEOF'
import json, sys
(probe,) = [p for p in json.load(open(sys.argv[1]))["probes"] if p["name"] == "l2-persist"]
figs = probe["figures"]
bad = [n for n, f in figs.items() if f.get("value") is not None or
       f.get("reason") != "not applicable (the model has no persisting L2)"]
if not figs or bad:
    print("  not 'not applicable':", bad or "no figures")
    sys.exit(1)
PYEOF
}

variant small ''
if run small run l2-persist --device "sim:$T/small.model.json"; then
  check "$T/small.json" "$T/small.model.json" full || { echo "FAIL small"; fails=$((fails+1)); }
  grep -q "hit_rate_persisting *1" "$T/small.txt" \
    || { echo "FAIL text report: no hit_rate_persisting"; fails=$((fails+1)); }
  # the table: the rows must carry what the figures say (checked against the JSON above)
  $PY - "$T/small.json" "$T/small.txt" <<'PYEOF' || { echo "FAIL text report: the l2-persist table"; sed -n '/== l2-persist/,+8p' "$T/small.txt"; fails=$((fails+1)); }
import json, re, sys
(probe,) = [p for p in json.load(open(sys.argv[1]))["probes"] if p["name"] == "l2-persist"]
f = {k: v["value"] for k, v in probe["figures"].items()}
text = open(sys.argv[2]).read()
want = [r"^  L2 persistence: set-aside 3 of 3 MiB, window up to 4 MiB; L2 hit %.0f, DRAM %.0f cycles$"
        % (f["l2_hit_cycles"], f["dram_cycles"]),
        r"^  window +hit rate +hot cycles +hot GB/s *$"]
for w in ("none", "persisting", "normal"):
    want.append(r"^  %s +%.3f +%.0f +%.0f *$" % (w, f["hit_rate_" + w], f["hot_cycles_" + w],
                                              f["hot_read_gbps_" + w]))
want.append(r"^  persisting over none: latency x %.3g, read rate x %.3g \(read hit rate %.3f; "
            r"whole L2 %.0f, DRAM %.0f GB/s\)$" % (f["latency_speedup"], f["read_speedup"],
            f["read_hit_rate_persisting"], f["l2_read_gbps"], f["dram_read_gbps"]))
missing = [w for w in want if not re.search(w, text, re.M)]
if f["hit_rate_persisting"] < 0.95 or f["hit_rate_none"] > 0.05:
    missing.append("the figures themselves (checked above)")
for m in missing:
    print("  table line not found: " + m)
sys.exit(1 if missing else 0)
PYEOF
fi
if run partial run l2-persist --device "sim:$T/small.model.json" --set-aside 1MB \
     --hot-bytes 2MB; then
  check "$T/partial.json" "$T/small.model.json" partial || { echo "FAIL partial"; fails=$((fails+1)); }
fi
# 128 KB of a 4 MB 16-way L2 is half a way per set: no line can persist
if run nothing run l2-persist --device "sim:$T/small.model.json" --set-aside 128KB \
     --hot-bytes 1MB; then
  check "$T/nothing.json" "$T/small.model.json" nothing || { echo "FAIL nothing"; fails=$((fails+1)); }
  grep -Eq "^  persisting over none: latency x n/d, read rate x n/d" "$T/nothing.txt" \
    || { echo "FAIL text report: speedups not n/d when nothing changed"; fails=$((fails+1)); }
fi

variant none 'del l2["persisting_max_bytes"]'
if run none run l2-persist --device "sim:$T/none.model.json"; then
  not_applicable "$T/none.json" || { echo "FAIL no persisting L2"; fails=$((fails+1)); }
fi
if run fermi run l2-persist --device sim:fermi; then
  not_applicable "$T/fermi.json" || { echo "FAIL fermi"; fails=$((fails+1)); }
  grep -q "^  L2 persistence: not applicable (the model has no persisting L2)$" "$T/fermi.txt" \
    || { echo "FAIL text report: fermi's l2-persist line"; fails=$((fails+1)); }
fi

variant toobig 'l2["persisting_max_bytes"] = l2["size_bytes"]'
"$B" info -q --device "sim:$T/toobig.model.json" >/dev/null 2>"$T/err"
if [ $? -ne 2 ] || ! grep -q "persisting_max_bytes: must be under size_bytes" "$T/err"; then
  echo "FAIL persisting_max_bytes = size_bytes not refused"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
fi
variant window 'del l2["persisting_max_bytes"]; l2["persisting_window_max_bytes"] = 1048576'
"$B" info -q --device "sim:$T/window.model.json" >/dev/null 2>"$T/err"
if [ $? -ne 2 ] || ! grep -q "persisting_window_max_bytes: needs" "$T/err"; then
  echo "FAIL a window without persisting_max_bytes not refused"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
fi

listed l2-persist

if [ "$fails" -ne 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "l2-persist: the small model's persisting L2 reads back; partial, nothing and not applicable said"
