#!/usr/bin/env bash
# The HTML report's layout in headless Chromium at 1400 px and 800 px wide: a copy of the page with
# html_layout_probe.js appended measures the DOM (the table fits the window, code cells are monospace,
# one line and scroll inside the cell, directory labels are whole, drivers and plan come before the
# full table); html_layout_check.js judges the numbers. Screenshots are kept in OUTDIR for people.
# Usage: check_html_layout.sh FILE OUTDIR   Exit: 0 ok, 1 failed, 77 chromium or node missing.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/tools_env.sh"
browser="$(command -v chromium || command -v chromium-browser || true)"
[ -n "$browser" ] || { echo "SKIP: chromium is not installed (run ./.ci/bootstrap)" >&2; exit 77; }
require_tool node
outdir="$2"
mkdir -p "$outdir"
page="$outdir/probed.html"
{ sed 's#</body></html>##' "$1"; printf '<script>'; cat "$here/html_layout_probe.js"; printf '</script>\n</body></html>\n'; } >"$page"
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
       --disable-sync --no-first-run --disable-dev-shm-usage --hide-scrollbars --user-data-dir="$profile")
probes=()
for width in 1400 800; do
  timeout 120 "$browser" "${flags[@]}" --virtual-time-budget=5000 --window-size=$width,1200 --dump-dom \
    "file://$(realpath "$page")" >"$outdir/dom-$width.html" 2>"$outdir/chromium-$width.log"
  sed -n 's#.*<pre id="layout-probe">\([^<]*\)</pre>.*#\1#p' "$outdir/dom-$width.html" | sed 's/&quot;/"/g; s/&amp;/\&/g; s/&lt;/</g; s/&gt;/>/g' >"$outdir/probe-$width.json"
  [ -s "$outdir/probe-$width.json" ] || { echo "FAIL: no layout probe in the DOM at ${width}px"; cat "$outdir/chromium-$width.log"; exit 1; }
  timeout 120 "$browser" "${flags[@]}" --virtual-time-budget=5000 --window-size=$width,1600 \
    --screenshot="$outdir/screenshot-$width.png" "file://$(realpath "$1")" >/dev/null 2>&1
  probes+=("$outdir/probe-$width.json")
done
node "$here/html_layout_check.js" "${probes[@]}"
