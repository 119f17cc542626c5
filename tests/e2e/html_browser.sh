#!/usr/bin/env bash
# End-to-end test of `gpusonar html` in a real browser: result documents made on the simulator
# (the cache probe on the Fermi model; clock, smem-banks, mem-bandwidth and roofline on every
# built-in model), a saved H100 report (tests/fixtures/h100-report.json) and a hostile document
# whose strings hold markup are turned into pages, loaded in Debian's chromium headless, and the
# rendered DOM and the console log are checked by tests/e2e/html_dom.py: no console message,
# nothing that could run or load anything, the hierarchy diagram, the staircase and the roofline
# first, every probe's table and every series drawn (fits and intervals onto their series). Each
# page is also laid out 1,400 px wide: nothing may reach past the right edge.
# Without a chromium that starts, the test says why and is skipped (exit 77), never passed.
set -u
. "$(dirname "$0")/common.bash"

# The cache document is only the pages' input: the unsanitized simulator build where there is one
# (common.bash, GS_E2E_SIM), a third of the sanitized binary's time; `html` runs sanitized below.
${GPUSONAR_SIM:-$B} run cache --device sim:fermi -q --json "$T/fermi.json" >/dev/null 2>"$T/err" \
  || { echo "FAIL: cache on sim:fermi"; cat "$T/err"; exit 1; }
$B --probes clock,smem-banks --device sim -q --json "$T/hopper.json" >/dev/null 2>"$T/err" \
  || { echo "FAIL: clock,smem-banks on sim"; cat "$T/err"; exit 1; }
MODELS=$($B models | awk '{print $1}')
for m in $MODELS; do
  $B --probes clock,smem-banks,mem-bandwidth,roofline --device "sim:$m" -q \
     --json "$T/model-$m.json" >/dev/null 2>"$T/err" \
    || { echo "FAIL: quick probes on sim:$m"; cat "$T/err"; exit 1; }
done
cp "$SRC/tests/fixtures/h100-report.json" "$T/h100.json"

# The command itself, browser or not: --help; a bad document is a one-line error and exit 2; the
# page goes to stdout by default, to -o FILE or --out FILE whole, and nowhere on a write error.
$B html --help >"$T/out" && grep -q "usage: gpusonar html" "$T/out" \
  || { echo "FAIL: html --help"; fails=$((fails+1)); }
printf '{"schema": "other"}' >"$T/bad.json"
for bad in "$T/bad.json" "$T/missing.json"; do
  $B html "$bad" >"$T/out" 2>"$T/err"; rc=$?
  [ "$rc" -eq 2 ] && [ "$(grep -c . "$T/err")" -eq 1 ] && [ ! -s "$T/out" ] \
    || { echo "FAIL: html $bad gave exit $rc"; cat "$T/err"; fails=$((fails+1)); }
done
$B html "$T/hopper.json" >"$T/stdout.html" && $B html "$T/hopper.json" --out "$T/out.html" \
  && cmp -s "$T/stdout.html" "$T/out.html" \
  || { echo "FAIL: html to stdout differs from --out FILE"; fails=$((fails+1)); }
mkdir "$T/ro" && chmod 500 "$T/ro"
$B html "$T/hopper.json" -o "$T/ro/x.html" 2>"$T/err"; rc=$?
if [ "$(id -u)" -ne 0 ]; then   # root writes anywhere
  [ "$rc" -eq 2 ] && [ -z "$(ls -A "$T/ro")" ] \
    || { echo "FAIL: unwritable -o gave exit $rc or left a file"; fails=$((fails+1)); }
fi
$B html "$T/hopper.json" -o /nonexistent-dir/x.html 2>"$T/err"; rc=$?
[ "$rc" -eq 2 ] && grep -q "/nonexistent-dir/x.html" "$T/err" \
  || { echo "FAIL: -o into a missing folder gave exit $rc"; fails=$((fails+1)); }
[ "$fails" -eq 0 ] || exit 1

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
  echo "SKIP: chromium is not installed (scripts/setup.sh --test installs Debian's chromium)"
  exit 77
fi

# browse NAME FILE.html: the DOM chromium rendered in a 1,400 x 900 window into $T/NAME.dom, its
# log into $T/NAME.log.
browse() {
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$T/profile-$1" --window-size=1400,900 --hide-scrollbars \
    --enable-logging=stderr --v=0 --dump-dom "file://$2" >"$T/$1.dom" 2>"$T/$1.log"
}

# The harness must see console messages, or "no console error" would prove nothing: a control
# page logs one. A chromium that cannot render it at all is a skip, with its log.
printf '<!DOCTYPE html><title>c</title><p id="control">c</p><script>console.error("gs-control")</script>\n' \
  >"$T/control.html"
if ! browse control "$T/control.html" || ! grep -q 'id="control"' "$T/control.dom"; then
  echo "SKIP: $CHROMIUM does not start headless here; its log ends:"; tail -5 "$T/control.log"
  exit 77
fi
grep -q ':CONSOLE.*gs-control' "$T/control.log" \
  || { echo "FAIL: chromium's log shows no console messages; the check would be blind"; exit 1; }

# measured NAME: a copy of $T/NAME.html that writes its laid-out width into the DOM, as
# $T/NAME-measured.html. The page's policy stays; it lets only this one script run, named by its
# hash, so a script that escaped the escaping would still be blocked (and found by html_dom.py).
MEASURE='document.body.setAttribute("data-scroll-width",document.documentElement.scrollWidth)'
MEASURE_HASH=$($PY -c 'import base64, hashlib, sys
print(base64.b64encode(hashlib.sha256(sys.argv[1].encode()).digest()).decode())' "$MEASURE")
measured() {
  sed -e "s|content=\"default-src 'none';|content=\"default-src 'none'; script-src 'sha256-$MEASURE_HASH';|" \
      -e "s|</body>|<script id=\"gs-measure\">$MEASURE</script></body>|" \
      "$T/$1.html" >"$T/$1-measured.html"
}

# width NAME: the page laid out in a 1,400 px window must be no wider than it. With
# GS_HTML_SHOTS=DIR the first screen is kept as DIR/NAME.png, to be looked at.
width() {
  w=$(sed -n 's/.*data-scroll-width="\([0-9]*\)".*/\1/p' "$T/$1.dom" | head -1)
  if [ -z "$w" ] || [ "$w" -gt 1400 ]; then
    echo "FAIL $1: the page is ${w:-of unknown width} px wide in a 1400 px window"
    fails=$((fails+1))
  fi
  if [ -n "${GS_HTML_SHOTS:-}" ]; then
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
      --disable-background-networking --disable-component-update --disable-sync \
      --user-data-dir="$T/profile-s-$1" --window-size=1400,900 --hide-scrollbars \
      --screenshot="$GS_HTML_SHOTS/$1.png" "file://$T/$1.html" >/dev/null 2>&1
  fi
}

# page NAME: RESULT $T/NAME.json -> $T/NAME.html -> browser -> html_dom.py.
page() {
  if ! $B html "$T/$1.json" -o "$T/$1.html" 2>"$T/err"; then
    echo "FAIL $1: gpusonar html exit status"; sed 's/^/  /' "$T/err"; fails=$((fails+1)); return
  fi
  measured "$1"
  if ! browse "$1" "$T/$1-measured.html"; then
    echo "FAIL $1: chromium failed on the page"; tail -5 "$T/$1.log"; fails=$((fails+1)); return
  fi
  $PY "$SRC/tests/e2e/html_dom.py" "$T/$1.json" "$T/$1.dom" "$T/$1.log" || fails=$((fails+1))
  width "$1"
}

page fermi
page hopper
for m in $MODELS; do page "model-$m"; done
page h100

# A hostile document: markup in every string the page shows (device, model, command line,
# environment keys and values, probe and figure names, levels, units, methods, reasons, messages,
# warnings, series names and axis labels).
$PY - "$T/hopper.json" "$T/hostile.json" <<'PYEOF'
import json, sys
H = ("<script>alert(1)</script>\"onmouseover=alert(2) x='</svg><img src=x onerror=alert(3)>"
     "<a href=http://example.com/>&amp;")
doc = json.load(open(sys.argv[1]))
doc["device"]["name"] += H
doc["device"]["model"] = H
doc["command_line"].append(H)
doc["tool"]["version"] = H
doc["complete"], doc["incomplete_reason"] = False, H
doc.setdefault("environment", {})[H] = [H, {H: H}]
p = doc["probes"][0]
p["name"] += H
p["params"]["level"] = H
p["status"], p["message"] = "failed", H
p["warnings"].append(H)
f = next(iter(p["figures"].values()))
f.update(unit=H, method=H)
p["figures"][H] = {"value": None, "unit": H, "ci95": None, "n": 0, "method": H, "reason": H}
s = next(iter(p["series"].values()))
p["series"][H] = dict(s, x_label=H, x_unit=H, y_label=H, y_unit=H)
json.dump(doc, open(sys.argv[2], "w"))
PYEOF
page hostile
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$T/hostile.html" \
  || { echo "FAIL hostile: the markup is not shown as text"; fails=$((fails+1)); }

[ "$fails" -eq 0 ] && echo "html_browser: $((4 + $(echo $MODELS | wc -w))) pages render in $($CHROMIUM --version 2>/dev/null | head -1)"
exit $((fails > 0))
