#include <catch2/catch.hpp>

#include "support/run_binary.hpp"
#include "tr2audit/gate/config.hpp"
#include "tr2audit/gate/fail_on.hpp"

using namespace tr2audit;
using namespace tr2audit::gate;
using tr2audit::testing::TempDir;

TEST_CASE("gate::load_config reads every setting of a YAML file with its line", "[gate]") {
  TempDir dir;
  const auto file = dir.write(".tr2audit.yaml",
                              "target: xla\n"
                              "exclude: [vendor/**, '*_pb2.py']\n"
                              "rules: extra-rules\n"
                              "disable:\n  - dynamic-graph.*\n"
                              "severity:\n  cuda-api.cuda-method: low\n"
                              "fail-on: [blocker, gpu-keep]\n"
                              "min-readiness: 60\n"
                              "max-file-size: 2M\n"
                              "jobs: 4\n");
  Settings s;
  std::vector<Problem> problems;
  load_config(file, s, problems);
  REQUIRE(problems.empty());
  CHECK(s.target.value == "xla");
  CHECK(s.target.origin.describe() == file.generic_string() + ":1");
  CHECK(s.exclude.value == std::vector<std::string>{"vendor/**", "*_pb2.py"});
  CHECK(s.rules.value == std::vector<std::string>{(dir.path() / "extra-rules").generic_string()});
  CHECK(s.disable.origin.line == 4);
  CHECK(s.severity.value.at("cuda-api.cuda-method") == "low");
  CHECK(s.fail_on.value.size() == 2);
  CHECK(*s.min_readiness.value == 60);
  CHECK(s.max_file_size.value == 2u * 1024 * 1024);
  CHECK(s.jobs.value == 4);
  CHECK(Settings{}.jobs.origin.describe() == "default");
}

TEST_CASE("gate::load_config reports unknown keys and bad values with line, column and a suggestion", "[gate]") {
  TempDir dir;
  const auto file =
      dir.write(".tr2audit.yaml", "target: native\nfail_on: high\nseverity:\n  x.y: hgh\nmin-readiness: 101\n");
  Settings s;
  std::vector<Problem> problems;
  load_config(file, s, problems);
  REQUIRE(problems.size() == 3);
  CHECK(problems[0].line == 2);
  CHECK(problems[0].column == 1);
  CHECK(problems[0].message == "unknown setting 'fail_on'; did you mean 'fail-on'?");
  CHECK(problems[1].line == 4);
  CHECK(problems[1].column == 8);
  CHECK(problems[1].message.find("did you mean 'high'") != std::string::npos);
  CHECK(problems[2].line == 5);
}

TEST_CASE("gate::load_config reads [tool.tr2audit] from pyproject.toml", "[gate]") {
  TempDir dir;
  const auto file = dir.write("pyproject.toml",
                              "[project]\nname = \"x\"\ndescription = \"\"\"multi\n[tool.tr2audit]\nline\"\"\"\n"
                              "dependencies = [\n  \"torch>=2\",  # pinned\n]\n\n"
                              "[tool.tr2audit]\ntarget = \"xla\"\nfail-on = [\"high\"]\njobs = 2\n"
                              "[tool.tr2audit.severity]\n\"cuda-api.cuda-method\" = \"low\"\n"
                              "[tool.other]\nfoo = 1\n");
  Settings s;
  std::vector<Problem> problems;
  load_config(file, s, problems);
  REQUIRE(problems.empty());
  CHECK(s.target.value == "xla");
  CHECK(s.target.origin.line == 11);
  CHECK(s.fail_on.value == std::vector<std::string>{"high"});
  CHECK(s.jobs.value == 2);
  CHECK(s.severity.value.at("cuda-api.cuda-method") == "low");

  const auto bad = dir.write("sub/pyproject.toml", "[tool.tr2audit]\njbos = 3\n");
  problems.clear();
  load_config(bad, s, problems);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].line == 2);
  CHECK(problems[0].message.find("did you mean 'jobs'") != std::string::npos);
}

TEST_CASE("gate::find_config walks up to the work tree top", "[gate]") {
  TempDir dir;
  dir.write("repo/.git/HEAD", "ref: refs/heads/main\n");
  dir.write("repo/.tr2audit.yaml", "jobs: 1\n");
  dir.write("repo/src/pkg/a.py", "");
  CHECK(find_config(dir.path() / "repo/src/pkg") == dir.path() / "repo/.tr2audit.yaml");
  dir.write("other/.git/HEAD", "");
  dir.write("other/pyproject.toml", "[project]\nname='x'\n");
  CHECK_FALSE(find_config(dir.path() / "other"));
}

TEST_CASE("gate::add_fail_on takes severities and verdicts and suggests on typos", "[gate]") {
  FailOn criteria;
  std::string error;
  CHECK(add_fail_on(criteria, "high", error));
  CHECK(add_fail_on(criteria, "blocker", error));
  CHECK(*criteria.severity == Severity::high);
  CHECK(add_fail_on(criteria, "gpu-keep", error));
  CHECK(criteria.verdicts.size() == 1);
  CHECK_FALSE(add_fail_on(criteria, "blockr", error));
  CHECK(error.find("did you mean 'blocker'") != std::string::npos);
}

TEST_CASE("gate::evaluate_gate: incomplete wins, verdict gates need a recommendation", "[gate]") {
  report::Report r;
  rules::Finding f;
  f.severity = Severity::high;
  f.path = "a.py";
  r.findings = {f};
  FailOn criteria;
  criteria.severity = Severity::high;
  CHECK(evaluate_gate(r, criteria).status == GateStatus::failed);
  report::Report known = r;  // recorded in the baseline: the gate does not look at it
  known.findings[0].gate.baseline = rules::BaselineState::unchanged;
  CHECK(evaluate_gate(known, criteria).status == GateStatus::passed);
  report::Report elsewhere = r;  // not on a changed line
  elsewhere.findings[0].gate.in_diff = false;
  CHECK(evaluate_gate(elsewhere, criteria).status == GateStatus::passed);
  r.problems.push_back(Problem{ProblemKind::parse_timeout, "big.py", 0, 0, "parse timed out"});
  CHECK(evaluate_gate(r, criteria).status == GateStatus::incomplete);
  known.problems = {Problem{ProblemKind::unreadable, "secret.py", 0, 0, "permission denied"}};
  CHECK(evaluate_gate(known, criteria).status == GateStatus::passed);
  criteria.problems = true;
  CHECK(evaluate_gate(known, criteria).status == GateStatus::failed);
  FailOn verdict;
  verdict.verdicts = {score::Verdict::gpu_keep};
  const GateResult missing = evaluate_gate(report::Report{}, verdict);
  CHECK(missing.status == GateStatus::incomplete);
  CHECK(missing.reasons[0].find("no recommendation") != std::string::npos);
}
