# Sourced by every end-to-end test (tests/e2e/*.sh): the binary under test, the source tree,
# the Python with jsonschema (Debian's, not a pyenv one), a scratch folder removed on exit, and a
# failure counter.
B=${GPUSONAR:?set GPUSONAR to the gpusonar binary}
# A sweep over many simulator models (GS_E2E_SIM=1 before sourcing this) runs the test build's
# unsanitized simulator binary where there is one (CMakeLists.txt, gpusonar_sim).
if [ "${GS_E2E_SIM:-0}" = 1 ] && [ -n "${GPUSONAR_SIM:-}" ]; then B=$GPUSONAR_SIM; fi
SRC=${GS_SOURCE_DIR:?set GS_SOURCE_DIR to the source tree}
PY=/usr/bin/python3
export PYTHONPATH="$SRC/tests/e2e${PYTHONPATH:+:$PYTHONPATH}"   # e2e_doc.py: the schema check
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0

# run NAME ARGS...: gpusonar ARGS, quiet, seeded with $SEED (the test's, default 1), into
# $T/NAME.json with its stdout and stderr beside it; a failing exit is counted and its stderr shown.
run() {
  local name=$1; shift
  if ! "$B" "$@" -q --seed "${SEED:-1}" --json "$T/$name.json" >"$T/$name.txt" 2>"$T/$name.err"
  then
    echo "FAIL $name: exit status"; sed 's/^/  /' "$T/$name.err"; fails=$((fails+1)); return 1
  fi
}

# cache_truth MODEL_SPEC TRUTH SEED LABEL: run `cache --target all` on sim:MODEL_SPEC and compare
# every level with the truth read from the model file TRUTH (tests/e2e/cache_truth.py).
cache_truth() {
  if ! $B run cache --target all -q --device "sim:$1" --seed "$3" --json "$T/out.json" \
       >/dev/null 2>"$T/err"; then
    echo "FAIL $4 seed $3: exit status"; sed 's/^/  /' "$T/err"; fails=$((fails+1))
    return
  fi
  $PY "$SRC/tests/e2e/cache_truth.py" "$T/out.json" "$2" "$SRC/docs/gpusonar-1.schema.json" \
    || { echo "FAIL $4 seed $3"; fails=$((fails+1)); }
}

# Parts of a test that run at once, as separate processes: `par FUNCTION ARGS...` starts the
# function in a background subshell with its own scratch folder ($T/par.N) and failure counter,
# at most GS_TEST_JOBS (default: the CPUs) at a time; `par_wait` waits for every part, prints
# each part's output in the order the parts were started, and counts each part that failed in
# fails. A test that checks many models one by one takes the time of its longest part, not of
# their sum, once the machine has CPUs to spare.
par_jobs=${GS_TEST_JOBS:-$(nproc)}
par_n=0
par_first=0
par() {
  while [ "$(jobs -rp | wc -l)" -ge "$par_jobs" ]; do
    wait -n
  done
  local dir="$T/par.$par_n"
  mkdir -p "$dir"
  ( T=$dir; fails=0; "$@"; echo $((fails > 0)) >"$dir.rc" ) >"$dir.log" 2>&1 &
  par_n=$((par_n + 1))
}
par_wait() {
  local i
  wait
  for ((i = par_first; i < par_n; i++)); do
    cat "$T/par.$i.log"
    [ "$(cat "$T/par.$i.rc" 2>/dev/null)" = 0 ] || fails=$((fails + 1))
  done
  par_first=$par_n
}

# refused DEVICE PROBE ARGS...: `run PROBE` on DEVICE refuses each ARGS (one word list each) with
# a nonzero exit and a message that names the probe or an option.
refused() {
  local device=$1 probe=$2 args; shift 2
  for args in "$@"; do
    # shellcheck disable=SC2086  # ARGS is a word list
    if "$B" run "$probe" --device "$device" -q $args >/dev/null 2>"$T/usage.err"; then
      echo "FAIL '$args' was accepted"; fails=$((fails+1))
    elif ! grep -q -e "$probe" -e "--" "$T/usage.err"; then
      echo "FAIL '$args': no message"; sed 's/^/  /' "$T/usage.err"; fails=$((fails+1))
    fi
  done
}

# listed PROBE: `gpusonar list` names PROBE.
listed() {
  "$B" list >"$T/list.txt" 2>&1
  grep -q "^ *$1" "$T/list.txt" || { echo "FAIL list: no $1"; fails=$((fails+1)); }
}
