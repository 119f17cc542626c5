#!/usr/bin/env bash
# End-to-end tests of output and input handling on a simulator model: links in shared (sticky)
# folders, checks made before measuring (long names, FIFOs, /dev/tty), outputs written
# independently, no output onto an input, stdout checked at exit, options a command does not
# use, signals (SIGHUP, writers, blocking reads), and suggestions for typos.
set -u
. "$(dirname "$0")/common.bash"
MIN="sim:$SRC/tests/models/cli_minimal.json"
passes=0
ok() { passes=$((passes+1)); }
bad() { echo "FAIL $*"; fails=$((fails+1)); }

check() { # NAME EXPECTED_STATUS COMMAND... ; stderr kept in $T/err, stdout in $T/out
  local name=$1 want=$2; shift 2
  "$@" >"$T/out" 2>"$T/err"; local got=$?
  if [ "$got" -ne "$want" ]; then
    bad "$name: exit $got, wanted $want"; sed 's/^/  stderr: /' "$T/err" | head -5; return 1
  fi
  ok; return 0
}
says() { # NAME NEEDLE: stderr holds NEEDLE
  grep -q -- "$2" "$T/err" && ok || { bad "$1: stderr lacks '$2':"; sed 's/^/  /' "$T/err"; }
}

# ---- links in a sticky world-writable folder (the kernel's protected_symlinks rule) ----------
S="$T/shared"; mkdir "$S"; chmod 1777 "$S"
echo secret >"$T/victim"; chmod 600 "$T/victim"
ln -s "$T/victim" "$S/result.json"
if [ "$(id -u)" -eq 0 ]; then
  chown -h nobody "$S/result.json"          # a link planted by another user
  check "foreign link refused" 2 $B --device "$MIN" --probes clock -q --json "$S/result.json"
  says "foreign link refused" "protected_symlinks"
  [ "$(cat "$T/victim")" = secret ] && ok || bad "the link's target was replaced"
  chown -h root "$S/result.json"            # the user's own link is followed
fi
# --out-dir's names (host-UUID.json) are predictable: a link planted under one is refused too.
GPUSONAR_HOST=node7 $B --device "$MIN" --probes clock -q --out-dir "$T/learn" >/dev/null 2>&1
name=$(ls "$T/learn")
ln -s "$T/victim" "$S/$name"
if [ "$(id -u)" -eq 0 ] && [ -n "$name" ]; then
  chown -h nobody "$S/$name"
  check "foreign link in --out-dir" 2 env GPUSONAR_HOST=node7 $B --device "$MIN" --probes clock -q --out-dir "$S"
  says "foreign link in --out-dir" "protected_symlinks"
  [ "$(cat "$T/victim")" = secret ] && ok || bad "--out-dir: the link's target was replaced"
fi
check "own link followed" 0 $B --device "$MIN" --probes clock -q --json "$S/result.json"
[ -L "$S/result.json" ] && grep -q gpusonar/1 "$T/victim" && ok || bad "own link not followed"

# ---- checks before measuring -----------------------------------------------------------------
long=$(printf 'n%.0s' $(seq 1 250)).json                   # 255 bytes: must work
check "255-byte name" 0 $B --device "$MIN" --probes clock -q --json "$T/$long"
[ -s "$T/$long" ] && ok || bad "255-byte name not written"
check "256-byte name" 2 $B --device "$MIN" --probes clock -q --json "$T/x$long"
says "256-byte name" "too long"

mkfifo "$T/fifo"
check "FIFO without reader" 2 timeout 20 $B --device "$MIN" --probes clock -q --json "$T/fifo"
says "FIFO without reader" "no process reads"
cat "$T/fifo" >"$T/from_fifo" & reader=$!
check "FIFO with reader" 0 timeout 20 $B --device "$MIN" --probes clock -q --json "$T/fifo"
wait $reader; grep -q gpusonar/1 "$T/from_fifo" && ok || bad "nothing came through the FIFO"

if command -v setsid >/dev/null; then
  check "/dev/tty without terminal" 2 setsid -w $B --device "$MIN" --probes clock -q --json /dev/tty
  says "/dev/tty without terminal" "/dev/tty"
fi

# ---- a device list is checked whole before the first device is measured ----------------------
check "device list checked whole" 2 $B --device sim:fermi,sim:no-such-model --probes clock -q --out-dir "$T/fleet"
[ ! -e "$T/fleet" ] && ok || bad "the first device was measured"

# ---- outputs are written independently ------------------------------------------------------
check "one output fails" 1 $B run cache --target l1 --device sim:fermi -q --json /dev/full --csv "$T/d"
[ -n "$(ls "$T/d" 2>/dev/null)" ] && ok || bad "--csv not written beside a failed --json"
grep -q "== cache" "$T/out" && ok || bad "no text report beside a failed --json"
[ "$(grep -c . "$T/err")" -eq 1 ] && says "one output fails" "/dev/full" || bad "one message per failed output"

# ---- no output is an input of the same run ---------------------------------------------------
check "document" 0 $B --device "$MIN" --probes clock -q --json "$T/doc.json"
cp "$T/doc.json" "$T/keep.json"
check "html onto its input" 2 $B html "$T/doc.json" -o "$T/doc.json"
cmp -s "$T/doc.json" "$T/keep.json" && ok || bad "html replaced its input"
ln -s doc.json "$T/alias.json"
check "html onto its input by a link" 2 $B html "$T/alias.json" -o "$T/doc.json"
check "export onto its input" 2 $B export accel-sim "$T/doc.json" --out "$T/doc.json"
cp "$SRC/tests/models/cli_minimal.json" "$T/model.json"
check "json onto the model" 2 $B --device "sim:$T/model.json" --probes clock -q --json "$T/model.json"
cmp -s "$T/model.json" "$SRC/tests/models/cli_minimal.json" && ok || bad "the model was replaced"
check "trace and json one file" 2 $B run pchase --device sim:fermi -q --trace "$T/F" --json "$T/F"
[ ! -e "$T/F" ] && ok || bad "trace and json: a file was written"
check "verdicts and json one file" 2 $B verify --device sim:fermi --probes clock -q --verdicts "$T/V" --json "$T/V"
check "verdicts checked first" 2 $B verify --device sim:fermi --probes clock -q --verdicts "$T/none/v.json"
says "verdicts checked first" "--verdicts"

# ---- input messages --------------------------------------------------------------------------
check "folder as input" 2 $B html "$T" && says "folder as input" "is a folder"
check "device as input" 2 $B html /dev/zero && says "device as input" "character device"
check "missing input" 2 $B html "$T/none.json"
grep -q -- "-1" "$T/err" && bad "missing input: '-1' in the message" || says "missing input" "No such file"
ln -s "$T/nowhere.json" "$T/dangling.json"
check "dangling input" 2 $B html "$T/dangling.json" && says "dangling input" "a link to"
check "dangling output" 2 $B --device "$MIN" --probes clock -q --json "$T/nowhere/x" # folder missing
ln -s "$T/nowhere/x.json" "$T/dangling_out.json"
check "dangling output link" 2 $B --device "$MIN" --probes clock -q --json "$T/dangling_out.json"
grep -q "folder '.' does not exist" "$T/err" && bad "dangling link blames '.'" || says "dangling output link" "is a link to"
printf '\xef\xbb\xbf' >"$T/bom.json"; cat "$T/doc.json" >>"$T/bom.json"
check "byte-order mark" 0 $B report --from "$T/bom.json"
check "html -o /dev/full" 1 $B html "$T/doc.json" -o /dev/full
says "html -o /dev/full" "/dev/full" && says "html -o /dev/full" "No space left"

# ---- stdout is checked at exit ---------------------------------------------------------------
for cmd in "run smem-banks --device sim -q" "report --from $T/doc.json" "list" \
           "fleet --allow-few $T/doc.json"; do
  $B $cmd >/dev/full 2>"$T/err"; got=$?
  [ "$got" -eq 1 ] && grep -q "standard output" "$T/err" && ok || bad "$cmd >/dev/full: exit $got"
done

# ---- options a command does not use ----------------------------------------------------------
for opt in "--json x.json" "--csv d" "--out-dir d" "--probes nosuch" "--budget -5" "-q"; do
  check "report --from $opt" 2 $B report --from "$T/doc.json" $opt && says "$opt" "does not apply"
done

# ---- signals ---------------------------------------------------------------------------------
check "sighup" 129 env GS_TEST_INTERRUPT_AFTER=1 GS_TEST_SIGNAL=HUP $B --device "$MIN" -q --probes clock,clock --json "$T/hup.json"
$PY - "$T/hup.json" <<'PYEOF' || bad "SIGHUP document"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["complete"] is False and "SIGHUP" in doc["incomplete_reason"], doc
PYEOF
set -m                                      # background jobs take SIGINT (own process group)
mkfifo "$T/in_fifo"
for sig in INT TERM; do                     # a signal during a blocking read
  $B html "$T/in_fifo" -o "$T/page.html" 2>"$T/err" & pid=$!
  sleep 0.3; kill -$sig $pid; wait $pid; got=$?
  want=$([ $sig = INT ] && echo 130 || echo 143)
  [ "$got" -eq "$want" ] && ok || bad "html on a FIFO, SIG$sig: exit $got, wanted $want"
done
mkdir "$T/bin"; printf '#!/bin/sh\nexec sleep 10\n' >"$T/bin/gnuplot"; chmod +x "$T/bin/gnuplot"
PATH="$T/bin:$PATH" $B plot "$T/doc.json" --out "$T/plots" 2>"$T/err" & pid=$!
sleep 0.5; kill -INT -- -$pid; wait $pid; got=$?             # Ctrl-C: the whole process group
[ "$got" -eq 130 ] && ok || bad "plot, first Ctrl-C: exit $got, wanted 130"
grep -q "gnuplot installed" "$T/err" && bad "plot interrupted blames gnuplot" || ok
[ -z "$(ls -A "$T/plots" 2>/dev/null | grep tmp)" ] && ok || bad "plot left a temporary file"
set +m

# ---- suggestions for typos -------------------------------------------------------------------
check "run cahce" 2 $B run cahce && says "run cahce" "did you mean 'cache'"
check "--taget" 2 $B run cache --taget l1 --device sim:fermi && says "--taget" "did you mean '--target'"
check "--format md" 2 $B --format md && says "--format md" "did you mean 'markdown'"
check "--devise sim info" 2 $B --devise sim info && says "--devise" "'--devise'"
grep -q "'sim' is not a command" "$T/err" && bad "--devise: blames 'sim'" || ok
check "command typo" 2 $B lsit && says "command typo" "did you mean 'list'"
check "model typo" 2 $B --device sim:hoper --probes clock && says "model typo" "did you mean 'hopper'"

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
