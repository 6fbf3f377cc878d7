// Prints the SARIF Multitool's validation results (its output is itself SARIF) and exits 1 when
// any of them is an error. Usage: node sarif_results.js VALIDATION.sarif CHECKED_FILE
"use strict";
const fs = require("fs");
const [validationPath, checked] = process.argv.slice(2);
const log = JSON.parse(fs.readFileSync(validationPath, "utf8").replace(/^\uFEFF/, ""));
let errors = 0;
let warnings = 0;
for (const run of log.runs || []) {
  const rules = (run.tool && run.tool.driver && run.tool.driver.rules) || [];
  for (const result of run.results || []) {
    const level = result.level || "warning";
    let text = (result.message && result.message.text) || "";
    if (!text && result.message && result.message.id) {
      const rule = rules.find((r) => r.id === result.ruleId) || {};
      const template = ((rule.messageStrings || {})[result.message.id] || {}).text || result.message.id;
      const args = result.message.arguments || [];
      text = template.replace(/\{(\d+)\}/g, (_, i) => args[Number(i)] ?? "");
    }
    if (level === "error") errors++;
    else warnings++;
    console.log(`${level} ${result.ruleId}: ${text}`);
  }
}
console.log(`multitool: ${checked}: ${errors} error(s), ${warnings} warning(s)`);
process.exit(errors > 0 ? 1 : 0);
