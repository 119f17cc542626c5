#!/usr/bin/env bash
# End-to-end tests of the command line on simulator models: exit statuses, one-line errors for
# bad input, the JSON document against its schema, CSV output, Ctrl-C, and no partial files.
set -u
. "$(dirname "$0")/common.bash"
MIN="sim:$SRC/tests/models/cli_minimal.json"
passes=0

check() { # NAME EXPECTED_STATUS COMMAND... ; stderr kept in $T/err, stdout in $T/out
  local name=$1 want=$2; shift 2
  "$@" >"$T/out" 2>"$T/err"; local got=$?
  if [ "$got" -ne "$want" ]; then
    echo "FAIL $name: exit $got, wanted $want"; sed 's/^/  stderr: /' "$T/err" | head -5
    fails=$((fails+1)); return 1
  fi
  passes=$((passes+1)); return 0
}
one_line_error() { # NAME NEEDLE: stderr is one line naming the problem
  local lines; lines=$(grep -c . "$T/err")
  if [ "$lines" -ne 1 ] || ! grep -q -- "$2" "$T/err"; then
    echo "FAIL $1: wanted one stderr line containing '$2', got:"; sed 's/^/  /' "$T/err"
    fails=$((fails+1))
  else passes=$((passes+1)); fi
}

# Help for every command.
for c in "" report list info run models devices plot compare help version; do
  check "help $c" 0 $B $c --help && grep -q usage "$T/out" || { echo "FAIL help $c"; fails=$((fails+1)); }
done
check "run clock --help" 0 $B run clock --help
grep -q -- "--windows" "$T/out" || { echo "FAIL: probe help lists no options"; fails=$((fails+1)); }

# Usage errors: exit 2, one line naming the cause.
check "unknown command" 2 $B frobnicate && one_line_error "unknown command" "not a command"
check "unknown probe" 2 $B run nosuchprobe -q && one_line_error "unknown probe" "unknown probe 'nosuchprobe'"
check "unknown --probes" 2 $B --probes clock,nope --device "$MIN" && one_line_error "--probes" "unknown probe 'nope'"
check "bad option value" 2 $B run clock --windows abc --device "$MIN" && one_line_error "bad value" "--windows"
check "bad device" 2 $B --device gpu7 && one_line_error "bad device" "is not a device"
check "missing model" 2 $B --device sim:no-such-model && one_line_error "missing model" "gpusonar models"
printf '{"name": "x", "device": {' >"$T/broken.json"
check "malformed model" 2 $B --device "sim:$T/broken.json" && one_line_error "malformed model" "broken.json"
printf '{"name": "x", "colour": 3}' >"$T/unknown.json"
check "unknown model key" 2 $B --device "sim:$T/unknown.json" && one_line_error "unknown key" "colour"
check "run without probe" 2 $B run && one_line_error "run without probe" "needs a probe name"

# No partial file after a failure to start.
check "no file on bad input" 2 $B --device sim:no-such-model --json "$T/none.json"
[ ! -e "$T/none.json" ] && passes=$((passes+1)) || { echo "FAIL: a file was left behind"; fails=$((fails+1)); }
# Output paths are checked before anything is measured: a usage error, and no probe started.
check "unwritable json" 2 $B --device "$MIN" --probes clock --json /nonexistent-dir/x.json
one_line_error "unwritable json" "/nonexistent-dir/x.json"
check "json is a folder" 2 $B --device "$MIN" --probes clock --json "$T"
one_line_error "json folder" "is a folder"
check "csv under a file" 2 $B --device "$MIN" --probes clock --csv "$SRC/README.md/x"
one_line_error "csv under a file" "--csv"

# A probe's own option checks run before anything is measured (a dry run stops each probe at its
# first measurement): a usage error, and no document, since nothing was measured.
check "probe option check" 2 $B run pchase --array 1KB --stride 2KB --device sim:hopper --json "$T/dry.json"
one_line_error "probe option check" "smaller than --stride"
[ ! -e "$T/dry.json" ] && passes=$((passes+1)) || { echo "FAIL: a document after a usage error"; fails=$((fails+1)); }
check "trace path checked first" 2 $B run pchase --trace /nonexistent-dir/t.csv --device "$MIN"
one_line_error "trace path checked first" "--trace"
check "html -o checked first" 2 $B html "$SRC/README.md" -o /nonexistent-dir/x.html
one_line_error "html -o checked first" "/nonexistent-dir"
check "plot --out checked first" 2 $B plot "$SRC/README.md" --out "$SRC/README.md"
one_line_error "plot --out checked first" "--out"
check "paths checked first" 2 $B run global-patterns --paths default,bogus --device "$MIN"
one_line_error "paths checked first" "'bogus' is not a load path"
check "tlb-span checked first" 2 $B run global-patterns --tlb-span 1MB --device "$MIN"
one_line_error "tlb-span checked first" "at least 16GB"

# Options anywhere on the line; --version; options a command does not use are refused.
check "--version" 0 $B --version && grep -q "^gpusonar " "$T/out" || { echo "FAIL: --version"; fails=$((fails+1)); }
check "options before the command" 0 $B --device "$MIN" -q run clock --windows 3
check "probe option before the probe" 0 $B run --windows 3 clock --device "$MIN" -q
check "list --json" 2 $B list --json x && one_line_error "list --json" "does not apply to 'list'"
check "models --seed" 2 $B models --seed 3 && one_line_error "models --seed" "does not apply to 'models'"
check "plot --device" 2 $B plot x.json --device sim && one_line_error "plot --device" "does not apply"
check "list extra word" 2 $B list foo && one_line_error "list extra" "unexpected argument 'foo'"

# A full run on the simulator writes a document that validates against the schema.
check "report json" 0 $B --device "$MIN" -q --probes clock --json "$T/run.json" --csv "$T/csv"
$PY - "$SRC/docs/gpusonar-1.schema.json" "$T/run.json" <<'PYEOF' || fails=$((fails+1))
import json, sys, jsonschema
schema = json.load(open(sys.argv[1])); doc = json.load(open(sys.argv[2]))
jsonschema.validate(doc, schema)
assert doc["complete"] is True, doc.get("incomplete_reason")
assert doc["device"]["simulated"] is True
clock = [p for p in doc["probes"] if p["name"] == "clock"][0]
f = clock["figures"]["sm_clock_khz"]
assert abs(f["value"] - 1500000) / 1500000 < 0.01, f
assert f["unit"] == "kHz" and f["n"] == 10
PYEOF
ls "$T"/run.json.tmp.* >/dev/null 2>&1 && { echo "FAIL: temporary JSON left"; fails=$((fails+1)); }
[ -s "$T/csv/clock-frequency.csv" ] && passes=$((passes+1)) || { echo "FAIL: no CSV"; fails=$((fails+1)); }

# JSON on stdout: only the document there.
check "json stdout" 0 $B --device "$MIN" -q --probes clock --json -
$PY -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/out" || { echo "FAIL: stdout is not JSON"; fails=$((fails+1)); }

# The default device without a GPU is the simulator, and it says so.
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  check "fallback notice" 0 env CUDA_VISIBLE_DEVICES= $B --probes clock
  grep -q "SIMULATED" "$T/err" && grep -q "SIMULATED" "$T/out" && passes=$((passes+1)) \
    || { echo "FAIL: no notice of the simulated GPU"; fails=$((fails+1)); }
fi

# Ctrl-C after the first probe: a valid document marked incomplete, exit 130 (128 + SIGINT).
check "interrupt" 130 env GS_TEST_INTERRUPT_AFTER=1 $B --device "$MIN" -q --probes clock,clock,clock --json "$T/int.json"
$PY - "$SRC/docs/gpusonar-1.schema.json" "$T/int.json" <<'PYEOF' || fails=$((fails+1))
import json, sys, jsonschema
schema = json.load(open(sys.argv[1])); doc = json.load(open(sys.argv[2]))
jsonschema.validate(doc, schema)
assert doc["complete"] is False and "interrupted" in doc["incomplete_reason"], doc
assert len(doc["probes"]) == 2, len(doc["probes"])
PYEOF

# SIGTERM (a batch system's stop): the same, exit 143, and the message names the signal.
check "sigterm" 143 env GS_TEST_INTERRUPT_AFTER=1 GS_TEST_SIGNAL=TERM $B --device "$MIN" -q --probes clock,clock --json "$T/term.json"
grep -q "SIGTERM" "$T/err" && passes=$((passes+1)) || { echo "FAIL: SIGTERM not named"; fails=$((fails+1)); }
$PY - "$T/term.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["complete"] is False and "SIGTERM" in doc["incomplete_reason"], doc
PYEOF

# A probe that fails while measuring: exit 1 (not the usage status), the failed level stays in
# the document with its message, and the other levels of the probe still run.
check "failed level" 1 env GS_TEST_FAIL_CHASE=3 $B run cache --device sim:fermi -q --json "$T/failed.json"
$PY - "$SRC/docs/gpusonar-1.schema.json" "$T/failed.json" <<'PYEOF' || fails=$((fails+1))
import json, sys, jsonschema
doc = json.load(open(sys.argv[2])); jsonschema.validate(doc, json.load(open(sys.argv[1])))
assert doc["complete"] is False, doc
levels = {p["params"].get("level"): p for p in doc["probes"]}
failed = [l for l, p in levels.items() if p["status"] == "failed"]
assert failed == ["l1tlb"], failed
assert "simulated device failure" in levels["l1tlb"]["message"], levels["l1tlb"]
assert {"l1", "tex", "l2"} <= set(levels) and levels["l1"]["status"] == "ok", list(levels)
PYEOF

# --budget: the plan drops --thorough first, then the probes that do not fit, says so on stderr
# and in the document; the clock always stays.
check "budget" 0 $B --device "$MIN" --budget 5 --thorough -q --json "$T/budget.json"
grep -q "left out" "$T/err" && passes=$((passes+1)) || { echo "FAIL: --budget said nothing"; fails=$((fails+1)); }
$PY - "$SRC/docs/gpusonar-1.schema.json" "$T/budget.json" <<'PYEOF' || fails=$((fails+1))
import json, sys, jsonschema
doc = json.load(open(sys.argv[2])); jsonschema.validate(doc, json.load(open(sys.argv[1])))
b = doc["budget"]
assert b["seconds"] == 5 and b["thorough_dropped"] is True and b["planned_seconds"] <= 5, b
ran = {p["name"] for p in doc["probes"]}
assert "clock" in ran and not (ran & set(b["cut_probes"])), (ran, b)
assert "random-walk" in b["cut_probes"], b
PYEOF
check "budget too small" 2 $B --device "$MIN" --budget 0.1 && one_line_error "budget too small" "--budget"

# Clock drift over 2% is reported as a warning.
check "drift" 0 $B run clock --device "sim:$SRC/tests/models/cli_wander.json" --seed 3 -q --json "$T/w.json"
$PY - "$T/w.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
doc = json.load(open(sys.argv[1]))
w = doc["probes"][0]["warnings"]
assert any("SM clock moved" in x for x in w), w
PYEOF

# devices: the GPUs (none here) and every built-in model.
check "devices" 0 $B devices
grep -q "^  hopper " "$T/out" && grep -q "CUDA devices" "$T/out" || { echo "FAIL: devices"; fails=$((fails+1)); }
check "cuda by bad uuid" 2 $B run clock --device cuda:nonsense && one_line_error "cuda spec" "--device cuda:nonsense"

# The environment record: host always; a simulated device says it has no NVML state.
$PY - "$T/run.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
env = json.load(open(sys.argv[1]))["environment"]
assert env["host"] and env["nvml"] is False and "simulated" in env["nvml_reason"], env
assert env["throttled"] is False and env["shared"] is False, env
PYEOF
check "report shows host" 0 $B report --from "$T/run.json"
grep -q "^host " "$T/out" || { echo "FAIL: no host line in the report"; fails=$((fails+1)); }

# info and list.
check "info" 0 $B info --device "$MIN"
grep -q "SM clock (measured) 1500 MHz" "$T/out" || { echo "FAIL: info shows no measured clock"; fails=$((fails+1)); }
check "list" 0 $B list
grep -q "^\* clock" "$T/out" || { echo "FAIL: list shows no clock probe"; fails=$((fails+1)); }

# Out of (simulated) device memory: exit 1, one line naming the sizes and the fix, and the
# document still written, marked incomplete.
check "out of memory" 1 $B run pchase --device sim:hopper --array 200GB --stride 2MB -q --json "$T/oom.json"
one_line_error "out of memory" "device memory needed"
$PY - "$SRC/docs/gpusonar-1.schema.json" "$T/oom.json" <<'PYEOF' || fails=$((fails+1))
import json, sys, jsonschema
doc = json.load(open(sys.argv[2])); jsonschema.validate(doc, json.load(open(sys.argv[1])))
assert doc["complete"] is False and doc["probes"][0]["status"] == "failed", doc
PYEOF

# Printers of saved documents: report --from, compare, plot.
check "report --from" 0 $B report --from "$T/run.json"
grep -q "sm_clock_khz" "$T/out" || { echo "FAIL: report --from printed no figures"; fails=$((fails+1)); }
check "report --from bad" 2 $B report --from "$SRC/tests/models/cli_minimal.json" && one_line_error "from bad" "not a gpusonar/1"
check "compare same" 0 $B compare "$T/run.json" "$T/run.json"
check "compare" 1 $B compare "$T/run.json" "$T/w.json"
grep -q "clock.sm_clock_khz .* \*$" "$T/out" || { echo "FAIL: compare did not mark the moved clock"; cat "$T/out"; fails=$((fails+1)); }
check "compare one file" 2 $B compare "$T/run.json" && one_line_error "compare one" "needs two result files"
check "plot" 0 $B plot "$T/run.json" --out "$T/plots"
[ -s "$T/plots/0-clock-frequency.png" ] && passes=$((passes+1)) || { echo "FAIL: no plot"; fails=$((fails+1)); }
check "plot missing" 2 $B plot "$T/nothing.json" && one_line_error "plot missing" "nothing.json"

# compare: --tolerance, a figure that became "not determined", an invalid document (exit 2).
check "compare tolerance" 0 $B compare "$T/run.json" "$T/run.json" --tolerance 5
check "compare bad tolerance" 2 $B compare "$T/run.json" "$T/run.json" --tolerance -1
$PY - "$T/run.json" "$T/nd.json" "$T/broken.json" <<'PYEOF' || fails=$((fails+1))
import json, sys
doc = json.load(open(sys.argv[1]))
figs = doc["probes"][0]["figures"]
name = next(k for k, f in figs.items() if isinstance(f["value"], (int, float)))
figs[name].update(value=None, reason="made not determined by the test")
json.dump(doc, open(sys.argv[2], "w"))
del doc["probes"][0]["status"]
json.dump(doc, open(sys.argv[3], "w"))
PYEOF
check "compare n/d" 1 $B compare "$T/run.json" "$T/nd.json"
grep -q "n/d *!$" "$T/out" || { echo "FAIL: compare did not list the figure that became n/d"; cat "$T/out"; fails=$((fails+1)); }
check "compare invalid" 2 $B compare "$T/run.json" "$T/broken.json" && one_line_error "compare invalid" 'probes\[0\].status: missing'

# plot: no shell anywhere; a hostile folder name runs nothing and the plots are still drawn.
hostile="$T/q';touch mark1;'\`touch mark2\`"
cd "$T"      # where a shell's `touch mark1` would land
check "plot hostile folder" 0 $B plot "$T/run.json" --out "$hostile"
cd - >/dev/null
ls "$hostile"/*.png >/dev/null 2>&1 && passes=$((passes+1)) || { echo "FAIL: no plot in the hostile folder"; fails=$((fails+1)); }
[ -e "$T/mark1" ] || [ -e "$T/mark2" ] || [ -e "$hostile/mark2" ] && { echo "FAIL: a shell ran"; fails=$((fails+1)); } || passes=$((passes+1))


# GS_PROFILE=1: one line per backend operation, a stage line per probe and a step line per
# progress line, on stderr only (with -q too); the figures are the same as without it.
GS_PROFILE=1 $B report -q --probes clock,smem-banks --device sim:hopper --json "$T/prof.json" > /dev/null 2> "$T/prof.err"
grep -Eq '^gs-profile: [0-9.]+ stage clock$' "$T/prof.err" && grep -Eq '^gs-profile: [0-9.]+ bank [0-9.]+ ' "$T/prof.err" \
  && grep -Eq '^gs-profile: [0-9.]+ step smem-banks: ' "$T/prof.err" \
  && passes=$((passes+1)) || { echo "FAIL: GS_PROFILE lines"; head -3 "$T/prof.err"; fails=$((fails+1)); }
$B report -q --probes clock,smem-banks --device sim:hopper --json "$T/noprof.json" > /dev/null 2> "$T/noprof.err"
grep -q gs-profile "$T/noprof.err" && { echo "FAIL: profile lines without GS_PROFILE"; fails=$((fails+1)); } || passes=$((passes+1))
$B compare "$T/prof.json" "$T/noprof.json" > /dev/null && passes=$((passes+1)) || { echo "FAIL: GS_PROFILE changed figures"; fails=$((fails+1)); }

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
