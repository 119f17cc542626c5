#!/usr/bin/env bash
# The README's examples still run and still have the shape shown. Every ```console block of
# README.md is a transcript: a line "$ COMMAND" is run by bash (gpusonar on PATH is the binary
# under test; the blocks share one scratch folder, in order, so a later block may read what an
# earlier one wrote; pipefail on), and must exit 0: a command that shows a failure ends in
# `; echo "exit $?"`, so that its status is a line of its output, compared exactly. The lines
# shown under a command must appear in its output (stdout and stderr) in that order, each
# compared with whitespace squeezed and every other number standing for any number (measured
# values move, their shape does not); a line "..." stands for lines left out. Also checked: at most 250 lines of at
# most 100 characters, the two commands of the top exist as Makefile targets, and the README
# heading that scripts/slurm/gpusonar.sbatch points to exists.
#
#   readme_examples.sh          the check (ctest runs it)
#   readme_examples.sh --print  each example's command and its whole output now, to refresh
#                               the blocks after the report changed
set -u
GS_E2E_SIM=1   # a sweep over simulator models: the unsanitized simulator build (common.bash)
. "$(dirname "$0")/common.bash"

mode=check
[ "${1:-}" = "--print" ] && mode=print
README="$SRC/README.md"

mkdir -p "$T/bin" "$T/work"
ln -s "$(readlink -f "$B")" "$T/bin/gpusonar"

if [ "$mode" = check ]; then
  lines=$(wc -l < "$README")
  [ "$lines" -le 250 ] || { echo "FAIL: README.md has $lines lines (at most 250)"; fails=$((fails+1)); }
  long=$($PY -c 'import sys; print(" ".join(str(i) for i, l in enumerate(open(sys.argv[1],
    encoding="utf-8").read().splitlines(), 1) if len(l) > 100))' "$README")
  [ -z "$long" ] || { echo "FAIL: README.md lines over 100 characters: $long"; fails=$((fails+1)); }
  for target in run test install; do
    grep -q "^$target:" "$SRC/Makefile" || { echo "FAIL: no Makefile target '$target'"; fails=$((fails+1)); }
  done
  heading=$(sed -n 's/.*README\.md, "\([^"]*\)".*/\1/p' "$SRC/scripts/slurm/gpusonar.sbatch" | head -1)
  if [ -z "$heading" ] || ! grep -q "^#\+ $heading\$" "$README"; then
    echo "FAIL: scripts/slurm/gpusonar.sbatch points to README heading '$heading', which is missing"
    fails=$((fails+1))
  fi
fi

$PY - "$README" "$T" "$mode" <<'PYEOF' || fails=$((fails+1))
import os, re, subprocess, sys

readme, tmp, mode = sys.argv[1], sys.argv[2], sys.argv[3]
env = dict(os.environ, PATH=tmp + "/bin:" + os.environ["PATH"])

# [(command, [shown lines])] from every ```console block, in order
examples, block = [], None
for line in open(readme, encoding="utf-8").read().splitlines():
    if block is None:
        if line.strip() == "```console":
            block = []
        continue
    if line.strip() == "```":
        examples.extend(block)
        block = None
    elif line.startswith("$ "):
        block.append((line[2:], []))
    elif block:
        block[-1][1].append(line)
if not examples:
    print("FAIL: README.md has no ```console example")
    sys.exit(1)

NUMBER = r"-?[0-9][0-9.,]*(?:e[+-]?[0-9]+)?"
def squeeze(s):
    return " ".join(s.split())
def shape(s):
    """a shown line as a pattern: whitespace squeezed, every number any number"""
    out, pos = [], 0
    s = squeeze(s)
    for m in re.finditer(NUMBER, s):
        out.append(re.escape(s[pos:m.start()]))
        out.append(NUMBER)
        pos = m.end()
    out.append(re.escape(s[pos:]))
    return re.compile("".join(out) + r"\Z")

bad = 0
for command, shown in examples:
    run = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=tmp + "/work", env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = run.stdout.decode("utf-8", "replace").splitlines()
    if mode == "print":
        print("$ " + command)
        print("\n".join(output))
        print()
        continue
    if run.returncode != 0:
        print(f"FAIL: '{command}' exited {run.returncode} (a README example exits 0; show a "
              f"failure with '; echo \"exit $?\"')")
        print("\n".join("  " + l for l in output[-5:]))
        bad += 1
        continue
    i = 0
    for want in shown:
        if want.strip() in ("", "..."):
            continue
        # an exit status shown by `echo "exit $?"` is compared exactly; other numbers by shape
        pattern = (re.compile(re.escape(squeeze(want)) + r"\Z")
                   if re.fullmatch(r"exit [0-9]+", want.strip()) else shape(want))
        while i < len(output) and not pattern.match(squeeze(output[i])):
            i += 1
        if i == len(output):
            print(f"FAIL: '{command}': no line of the shape\n  {want}\n(in order after the "
                  f"lines before it; 'readme_examples.sh --print' shows the output now)")
            bad += 1
            break
        i += 1
print(f"{len(examples)} README example(s) run" + (f", {bad} failed" if bad else ", all as shown"))
sys.exit(1 if bad else 0)
PYEOF

[ "$mode" = print ] && exit 0
if [ "$fails" -ne 0 ]; then
  echo "$fails README check(s) failed"
  exit 1
fi
echo "README examples run and keep their shape"
