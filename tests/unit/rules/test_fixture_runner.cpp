#include <catch2/catch.hpp>

#include "rules_test_support.hpp"
#include "tr2audit/rules/fixture.hpp"

using namespace tr2audit;
using namespace tr2audit::rules;
using tr2audit::rules::testing::rule_yaml;
using tr2audit::rules::testing::TempDir;

namespace {

/// A stand-in extractor: every line holding "torch.cuda.synchronize(" becomes a CallFact.
facts::FileFacts fake_file_facts(const FixtureInput& input) {
  facts::FileFacts out;
  out.path = FactString(input.rel_path);
  std::ifstream in(input.file);
  std::string line;
  for (std::uint32_t number = 1; std::getline(in, line); ++number) {
    const auto at = line.find("torch.cuda.synchronize(");
    if (at == std::string::npos || line.find('#') < at || line.find("//") < at) continue;
    facts::CallFact call;
    call.callee = QualifiedName::from_dotted("torch.cuda.synchronize");
    call.at = Span{number, static_cast<std::uint32_t>(at + 1), number, static_cast<std::uint32_t>(at + 24), 0, 0};
    out.calls.push_back(call);
  }
  return out;
}

FixtureFacts fake_facts(const FixtureInput& input) {
  std::vector<facts::FileFacts> files{fake_file_facts(input)};
  return FixtureFacts{std::make_shared<const program::Program>(program::Program::build(std::move(files))),
                      program::FileId{0}};
}

struct Fixture {
  TempDir tmp;
  RuleSet rules;

  explicit Fixture(const std::string& fixture_text, const std::string& extra = "",
                   const std::string& fixture_name = "cuda-api/sync-call.py") {
    tmp.write("rules/cuda-api/sync-call.yaml",
              rule_yaml("cuda-api.sync-call", "  call: [torch.cuda.synchronize]\n", extra));
    tmp.write("tests/rules/" + fixture_name, fixture_text);
    LoadedRules loaded = load_rules({tmp.path() / "rules"});
    REQUIRE(loaded.problems.empty());
    rules = std::move(loaded.rules);
  }

  FixtureResult run() const {
    const auto results = run_fixtures(rules, FixtureOptions{}, fake_facts);
    REQUIRE(results.size() == 1);
    return results[0];
  }

  std::string fixture_path() const { return (tmp.path() / "tests/rules/cuda-api/sync-call.py").generic_string(); }
};

}  // namespace

TEST_CASE("rules::parse_annotations binds each annotation to the next code line", "[rules]") {
  const auto parsed = parse_annotations(
      "# target: xla\n"                         // 1
      "import torch\n"                          // 2
      "# expect: a.one, b.two   (free text)\n"  // 3
      "\n"                                      // 4
      "# a plain comment\n"                     // 5
      "# ok: a.one\n"                           // 6
      "x = 1\n"                                 // 7
      "# todo-expect: c.three\n"                // 8
      "y = 2\n",                                // 9
      "#");
  REQUIRE(parsed.errors.empty());
  REQUIRE(parsed.target == TargetProfile::xla);
  REQUIRE(parsed.annotations.size() == 4);
  CHECK(parsed.annotations[0].rule_id == "a.one");
  CHECK(parsed.annotations[0].kind == AnnotationKind::expect);
  CHECK(parsed.annotations[0].line == 3);
  CHECK(parsed.annotations[0].target_line == 7);
  CHECK(parsed.annotations[1].rule_id == "b.two");
  CHECK(parsed.annotations[1].target_line == 7);
  CHECK(parsed.annotations[2].kind == AnnotationKind::ok);
  CHECK(parsed.annotations[2].target_line == 7);
  CHECK(parsed.annotations[3].kind == AnnotationKind::todo_expect);
  CHECK(parsed.annotations[3].rule_id == "c.three");
  CHECK(parsed.annotations[3].target_line == 9);
}

TEST_CASE("rules::parse_annotations uses // in CUDA sources and reports malformed annotations", "[rules]") {
  CHECK(comment_leader("k/kernel.cu") == "//");
  CHECK(comment_leader("k/kernel.CUH") == "//");
  CHECK(comment_leader("requirements.txt") == "#");
  CHECK(comment_leader("train.py") == "#");
  auto parsed = parse_annotations("// expect: cuda-extension.cu-file\n/* block */\n__global__ void k() {}\n", "//");
  REQUIRE(parsed.annotations.size() == 1);
  CHECK(parsed.annotations[0].target_line == 3);

  parsed = parse_annotations("x = 1\n# target: xla\n# expect:\ny = 2  # ok: a.b\n# ok: a.b\n", "#");
  REQUIRE(parsed.errors.size() == 4);
  CHECK(parsed.errors[0].line == 2);
  CHECK(parsed.errors[0].message == "'target:' must come before the first code line");
  CHECK(parsed.errors[1].message == "'expect:' names no rule id");
  CHECK(parsed.errors[2].line == 4);
  CHECK(parsed.errors[2].message == "annotations go on their own line, above the code they refer to");
  CHECK(parsed.errors[3].line == 5);
  CHECK(parsed.errors[3].message == "annotation with no code line after it");
  CHECK_FALSE(parsed.target.has_value());
}

TEST_CASE("rules::run_fixtures passes a fixture whose annotations match exactly", "[rules]") {
  Fixture fx(
      "import torch\n"
      "# expect: cuda-api.sync-call\n"
      "torch.cuda.synchronize()\n"
      "# ok: cuda-api.sync-call\n"
      "torch.cuda.is_available()\n");
  const FixtureResult result = fx.run();
  for (const auto& failure : result.failures) INFO(failure);
  CHECK(result.passed());
  CHECK(result.expects == 1);
  CHECK(result.oks == 1);
  CHECK(format_fixture_results({result}) == "PASS cuda-api.sync-call (1 expect, 1 ok)\n1 passed, 0 failed\n");
}

TEST_CASE("rules::run_fixtures fails on a missed expect, a hit on ok and an unannotated hit", "[rules]") {
  Fixture fx(
      "import torch\n"                       // 1
      "# expect: cuda-api.sync-call\n"       // 2
      "torch.cuda.is_available()\n"          // 3: missed
      "# ok: cuda-api.sync-call\n"           // 4
      "torch.cuda.synchronize()\n"           // 5: hit on ok
      "torch.cuda.synchronize()\n"           // 6: unannotated hit
      "# todo-expect: cuda-api.sync-call\n"  // 7
      "torch.cuda.synchronize()\n");         // 8: todo now passing
  const FixtureResult result = fx.run();
  const std::string file = fx.fixture_path();
  CHECK_FALSE(result.passed());
  CHECK(result.failures == std::vector<std::string>{
                               file + ":5: finding on an 'ok' line: torch.cuda.synchronize is flagged",
                               file + ":6: finding on a line without an annotation: torch.cuda.synchronize is flagged",
                               file + ":8: 'todo-expect' is now reported: promote it to 'expect'",
                               file + ":3: expected a finding, got none"});
  const std::string report = format_fixture_results({result});
  CHECK(report.find("FAIL cuda-api.sync-call: " + file + ":5: finding on an 'ok' line") == 0);
  CHECK(report.substr(report.size() - 19) == "0 passed, 1 failed\n");
}

TEST_CASE("rules::run_fixtures requires a fixture with an expect and an ok", "[rules]") {
  Fixture no_ok("# expect: cuda-api.sync-call\ntorch.cuda.synchronize()\n");
  auto result = no_ok.run();
  REQUIRE(result.failures.size() == 1);
  CHECK(result.failures[0] ==
        no_ok.fixture_path() +
            ": the fixture needs at least one 'expect' and one 'ok' annotation (has 1 expect, 0 ok)");

  Fixture missing("x = 1\n", "", "cuda-api/other-name.py");
  result = missing.run();
  REQUIRE(result.failures.size() == 1);
  CHECK(result.failures[0].find("sync-call.py: no fixture (add sync-call.py or a folder sync-call/)") !=
        std::string::npos);
}

TEST_CASE("rules::run_fixtures honours '# target:' and fixture folders", "[rules]") {
  const std::string body = "# expect: cuda-api.sync-call\ntorch.cuda.synchronize()\n# ok: cuda-api.sync-call\nx = 1\n";
  Fixture native_only(body, "profiles: [xla]\n");
  auto result = native_only.run();
  CHECK_FALSE(result.passed());  // the rule never runs under the default native profile

  Fixture xla("# target: xla\n" + body, "profiles: [xla]\n");
  result = xla.run();
  for (const auto& failure : result.failures) INFO(failure);
  CHECK(result.passed());

  Fixture folder("// expect: cuda-api.sync-call\ntorch.cuda.synchronize();\n// ok: cuda-api.sync-call\nint x;\n", "",
                 "cuda-api/sync-call/kernel.cu");
  std::vector<FixtureInput> inputs;
  const auto results = run_fixtures(folder.rules, FixtureOptions{}, [&](const FixtureInput& input) {
    inputs.push_back(input);
    return fake_facts(input);
  });
  REQUIRE(results.size() == 1);
  for (const auto& failure : results[0].failures) INFO(failure);
  CHECK(results[0].passed());
  CHECK(results[0].expects == 1);
  REQUIRE(inputs.size() == 1);
  CHECK(inputs[0].rel_path == "kernel.cu");
  CHECK(inputs[0].fixture == folder.tmp.path() / "tests/rules/cuda-api/sync-call");
}

TEST_CASE("rules::run_fixtures flags annotations naming unknown rules and filters by rule", "[rules]") {
  Fixture fx(
      "# expect: cuda-api.sync-cal\n"
      "torch.cuda.synchronize()\n"
      "# expect: cuda-api.sync-call\n"
      "torch.cuda.synchronize()\n"
      "# ok: cuda-api.sync-call\n"
      "x = 1\n");
  const FixtureResult result = fx.run();
  CHECK(result.failures ==
        std::vector<std::string>{fx.fixture_path() + ":1: annotation names unknown rule 'cuda-api.sync-cal'",
                                 fx.fixture_path() + ":2: finding on a line without an annotation: "
                                                     "torch.cuda.synchronize is flagged"});
  CHECK(run_fixtures(fx.rules, FixtureOptions{{}, "cuda-api.nope"}, fake_facts).empty());
  CHECK(format_fixture_results({}) == "0 passed, 0 failed\n");
}

TEST_CASE("rules::run_fixtures treats file-subject annotations as about the whole file", "[rules]") {
  TempDir tmp;
  tmp.write("rules/cuda-extension/cu-file.yaml", rule_yaml("cuda-extension.cu-file", "  file: cuda-source\n"));
  tmp.write("tests/rules/cuda-extension/cu-file/kernel.cu",
            "#include <cuda.h>\n// expect: cuda-extension.cu-file\n__global__ void k() {}\n");
  tmp.write("tests/rules/cuda-extension/cu-file/host.py", "# ok: cuda-extension.cu-file\nimport torch\n");
  LoadedRules loaded = load_rules({tmp.path() / "rules"});
  REQUIRE(loaded.problems.empty());
  const auto provider = [](const FixtureInput& input) {
    facts::FileFacts out;
    out.path = FactString(input.rel_path);
    out.kind = input.file.extension() == ".cu" ? discover::FileKind::cuda_source : discover::FileKind::python;
    std::vector<facts::FileFacts> files{out};
    return FixtureFacts{std::make_shared<const program::Program>(program::Program::build(std::move(files))),
                        program::FileId{0}};
  };
  auto results = run_fixtures(loaded.rules, FixtureOptions{}, provider);
  REQUIRE(results.size() == 1);
  for (const auto& failure : results[0].failures) INFO(failure);
  CHECK(results[0].passed());

  // Annotated the other way round, both files fail.
  tmp.write("tests/rules/cuda-extension/cu-file/kernel.cu", "// ok: cuda-extension.cu-file\n__global__ void k() {}\n");
  tmp.write("tests/rules/cuda-extension/cu-file/host.py", "# expect: cuda-extension.cu-file\nimport torch\n");
  results = run_fixtures(loaded.rules, FixtureOptions{}, provider);
  const std::string base = (tmp.path() / "tests/rules/cuda-extension/cu-file/").generic_string();
  CHECK(results[0].failures == std::vector<std::string>{base + "host.py:2: expected the file to be reported",
                                                        base + "kernel.cu:2: file reported on an 'ok' file"});
}
