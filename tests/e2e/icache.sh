#!/usr/bin/env bash
# End-to-end test of probe icache on simulator models whose instruction caches are known. On
# tests/models/icache_levels.json (16 KB and 128 KB levels, 5 % noise) each level's size must lie
# in the interval the probe reports (value <= truth < upper) and its cycles per instruction read
# back within the noise, as must the cycles beyond; a hard copy (sizes off the sweep's points, 52
# and 160 KB, steps of 40 % and 12 % noise) must still bracket both sizes; a copy with one level
# must leave the second not determined, naming the missing step; a model without the section
# makes every figure not determined; a malformed section is refused naming the key; bad options
# are usage errors.
set -u
. "$(dirname "$0")/common.bash"
MODEL="$SRC/tests/models/icache_levels.json"

SEED=3   # run NAME ARGS... (common.bash) seeds with it

variant() { # NAME PYTHON-EDIT: a copy of the model edited by PYTHON-EDIT (acting on m)
  $PY - "$MODEL" "$T/$1.model.json" "$2" <<'PYEOF'
import json, sys
m = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(m, open(sys.argv[2], "w"))
PYEOF
}

# check DOC MODEL: the levels against the model's truth.
check() {
  $PY - "$1" "$2" <<'PYEOF'
import json, sys
doc, model = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
(probe,) = [p for p in doc["probes"] if p["name"] == "icache"]
figs, ic = probe["figures"], model.get("icache")
bad = []
def value(name):
    return figs.get(name, {}).get("value")
if ic is None:
    for name, f in figs.items():
        if f["value"] is not None or "no icache section" not in f.get("reason", ""):
            bad.append("%s = %s without a section" % (name, f))
    if len(figs) != 7:
        bad.append("%d figures, want 7" % len(figs))
else:
    nf = ic.get("noise_fraction", 0)
    levels = ic["levels"]
    for k in range(2):
        stem = "level%d_" % (k + 1)
        if k >= len(levels):
            f = figs[stem + "bytes"]
            if f["value"] is not None or "no second step" not in f.get("reason", ""):
                bad.append("%sbytes = %s, want not determined: no second step" % (stem, f))
            continue
        lo, hi, cpi = value(stem + "bytes"), value(stem + "bytes_upper"), value(stem + "cycles_per_instruction")
        truth = levels[k]
        if lo is None or hi is None or not (lo <= truth["bytes"] < hi):
            bad.append("%sbytes [%s, %s) does not hold the model's %d" % (stem, lo, hi, truth["bytes"]))
        want = truth["cycles_per_instruction"]
        if cpi is None or not (want <= cpi <= want * (1 + nf)):
            bad.append("%scycles_per_instruction = %s, model %g (+ %g noise)" % (stem, cpi, want, nf))
    want, got = ic["beyond_cycles_per_instruction"], value("beyond_cycles_per_instruction")
    if got is None or not (want <= got <= want * (1 + nf)):
        bad.append("beyond_cycles_per_instruction = %s, model %g" % (got, want))
    series = probe["series"]["cycles_per_instruction"]
    if len(series["x"]) != 12 or series["x"][0] != 4096 or series["x"][-1] != 262144:
        bad.append("the series' sizes: %s" % series["x"])
if bad:
    print("FAIL %s:\n  %s" % (sys.argv[2].split("/")[-1], "\n  ".join(bad)))
    sys.exit(1)
print("ok   %s: %d figures" % (sys.argv[2].split("/")[-1], len(figs)))
PYEOF
}

if run levels run icache --device "sim:$MODEL"; then
  check "$T/levels.json" "$MODEL" || fails=$((fails+1))
  grep -Eq "level2_bytes +131072 bytes" "$T/levels.txt" \
    || { echo "FAIL text report: no level2_bytes"; cat "$T/levels.txt"; fails=$((fails+1)); }
fi

variant hard 'm["icache"].update(noise_fraction=0.12, levels=[
  {"bytes": 49152 + 4096, "cycles_per_instruction": 1.0},
  {"bytes": 163840, "cycles_per_instruction": 1.4}], beyond_cycles_per_instruction=2.0)'
if run hard run icache --device "sim:$T/hard.model.json" --repeats 25; then
  check "$T/hard.json" "$T/hard.model.json" || fails=$((fails+1))
fi

variant one 'm["icache"]["levels"] = m["icache"]["levels"][:1]'
if run one run icache --device "sim:$T/one.model.json"; then
  check "$T/one.json" "$T/one.model.json" || fails=$((fails+1))
fi

variant none 'del m["icache"]'
if run none run icache --device "sim:$T/none.model.json"; then
  check "$T/none.json" "$T/none.model.json" || fails=$((fails+1))
fi

variant bad 'm["icache"]["levels"][1]["bytes"] = 8192'
"$B" info -q --device "sim:$T/bad.model.json" >/dev/null 2>"$T/err"
if [ $? -ne 2 ] || ! grep -q "icache.levels\[1\].bytes: levels must grow" "$T/err"; then
  echo "FAIL shrinking levels not refused"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
fi

refused "sim:$MODEL" icache "--repeats 1" "--instructions 10"

listed icache

if [ "$fails" -ne 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "icache: the levels' sizes bracketed and their cycles read back; missing steps not determined"
