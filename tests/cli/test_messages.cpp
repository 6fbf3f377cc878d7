// CLI messages a user meets when they mistype: misspelt subcommands and flags get the nearest name,
// an unknown --format lists the formats, `debug facts` names the whole path it could not read, and a
// notebook's syntax-error problem names the cell and line like its findings do.
#include <catch2/catch.hpp>

#include "support/run_binary.hpp"

using tr2audit::testing::run_tr2audit;
using tr2audit::testing::TempDir;

TEST_CASE("cli messages: a misspelt subcommand suggests the right one", "[cli][messages]") {
  const auto top = run_tr2audit("scna .");
  CHECK(top.exit_code == 2);
  CHECK(top.err.find("unknown command 'scna'; did you mean 'scan'?") != std::string::npos);
  CHECK(top.err.find("A subcommand is required") == std::string::npos);
  const auto nested = run_tr2audit("debug fact x.py");
  CHECK(nested.exit_code == 2);
  CHECK(nested.err.find("tr2audit debug: unknown command 'fact'; did you mean 'facts'?") != std::string::npos);
  const auto far = run_tr2audit("zzzzzz");
  CHECK(far.exit_code == 2);
  CHECK(far.err.find("did you mean") == std::string::npos);  // nothing close: the list of commands instead
  CHECK(far.err.find("commands: scan, plan, compare, rules, ops, debug, config") != std::string::npos);
}

TEST_CASE("cli messages: an unknown flag suggests the nearest one of its command", "[cli][messages]") {
  TempDir repo;
  repo.write("train.py", "import torch\n");
  const auto run = run_tr2audit("scan --fial-on high '" + repo.path().string() + "'");
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("tr2audit scan: unknown option '--fial-on'; did you mean '--fail-on'?") != std::string::npos);
  const auto valued = run_tr2audit("scan --basline=b.json '" + repo.path().string() + "'");
  CHECK(valued.err.find("unknown option '--basline'; did you mean '--baseline'?") != std::string::npos);
}

TEST_CASE("cli messages: an unknown --format lists the valid formats", "[cli][messages]") {
  TempDir repo;
  repo.write("train.py", "import torch\n");
  const auto run = run_tr2audit("scan -f yaml '" + repo.path().string() + "'");
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("unknown --format 'yaml'") != std::string::npos);
  CHECK(run.err.find("(formats: text, json, sarif, markdown, html, plan)") != std::string::npos);
}

TEST_CASE("cli messages: debug facts names the whole path it could not read", "[cli][messages]") {
  TempDir dir;
  const std::string missing = (dir.path() / "sub" / "gone.py").string();
  const auto run = run_tr2audit("debug facts '" + missing + "'");
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("tr2audit: debug: " + missing + ":") != std::string::npos);
  const auto tree = run_tr2audit("debug tree '" + missing + "'");
  CHECK(tree.err.find(missing + ":") != std::string::npos);
}

TEST_CASE("cli messages: a notebook's syntax error names its cell and line", "[cli][messages]") {
  TempDir repo;
  // Cell 1 parses; cell 3 (the second code cell after a markdown cell) breaks on its second line.
  repo.write("explore.ipynb", R"({"cells": [
 {"cell_type": "code", "source": ["import torch\n", "x = torch.ones(2)\n"], "metadata": {}, "outputs": [], "execution_count": 1},
 {"cell_type": "markdown", "source": ["# notes"], "metadata": {}},
 {"cell_type": "code", "source": ["y = x + 1\n", "def broken(:\n", "    pass\n"], "metadata": {}, "outputs": [], "execution_count": 2}
], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})");
  const auto run = run_tr2audit("scan -f json '" + repo.path().string() + "'");
  INFO(run.err);
  REQUIRE(run.out.find("\"syntax-errors\"") != std::string::npos);
  CHECK(run.out.find("syntax error (first at cell 3:2)") != std::string::npos);
}

TEST_CASE("cli messages: a binary that cannot find its built-in rules refuses to scan", "[cli][messages]") {
  // Copied away from its build tree (no rules/ beside it, no share/tr2audit/rules above it), it used to
  // scan with no rules at all and report a clean repo: a CI gate that always passes.
  TempDir place;
  std::filesystem::create_directories(place.path() / "bin");
  const auto copy = place.path() / "bin" / "tr2audit";
  std::filesystem::copy_file(TR2AUDIT_BINARY, copy);
  TempDir repo;
  repo.write("train.py", "import torch\nx = torch.ones(2).cuda()\n");
  const auto err = place.path() / "err";
  const std::string command = "env -u TR2AUDIT_RULES_DIR CI=true '" + copy.string() + "' scan '" +
                              repo.path().string() + "' </dev/null >/dev/null 2>'" + err.string() + "'";
  const int status = std::system(command.c_str());
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 2);
  const std::string message = tr2audit::testing::slurp(err);
  CHECK(message.find("cannot find tr2audit's built-in rules") != std::string::npos);
  CHECK(message.find((place.path() / "bin" / "rules").generic_string()) != std::string::npos);
  CHECK(message.find("TR2AUDIT_RULES_DIR") != std::string::npos);
  // Pointed at them, the same copy scans.
  const std::string pointed = "CI=true TR2AUDIT_RULES_DIR='" +
                              (std::filesystem::path(TR2AUDIT_BINARY).parent_path() / "rules").string() + "' '" +
                              copy.string() + "' scan -q '" + repo.path().string() + "' >/dev/null 2>&1";
  const int ok = std::system(pointed.c_str());
  CHECK(WIFEXITED(ok));
  CHECK(WEXITSTATUS(ok) != 2);
}
