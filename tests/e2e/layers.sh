#!/usr/bin/env bash
# The layers of DESIGN.md as include arrows, checked on the source tree: util <- plan (the shared
# vocabulary, src/plan.h and a header per operation in src/plan/) <- sim, cuda <- backend (open by
# --device spec) <- result (the result model) <- probes, report <- cli, with analysis pure (util
# only): a probe adds figures to the result tree and never depends on printing. A source that includes a header of a layer above its own fails here,
# naming the file and the include. gs_commit.h is the build's (cmake/commit.cmake), of no layer:
# the result model names the commit in every document.
set -u
. "$(dirname "$0")/common.bash"

# check GLOB ALLOWED_REGEX: every quoted include of the files must match ALLOWED_REGEX
check() {
  local glob=$1 allowed=$2 f inc
  for f in $SRC/$glob; do
    [ -f "$f" ] || continue
    while IFS= read -r inc; do
      if ! [[ $inc =~ $allowed ]]; then
        echo "FAIL ${f#"$SRC"/} includes \"$inc\" (allowed: $allowed)"
        fails=$((fails+1))
      fi
    done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
  done
}

check 'src/util/*'         '^util/'
check 'src/plan.[ch]'      '^(util/|plan\.h$|plan/)'
check 'src/plan/*'         '^(util/|plan/)'
check 'src/analysis/*'     '^(util/|analysis/)'
check 'src/sim/*'          '^(util/|plan\.h$|plan/|sim/)'
check 'src/cuda/*'         '^(util/|plan\.h$|plan/|analysis/|cuda/)'
check 'src/backend.[ch]'   '^(util/|plan\.h$|backend\.h$|sim/sim_backend\.h$|cuda/cuda_backend\.h$)'
check 'src/result/*'       '^(util/|plan\.h$|plan/|result/|gs_commit\.h$)'
check 'src/probes/*'       '^(util/|plan\.h$|backend\.h$|analysis/|result/|probes/)'
check 'src/probes/cache/*' '^(util/|plan\.h$|backend\.h$|analysis/|result/|probes/)'
check 'src/report/*'       '^(util/|plan\.h$|backend\.h$|analysis/|result/|report/)'

# and no circle among the files of one folder (tests/e2e/file_cycles.py)
$PY "$SRC/tests/e2e/file_cycles.py" "$SRC" || fails=$((fails+1))

if [ "$fails" -ne 0 ]; then
  echo "$fails include(s) against the layers"
  exit 1
fi
echo "every include follows the layers"
