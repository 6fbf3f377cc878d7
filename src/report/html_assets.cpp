// The HTML report's inline CSS and vanilla JS, kept apart from the markup code in html.cpp.
#include "html_assets.hpp"

namespace tr2audit::report::html {

std::string_view stylesheet() {
  return R"css(
:root { --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #ffffff; --panel: #f6f8fa;
        --blocker: #8b0000; --high: #cf222e; --medium: #bf8700; --low: #0969da; --info: #1a7f37;
        --gpu-keep: #cf222e; --dual-run: #bf8700; --trainium2-pilot: #1a7f37; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: var(--fg); background: var(--bg); }
header { padding: 16px 24px; border-bottom: 1px solid var(--line); background: var(--panel); }
header h1 { margin: 0; font-size: 20px; }
header p { margin: 4px 0 0; color: var(--muted); }
main { padding: 16px 24px; max-width: 1280px; }
section { margin: 0 0 24px; }
h2 { font-size: 16px; margin: 0 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.overview { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
.verdict { font-size: 22px; font-weight: 700; text-transform: uppercase; }
.verdict.gpu-keep { color: var(--gpu-keep); } .verdict.dual-run { color: var(--dual-run); } .verdict.trainium2-pilot { color: var(--trainium2-pilot); }
.charts { display: flex; flex-wrap: wrap; gap: 32px; }
.chart text { font-size: 12px; fill: var(--fg); }
.muted { color: var(--muted); }
.sev { display: inline-block; padding: 0 6px; border-radius: 10px; color: #fff; font-size: 12px; font-weight: 600; }
.sev.blocker { background: var(--blocker); } .sev.high { background: var(--high); } .sev.medium { background: var(--medium); }
.sev.low { background: var(--low); } .sev.info { background: var(--info); }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th[data-key] { cursor: pointer; user-select: none; white-space: nowrap; }
th[data-key][aria-sort="ascending"]::after { content: " \25B2"; } th[data-key][aria-sort="descending"]::after { content: " \25BC"; }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
td code { background: var(--panel); padding: 1px 4px; border-radius: 4px; white-space: pre-wrap; word-break: break-all; }
.filters { display: flex; flex-wrap: wrap; gap: 8px; margin: 0 0 8px; align-items: center; }
.filters input[type=search] { min-width: 260px; padding: 4px 6px; }
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
  var state = { key: "severity", dir: -1, text: "", severity: "", category: "", suppressed: false };
  var table = document.getElementById("findings");
  var body = table.tBodies[0];
  var shown = document.getElementById("findings-shown");

  function value(f, key) {
    if (key === "severity") return rank[f.severity];
    if (key === "location") return f.path + "\u0000" + String(1e7 + f.line);
    return String(f[key] || "").toLowerCase();
  }
  function compare(a, b) {
    var x = value(a, state.key), y = value(b, state.key);
    if (x < y) return -state.dir;
    if (x > y) return state.dir;
    return a.order - b.order;
  }
  function matches(f) {
    if (f.suppressed && !state.suppressed) return false;
    if (state.severity && f.severity !== state.severity) return false;
    if (state.category && f.category !== state.category) return false;
    if (!state.text) return true;
    var hay = [f.id, f.rule_id, f.message, f.path, f.snippet, f.function, f.category].join(" ").toLowerCase();
    return hay.indexOf(state.text) !== -1;
  }
  function cell(row, text, className) {
    var td = row.insertCell(-1);
    if (className) {
      var span = document.createElement(className === "code" ? "code" : "span");
      if (className !== "code") span.className = className;
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
      cell(row, f.category);
      cell(row, f.rule_id);
      var message = cell(row, f.message);
      if (f.suppressed) message.appendChild(document.createTextNode(" (suppressed: " + f.suppressed + ")"));
      cell(row, f.path + ":" + f.line + ":" + f.column);
      cell(row, f.snippet, "code");
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
  findings.forEach(function (f, i) { f.order = i; });
  render();
  document.body.setAttribute("data-ready", "1");
})();
)js";
}

}  // namespace tr2audit::report::html
