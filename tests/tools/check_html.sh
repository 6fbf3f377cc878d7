#!/usr/bin/env bash
# Loads an HTML report in headless Chromium (no network needed: the page is self-contained) and
# checks: the page's script finished (body data-ready="1"), it recorded no console errors
# (data-errors absent), and a screenshot is not blank (png_stats.js counts non-white pixels).
# Usage: check_html.sh FILE OUTDIR   Exit: 0 ok, 1 failed, 77 chromium or node missing.
set -uo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
source "$here/tools_env.sh"
browser="$(command -v chromium || command -v chromium-browser || true)"
[ -n "$browser" ] || { echo "SKIP: chromium is not installed (run ./.ci/bootstrap)" >&2; exit 77; }
require_tool node
file="$(realpath "$1")"; outdir="$2"
mkdir -p "$outdir"
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
       --disable-sync --no-first-run --disable-dev-shm-usage --user-data-dir="$profile" --enable-logging=stderr --v=0)
timeout 120 "$browser" "${flags[@]}" --virtual-time-budget=5000 --dump-dom "file://$file" >"$outdir/dom.html" 2>"$outdir/chromium-dom.log"
timeout 120 "$browser" "${flags[@]}" --virtual-time-budget=5000 --hide-scrollbars --window-size=1280,1600 \
  --screenshot="$outdir/screenshot.png" "file://$file" >/dev/null 2>"$outdir/chromium-shot.log"
status=0
if ! grep -q 'data-ready="1"' "$outdir/dom.html"; then
  echo "FAIL: the page's script did not finish (no data-ready=\"1\" in the DOM)"; status=1
fi
if grep -q 'data-errors=' "$outdir/dom.html"; then
  echo "FAIL: console errors recorded by the page:"; sed -n 's/.*<pre id="console-errors"[^>]*>\([^<]*\)<.*/\1/p' "$outdir/dom.html"; status=1
fi
if grep -E 'Uncaught|:ERROR:CONSOLE|Refused to' "$outdir/chromium-dom.log" >/dev/null; then
  echo "FAIL: errors in Chromium's log:"; grep -E 'Uncaught|:ERROR:CONSOLE|Refused to' "$outdir/chromium-dom.log"; status=1
fi
if [ ! -s "$outdir/screenshot.png" ]; then
  echo "FAIL: no screenshot"; cat "$outdir/chromium-shot.log"; status=1
elif ! node "$here/png_stats.js" "$outdir/screenshot.png" 0.01; then
  status=1
fi
[ $status -eq 0 ] && echo "ok: $file (dom, console, screenshot)"
exit $status
