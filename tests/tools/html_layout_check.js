// Checks the measurements html_layout_probe.js took (one JSON file per window width) and prints one
// line per failed check. Usage: node html_layout_check.js PROBE.json...   Exit: 0 ok, 1 failed.
"use strict";
const fs = require("fs");
let failures = 0;
function fail(file, text) { console.log(`FAIL ${file}: ${text}`); failures++; }
for (const file of process.argv.slice(2)) {
  const p = JSON.parse(fs.readFileSync(file, "utf8"));
  if (p.pageScrollWidth > p.viewport + 1) fail(file, `the page scrolls sideways: ${p.pageScrollWidth}px content in a ${p.viewport}px window`);
  if (!p.table) { fail(file, "no findings table"); continue; }
  if (p.table.right > p.viewport + 1) fail(file, `the findings table ends at ${p.table.right}px, past the ${p.viewport}px window`);
  if (p.rows === 0) fail(file, "the findings table has no rows");
  if (p.rows > 0 && p.codes.length === 0) fail(file, "no code cells (td.code pre) in the findings table");
  if (p.rows > 0 && p.labels.length === 0) fail(file, "no bar labels (.bar-label) in the charts");
  const minCode = p.viewport >= 1200 ? 300 : 100;
  p.codes.forEach((c, i) => {
    if (c.whiteSpace !== "pre") fail(file, `code cell ${i} wraps (white-space: ${c.whiteSpace})`);
    if (!/mono/i.test(c.fontFamily)) fail(file, `code cell ${i} is not monospace (${c.fontFamily})`);
    if (c.overflowX !== "auto" && c.overflowX !== "scroll") fail(file, `code cell ${i} does not scroll sideways (overflow-x: ${c.overflowX})`);
    if (c.clientWidth < minCode) fail(file, `code cell ${i} is ${c.clientWidth}px wide (< ${minCode}px)`);
    if (c.height > c.lineHeight * 2 + 20) fail(file, `code cell ${i} is ${c.height}px high: its line wrapped`);
  });
  p.overflowingCells.forEach((c) => fail(file, `a cell spills out of its column (${c.scrollWidth}px in ${c.clientWidth}px): ${c.text}`));
  (p.wrapped || []).forEach((text) => fail(file, `a header or severity badge wraps onto several lines: "${text}"`));
  p.labels.forEach((l) => {
    if (l.left < l.figureLeft - 0.5) fail(file, `directory label "${l.text}" starts ${l.figureLeft - l.left}px left of its chart (cut)`);
    if (l.scrollWidth > l.clientWidth + 1) fail(file, `directory label "${l.text}" is clipped (${l.scrollWidth}px in ${l.clientWidth}px)`);
    if (l.right > l.figureRight + 0.5) fail(file, `directory label "${l.text}" runs past its chart`);
  });
  const s = p.sections;
  for (const name of ["drivers", "plan"]) {
    if (s[name] !== null && s[name] >= s.findings) fail(file, `the ${name} section comes after the full findings table`);
  }
  if (failures === 0) console.log(`ok: ${file}: ${p.viewport}px, ${p.rows} rows, ${p.codes.length} code cells, ${p.labels.length} labels`);
}
process.exit(failures ? 1 : 0);
