// The HTML report's inline CSS and vanilla JS, kept apart from the markup code in html.cpp.
#include "html_assets.hpp"

namespace tr2audit::report::html {

std::string_view stylesheet() {
  return R"css(
:root { --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #ffffff; --panel: #f6f8fa;
        --blocker: #8b0000; --high: #cf222e; --medium: #bf8700; --low: #0969da; --info: #1a7f37;
        --gpu-keep: #cf222e; --dual-run: #bf8700; --trainium2-pilot: #1a7f37; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: var(--fg); background: var(--bg); overflow-wrap: anywhere; }
header { padding: 16px 24px; border-bottom: 1px solid var(--line); background: var(--panel); }
header h1 { margin: 0; font-size: 20px; }
header p { margin: 4px 0 0; color: var(--muted); }
main { padding: 16px 24px; max-width: 1400px; }
section { margin: 0 0 24px; }
h2 { font-size: 16px; margin: 0 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.overview { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
.overview > div { flex: 1 1 320px; min-width: 0; }
.verdict { font-size: 22px; font-weight: 700; text-transform: uppercase; }
.verdict.gpu-keep { color: var(--gpu-keep); } .verdict.dual-run { color: var(--dual-run); } .verdict.trainium2-pilot { color: var(--trainium2-pilot); }
.charts { display: flex; flex-wrap: wrap; gap: 32px; }
.chart { margin: 0; flex: 1 1 360px; min-width: 0; max-width: 640px; }
.chart figcaption { font-weight: 600; margin-bottom: 4px; }
.bars { display: grid; grid-template-columns: minmax(0, 45%) minmax(40px, 1fr) auto; gap: 4px 8px; align-items: center; font-size: 12px; }
.bar-label { text-align: right; overflow-wrap: anywhere; }
.bar-track { display: block; height: 14px; }
.bar { display: block; height: 14px; border-radius: 3px; background: #0969da; }
.muted { color: var(--muted); }
.sev { display: inline-block; padding: 0 6px; border-radius: 10px; color: #fff; font-size: 12px; font-weight: 600; }
.sev.blocker { background: var(--blocker); } .sev.high { background: var(--high); } .sev.medium { background: var(--medium); }
.sev.low { background: var(--low); } .sev.info { background: var(--info); }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
th { white-space: nowrap; overflow-wrap: normal; }
th[data-key] { cursor: pointer; user-select: none; }
.sev { white-space: nowrap; overflow-wrap: normal; }
table.drivers td:nth-child(1), table.drivers td:nth-child(3) { width: 1%; white-space: nowrap; }
th[data-key][aria-sort="ascending"]::after { content: " \25B2"; } th[data-key][aria-sort="descending"]::after { content: " \25BC"; }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
td code { background: var(--panel); padding: 1px 4px; border-radius: 4px; }
/* The findings table fits the page: fixed layout, the code column takes the rest and scrolls inside its cell. */
#findings { table-layout: fixed; }
#findings col.c-sev { width: 86px; } #findings col.c-rule { width: 17%; } #findings col.c-msg { width: 27%; }
#findings col.c-loc { width: 15%; } #findings col.c-gate { width: 96px; }
#findings td.code { overflow: hidden; }
#findings td.code pre { margin: 0; white-space: pre; overflow-x: auto; background: var(--panel); padding: 2px 4px; border-radius: 4px; }
#findings th:nth-child(1), #findings td:nth-child(1) { overflow-wrap: normal; }
ul.gate li.detail { margin-left: 20px; list-style: circle; }
a.loc { text-decoration: none; }
.filters { display: flex; flex-wrap: wrap; gap: 8px; margin: 0 0 8px; align-items: center; }
.filters input[type=search] { min-width: 220px; padding: 4px 6px; }
tr.suppressed td { opacity: 0.55; }
ol.plan li { margin-bottom: 8px; }
#console-errors { color: var(--high); background: #fff0f0; padding: 8px; }
)css";
}

std::string_view script() {
  return R"js(
(function () {
  "use strict";
  var errors = [];
  function record(text) {
    errors.push(String(text));
    var sink = document.getElementById("console-errors");
    if (sink) { sink.hidden = false; sink.textContent = errors.join("\n"); }
    document.body.setAttribute("data-errors", String(errors.length));
  }
  var originalError = console.error;
  console.error = function () {
    record(Array.prototype.map.call(arguments, String).join(" "));
    return originalError.apply(console, arguments);
  };
  window.addEventListener("error", function (event) { record("uncaught: " + (event.message || event.type)); });

  var rank = { blocker: 4, high: 3, medium: 2, low: 1, info: 0 };
  var data = JSON.parse(document.getElementById("tr2audit-data").textContent);
  var findings = data.findings;
  var gateSelect = document.getElementById("filter-gate");
  var state = { key: "severity", dir: -1, text: "", severity: "", category: "", suppressed: false,
                gate: gateSelect ? gateSelect.value : "" };
  var table = document.getElementById("findings");
  var body = table.tBodies[0];
  var shown = document.getElementById("findings-shown");

  function where(f) {
    if (f.location.cell) return f.location.path + ":cell " + f.location.cell + ":" + f.location.cell_line;
    return f.location.path + ":" + f.location.line + ":" + f.location.column;
  }
  function value(f, key) {
    if (key === "severity") return rank[f.severity];
    if (key === "location") return f.location.path + "\u0000" + String(1e7 + f.location.line);
    if (key === "gate") return f.gate ? f.gate.state : "";
    return String(f[key] || "").toLowerCase();
  }
  function compare(a, b) {
    var x = value(a, state.key), y = value(b, state.key);
    if (x < y) return -state.dir;
    if (x > y) return state.dir;
    return a.order - b.order;
  }
  function matches(f) {
    if (state.gate && (!f.gate || f.gate.state !== state.gate)) return false;
    if (f.suppressed && !state.suppressed && state.gate !== "suppressed") return false;
    if (state.severity && f.severity !== state.severity) return false;
    if (state.category && f.category !== state.category) return false;
    if (!state.text) return true;
    var hay = [f.id, f.rule_id, f.message, where(f), f.snippet, f.context.function || "", f.category].join(" ").toLowerCase();
    return hay.indexOf(state.text) !== -1;
  }
  function cell(row, text, className) {
    var td = row.insertCell(-1);
    if (className === "code") {
      td.className = "code";
      var pre = document.createElement("pre");
      pre.textContent = text;
      td.appendChild(pre);
    } else if (className) {
      var span = document.createElement("span");
      span.className = className;
      span.textContent = text;
      td.appendChild(span);
    } else {
      td.textContent = text;
    }
    return td;
  }
  function render() {
    var rows = findings.filter(matches).sort(compare);
    while (body.rows.length) body.deleteRow(0);
    rows.forEach(function (f) {
      var row = body.insertRow(-1);
      row.id = "finding-" + f.id;
      if (f.suppressed) row.className = "suppressed";
      cell(row, f.severity, "sev " + f.severity);
      cell(row, f.rule_id);
      var message = cell(row, f.message);
      if (f.suppressed) message.appendChild(document.createTextNode(" (suppressed: " + f.suppressed.reason + ")"));
      cell(row, where(f));
      cell(row, f.snippet, "code");
      if (data.gate) {
        var gate = cell(row, f.gate ? f.gate.state : "");
        if (f.gate && f.gate.why) gate.title = f.gate.why;
      }
    });
    shown.textContent = "Showing " + rows.length + " of " + findings.length;
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
      if (!th.dataset.key) return;
      th.setAttribute("aria-sort", th.dataset.key === state.key ? (state.dir > 0 ? "ascending" : "descending") : "none");
    });
  }
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
    if (!th.dataset.key) return;
    th.addEventListener("click", function () {
      state.dir = state.key === th.dataset.key ? -state.dir : (th.dataset.key === "severity" ? -1 : 1);
      state.key = th.dataset.key;
      render();
    });
  });
  document.getElementById("filter-text").addEventListener("input", function (e) { state.text = e.target.value.trim().toLowerCase(); render(); });
  document.getElementById("filter-severity").addEventListener("change", function (e) { state.severity = e.target.value; render(); });
  document.getElementById("filter-category").addEventListener("change", function (e) { state.category = e.target.value; render(); });
  document.getElementById("filter-suppressed").addEventListener("change", function (e) { state.suppressed = e.target.checked; render(); });
  if (gateSelect) gateSelect.addEventListener("change", function (e) { state.gate = e.target.value; render(); });
  findings.forEach(function (f, i) { f.order = i; });
  render();
  document.body.setAttribute("data-ready", "1");
})();
)js";
}

}  // namespace tr2audit::report::html
