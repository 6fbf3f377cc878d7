// Injected into a copy of an HTML report by check_html_layout.sh: after the report's own script has
// built the table, measures the layout from the DOM and writes it as JSON into <pre id="layout-probe">.
(function () {
  "use strict";
  function box(el) {
    var r = el.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top + window.scrollY, width: r.width, height: r.height };
  }
  function top(id) { var el = document.getElementById(id); return el ? box(el).top : null; }
  var codes = [];
  Array.prototype.slice.call(document.querySelectorAll("#findings td.code pre"), 0, 60).forEach(function (pre) {
    var style = getComputedStyle(pre);
    codes.push({ clientWidth: pre.clientWidth, scrollWidth: pre.scrollWidth, height: pre.getBoundingClientRect().height,
                 lineHeight: parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2,
                 whiteSpace: style.whiteSpace, overflowX: style.overflowX, fontFamily: style.fontFamily,
                 text: pre.textContent.length });
  });
  var cells = [];
  Array.prototype.slice.call(document.querySelectorAll("#findings td, #drivers td"), 0, 400).forEach(function (td) {
    if (td.scrollWidth > td.clientWidth + 1 && !td.classList.contains("code")) cells.push({ text: td.textContent.slice(0, 80), scrollWidth: td.scrollWidth, clientWidth: td.clientWidth });
  });
  var labels = [];
  Array.prototype.forEach.call(document.querySelectorAll(".bar-label"), function (label) {
    var figure = label.closest("figure");
    labels.push({ text: label.textContent, left: box(label).left, right: box(label).right, figureLeft: box(figure).left,
                  figureRight: box(figure).right, scrollWidth: label.scrollWidth, clientWidth: label.clientWidth });
  });
  var wrapped = [];  // headers and severity badges must stay on one line ("Sev/erit/y" reads as noise)
  Array.prototype.slice.call(document.querySelectorAll("th, .sev"), 0, 400).forEach(function (el) {
    var style = getComputedStyle(el);
    var line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.5;
    var pad = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
    if (el.getBoundingClientRect().height > line * 1.6 + pad + 2) wrapped.push(el.textContent.slice(0, 40));
  });
  var table = document.getElementById("findings");
  var probe = {
    viewport: window.innerWidth,
    pageScrollWidth: document.documentElement.scrollWidth,
    table: table ? box(table) : null,
    rows: table ? table.tBodies[0].rows.length : 0,
    codes: codes,
    overflowingCells: cells,
    wrapped: wrapped,
    labels: labels,
    sections: { overview: top("overview"), drivers: top("drivers"), gate: top("gate"), plan: top("plan"),
                charts: top("charts"), findings: top("findings-section") }
  };
  var pre = document.createElement("pre");
  pre.id = "layout-probe";
  pre.textContent = JSON.stringify(probe);
  document.body.appendChild(pre);
})();
