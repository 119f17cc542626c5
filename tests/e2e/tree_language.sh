#!/usr/bin/env bash
# The repository speaks of the product, not of how it was developed: no tracked file (code,
# comments, tests, docs, scripts, models) may number work sessions or device calls, cite an issue
# number as a source, point to the exploration folder that left the tree, or cite a style guide
# that is not in it. The patterns are precise on purpose: a Slurm session, a CUDA call or a bug
# report in prose do not match; a numbered session, call or issue does. A hit prints as
# file:line:text and fails the test. Skipped (77) outside a git checkout.
set -u
. "$(dirname "$0")/common.bash"

command -v git >/dev/null 2>&1 && git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
  { echo "SKIP: $SRC is not a git checkout (the test reads its tracked files)"; exit 77; }

# One extended regular expression per rule, with what it catches.
rules=(
  '\bsessions? ([0-9]|[0-9]+-[0-9])'       # a numbered one, or a range
  '\bsession-[0-9]'                        # hyphenated to a number
  "\\bsession [0-9]+'s"                    # a numbered one's
  '\bcalls? [0-9]+(-[0-9]+)?([);:,.]|$| and [0-9])'   # numbered, not "a call" in prose
  '\bcall[0-9]+[ab]?\b'                    # in a file name
  # an issue number cited as a source, in parentheses, after a verb or with "#"
  '([(;,] ?|gpusonar |[Tt]he target of )[Ii]ssues? #?[0-9]+|[Ii]ssues? #?[0-9]+[),;:]'
  '[Ii]ssues? [0-9]+ (asks|item)|[Ii]ssue #[0-9]+'
  'asked for an H[0-9]{3}\b'                # which card a run was lent
  'docs/results'                           # the exploration folder, no longer in the tree
  'STYLE\.md'                              # the style rules live in CONTRIBUTING.md
)

# Tracked text files, but not the documents a hardware page quotes (measured output, kept as
# written) nor this test, which names the patterns.
mapfile -t files < <(git -C "$SRC" ls-files -z | tr '\0' '\n' |
  grep -v -e '^docs/hardware/.*\.json$' -e '^tests/fixtures/' -e '^tests/e2e/tree_language\.sh$')

for rule in "${rules[@]}"; do
  hits=$(cd "$SRC" && grep -I -n -E -- "$rule" "${files[@]}" 2>/dev/null)
  if [ -n "$hits" ]; then
    echo "FAIL: development-process language ($rule):"
    printf '%s\n' "$hits" | head -20 | sed 's/^/  /'
    n=$(printf '%s\n' "$hits" | wc -l)
    [ "$n" -gt 20 ] && echo "  ... and $((n - 20)) more"
    fails=$((fails + 1))
  fi
done

if [ "$fails" -ne 0 ]; then
  echo "$fails rule(s) matched: say what the product does and why, not when or in which run"
  exit 1
fi
echo "no development-process language in ${#files[@]} tracked files"
