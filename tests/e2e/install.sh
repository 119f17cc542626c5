#!/usr/bin/env bash
# `make install`'s part in CMake: the binary, the built-in models and the man page land under a
# prefix, the installed binary finds its models there, and the man page (made from the --help
# tables) names every command, probe and option that --help names, and renders without warnings.
set -u
. "$(dirname "$0")/common.bash"
passes=0
ok() { passes=$((passes+1)); }
bad() { echo "FAIL $*"; fails=$((fails+1)); }
BUILD=$(dirname "$B")

cmake --install "$BUILD" --prefix "$T/prefix" >"$T/install.log" 2>&1 || { bad "cmake --install"; cat "$T/install.log"; }
for f in bin/gpusonar share/gpusonar/models/hopper.json share/man/man1/gpusonar.1; do
  [ -s "$T/prefix/$f" ] && ok || bad "not installed: $f"
done
# The installed binary finds the installed models (not the source tree's).
env -u GS_SOURCE_DIR GS_MODELS_DIR= "$T/prefix/bin/gpusonar" models >"$T/models" 2>&1 && grep -q "^hopper " "$T/models" && ok || bad "installed models: $(cat "$T/models")"

MAN="$T/prefix/share/man/man1/gpusonar.1"
for c in $($B --help | sed -n '/^Commands:/,/^$/p' | awk 'NR>1 && NF {print $1}'); do
  grep -q "^\.SS $c\$" "$MAN" && ok || bad "man page lacks command $c"
done
roff() { echo "$1" | sed 's/-/\\-/g'; }   # hyphens are \- in roff
for p in $($B list | sed 's/^[* ] //' | awk '{print $1}'); do
  grep -qF ".SS $(roff "$p")" "$MAN" && ok || bad "man page lacks probe $p"
  for o in $($B run "$p" --help | grep -o '^  --[a-z0-9-]*' | sed 's/^  --//' | grep -v '^help$'); do
    grep -qF "\fB\-\-$(roff "$o")\fR" "$MAN" && ok || bad "man page lacks $p --$o"
  done
done
if command -v groff >/dev/null 2>&1; then
  groff -man -Tutf8 -ww -z "$MAN" 2>"$T/groff" && [ ! -s "$T/groff" ] && ok || bad "groff warnings: $(head -3 "$T/groff")"
  groff -man -Tutf8 -P-cbou "$MAN" 2>/dev/null | grep -q "EXIT STATUS" && ok || bad "rendered page lacks EXIT STATUS"
else
  echo "note: groff not installed; the page was checked as text only"
fi
echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
