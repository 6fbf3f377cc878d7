#include <catch2/catch.hpp>

#include "rules_test_support.hpp"
#include "tr2audit/rules/rule_set.hpp"

using namespace tr2audit;
using namespace tr2audit::rules;
using tr2audit::rules::testing::rule_yaml;
using tr2audit::rules::testing::TempDir;

namespace {

/// Loads one rule text as rules/<cat>/<name>.yaml and returns the problems.
std::vector<Problem> problems_of(const std::string& yaml, const std::string& file = "cuda-api/sync-call.yaml") {
  std::vector<Problem> problems;
  const auto rule = load_rule_text(yaml, std::filesystem::path("rules") / file, problems);
  CHECK(rule.has_value() == problems.empty());
  return problems;
}

std::string only_message(const std::vector<Problem>& problems) {
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].kind == ProblemKind::invalid_rule);
  return problems[0].message;
}

const std::string k_valid_head =
    "id: cuda-api.sync-call\n"             // 1
    "title: Explicit CUDA sync\n"          // 2
    "category: cuda-api\n"                 // 3
    "severity: high\n"                     // 4
    "confidence: medium\n"                 // 5
    "message: '{callee} syncs'\n"          // 6
    "why: Because.\n"                      // 7
    "fix: Remove it.\n"                    // 8
    "sources: [https://example.org/a]\n";  // 9

}  // namespace

TEST_CASE("rules::load_rule_text compiles a valid rule", "[rules]") {
  std::vector<Problem> problems;
  const auto rule = load_rule_text(k_valid_head +
                                       "profiles: [xla]\nseverity_by_profile: {xla: blocker}\n"
                                       "match:\n  call: [torch.cuda.synchronize, 'torch.cuda.*']\n"
                                       "  keyword: {non_blocking: ['True']}\n"
                                       "where:\n  region: [training-step, forward]\n  guard: [no-grad]\n"
                                       "unless:\n  in_test: true\n",
                                   "rules/cuda-api/sync-call.yaml", problems);
  REQUIRE(problems.empty());
  REQUIRE(rule);
  CHECK(rule->id == "cuda-api.sync-call");
  CHECK(rule->name() == "sync-call");
  CHECK(rule->category == Category::cuda_api);
  CHECK(rule->severity == Severity::high);
  CHECK(rule->confidence == Confidence::medium);
  CHECK_FALSE(rule->applies_to(TargetProfile::native));
  CHECK(rule->applies_to(TargetProfile::xla));
  CHECK(rule->severity_for(TargetProfile::xla) == Severity::blocker);
  CHECK(rule->severity_for(TargetProfile::native) == Severity::high);
  CHECK(rule->subject == SubjectKind::call);
  CHECK(rule->names.exact().count("torch.cuda.synchronize") == 1);
  CHECK(rule->names.globs() == std::vector<std::string>{"torch.cuda.*"});
  REQUIRE(rule->conditions.keywords.size() == 1);
  CHECK(rule->conditions.keywords[0].keyword == "non_blocking");
  CHECK(rule->where.regions != 0);
  CHECK(rule->where.guards != 0);
  CHECK(rule->unless.in_test == true);
  CHECK(rule->id_line == 1);
  CHECK(rule->id_column == 5);
}

TEST_CASE("rules::load_rule_text reports an unknown key with position and suggestion", "[rules]") {
  const auto problems = problems_of(k_valid_head + "severty: high\nmatch:\n  call: [a.b]\n");
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].path == "rules/cuda-api/sync-call.yaml");
  CHECK(problems[0].line == 10);
  CHECK(problems[0].column == 1);
  CHECK(problems[0].message == "unknown key 'severty' in rule; did you mean 'severity'?");
  CHECK(format_problem(problems[0]) ==
        "rules/cuda-api/sync-call.yaml:10:1: unknown key 'severty' in rule; did you mean 'severity'?");
}

TEST_CASE("rules::load_rule_text checks keys inside match and where", "[rules]") {
  auto problems = problems_of(k_valid_head + "match:\n  calle: [a.b]\n");
  REQUIRE(problems.size() == 2);  // the typo, then "no subject"
  CHECK(problems[0].line == 11);
  CHECK(problems[0].column == 3);
  CHECK(problems[0].message == "unknown key 'calle' in match; did you mean 'call'?");
  CHECK(problems[1].message.find("match needs one subject key") == 0);

  problems = problems_of(k_valid_head + "match:\n  call: [a.b]\nwhere:\n  regoin: [forward]\n");
  CHECK(only_message(problems) == "unknown key 'regoin' in where; did you mean 'region'?");
  CHECK(problems[0].line == 13);
}

TEST_CASE("rules::load_rule_text reports wrong types at the value", "[rules]") {
  std::string yaml = k_valid_head + "match:\n  call: torch.cuda.synchronize\n";
  auto problems = problems_of(yaml);
  CHECK(only_message(problems) == "'call' must be a non-empty list of strings");
  CHECK(problems[0].line == 11);
  CHECK(problems[0].column == 9);

  problems = problems_of(k_valid_head + "match:\n  call: [a.b]\nwhere:\n  in_loop: maybe\n");
  CHECK(only_message(problems) == "'in_loop' must be true or false");

  problems = problems_of(k_valid_head + "match:\n  call: [a.b]\n  min_args: two\n");
  CHECK(only_message(problems) == "'min_args' must be a non-negative integer");

  problems = problems_of(k_valid_head + "match: [call]\n");
  CHECK(only_message(problems) == "'match' must be a map");
}

TEST_CASE("rules::load_rule_text rejects bad enum values and lists the valid ones", "[rules]") {
  std::string yaml = k_valid_head + "match:\n  call: [a.b]\n";
  yaml.replace(yaml.find("severity: high"), 14, "severity: hgh");
  auto problems = problems_of(yaml);
  CHECK(only_message(problems) ==
        "unknown severity 'hgh'; did you mean 'high'? (valid: blocker, high, medium, low, info)");
  CHECK(problems[0].line == 4);
  CHECK(problems[0].column == 11);

  problems = problems_of(k_valid_head + "match:\n  call: [a.b]\nwhere:\n  guard: [cuda-availble]\n");
  CHECK(only_message(problems).find("unknown guard 'cuda-availble'; did you mean 'cuda-available'?") == 0);

  problems = problems_of(k_valid_head + "match:\n  device: ['cuda*']\n  use: [argument]\n");
  CHECK(only_message(problems).find("unknown device use 'argument'") == 0);

  problems = problems_of(k_valid_head + "profiles: [neuron]\nmatch:\n  call: [a.b]\n");
  CHECK(only_message(problems) == "unknown profile 'neuron' (valid: native, xla)");
}

TEST_CASE("rules::load_rule_text reports missing required keys and empty sources", "[rules]") {
  std::string yaml = k_valid_head + "match:\n  call: [a.b]\n";
  yaml.erase(yaml.find("why: Because.\n"), 14);
  auto problems = problems_of(yaml);
  CHECK(only_message(problems) == "missing required key 'why'");
  CHECK(problems[0].line == 1);

  yaml = k_valid_head + "match:\n  call: [a.b]\n";
  yaml.replace(yaml.find("[https://example.org/a]"), 23, "[]");
  problems = problems_of(yaml);
  CHECK(only_message(problems) == "'sources' must be a non-empty list of strings");
}

TEST_CASE("rules::load_rule_text checks the id against category and file name", "[rules]") {
  auto problems = problems_of(rule_yaml("cuda-api.sync-call"), "cuda-api/sync.yaml");
  CHECK(only_message(problems) ==
        "file name 'sync.yaml' does not match the id 'cuda-api.sync-call': name the file 'sync-call.yaml'");

  std::string yaml = rule_yaml("cuda-api.sync-call");
  yaml.replace(yaml.find("category: cuda-api"), 18, "category: cuda-library");
  problems = problems_of(yaml);
  CHECK(only_message(problems) == "id 'cuda-api.sync-call' starts with 'cuda-api' but the category is 'cuda-library'");

  problems = problems_of(rule_yaml("cuda-api.Sync_Call"), "cuda-api/Sync_Call.yaml");
  CHECK(only_message(problems).find("must be '<category>.<kebab-name>'") != std::string::npos);
}

TEST_CASE("rules::load_rule_text requires exactly one subject that fits the conditions", "[rules]") {
  auto problems = problems_of(rule_yaml("cuda-api.sync-call", "  call: [a.b]\n  method: [cuda]\n"));
  CHECK(only_message(problems) ==
        "match has two subject keys, 'call' and 'method': a rule selects exactly one kind of fact");
  CHECK(problems[0].line == 14);

  problems = problems_of(rule_yaml("cuda-api.sync-call", "  keyword: {x: ['1']}\n"));
  CHECK(only_message(problems).find("match needs one subject key") == 0);

  problems = problems_of(rule_yaml("cuda-api.sync-call", "  call: [a.b]\n  receiver: [numpy.*]\n"));
  CHECK(only_message(problems) == "condition 'receiver' does not apply to subject 'call' (it applies to: method)");
  CHECK(problems[0].line == 14);
  CHECK(problems[0].column == 3);

  problems = problems_of(rule_yaml("cuda-api.sync-call", "  file: cuda-sauce\n"));
  CHECK(only_message(problems).find("unknown file kind 'cuda-sauce'; did you mean 'cuda-source'?") == 0);
}

TEST_CASE("rules::load_rule_text checks placeholders and Python literals", "[rules]") {
  std::string yaml = rule_yaml("cuda-api.sync-call");
  yaml.replace(yaml.find("{subject}"), 9, "{calle}");
  CHECK(only_message(problems_of(yaml)).find("unknown placeholder '{calle}' in message; did you mean '{callee}'?") ==
        0);
  const auto problems = problems_of(rule_yaml("cuda-api.sync-call",
                                              "  assign: [torch.backends.cudnn.benchmark]\n"
                                              "  value: [true]\n"));
  CHECK(only_message(problems) == "literal 'true' never matches Python code; did you mean '\"True\"'?");
}

TEST_CASE("rules::load_rule_text turns YAML syntax errors into problems", "[rules]") {
  auto problems = problems_of("id: cuda-api.sync-call\ntitle: [unclosed\n");
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].message.find("invalid YAML: ") == 0);
  CHECK(problems[0].line >= 2);
  CHECK(only_message(problems_of("")) == "empty rule file");
  CHECK(only_message(problems_of("- a\n- b\n")) ==
        "a rule file must hold one map of rule keys (id, title, category, ...)");
}

TEST_CASE("rules::load_rules rejects duplicate ids across files and folders", "[rules]") {
  TempDir tmp;
  tmp.write("one/cuda-api/sync-call.yaml", rule_yaml("cuda-api.sync-call"));
  tmp.write("two/cuda-api/sync-call.yaml", rule_yaml("cuda-api.sync-call"));
  tmp.write("two/cuda-api/other-call.yaml", rule_yaml("cuda-api.other-call"));
  const LoadedRules loaded = load_rules({tmp.path() / "one", tmp.path() / "two"});
  REQUIRE(loaded.problems.size() == 1);
  CHECK(loaded.problems[0].path == (tmp.path() / "two/cuda-api/sync-call.yaml").generic_string());
  CHECK(loaded.problems[0].line == 1);
  CHECK(loaded.problems[0].column == 5);
  CHECK(loaded.problems[0].message == "duplicate rule id 'cuda-api.sync-call' (first defined at " +
                                          (tmp.path() / "one/cuda-api/sync-call.yaml").generic_string() + ":1:5)");
  REQUIRE(loaded.rules.size() == 2);
  CHECK(loaded.rules.rules()[0].id == "cuda-api.other-call");
  CHECK(loaded.rules.rules()[1].source_dir == tmp.path() / "one");
  CHECK(loaded.rules.find("cuda-api.other-call") != nullptr);
  CHECK(loaded.rules.find("cuda-api.nope") == nullptr);
}

TEST_CASE("rules::load_rules skips the op table and scoring files at the top only", "[rules]") {
  TempDir tmp;
  tmp.write("neuron-ops.yaml", "ops: []\n");
  tmp.write("scoring.yaml", "weights: {}\n");
  tmp.write("notes.txt", "not yaml\n");
  tmp.write("cuda-api/sync-call.yaml", rule_yaml("cuda-api.sync-call"));
  LoadedRules loaded = load_rules({tmp.path()});
  CHECK(loaded.problems.empty());
  CHECK(loaded.rules.size() == 1);

  tmp.write("cuda-api/scoring.yaml", "weights: {}\n");
  loaded = load_rules({tmp.path()});
  REQUIRE_FALSE(loaded.problems.empty());
  CHECK(loaded.problems[0].message == "unknown key 'weights' in rule");
  for (const Problem& p : loaded.problems) CHECK(p.path == (tmp.path() / "cuda-api/scoring.yaml").generic_string());
}

TEST_CASE("rules::load_rules reports a missing folder and never throws", "[rules]") {
  TempDir tmp;
  tmp.write("cuda-api/bad.yaml", "id: [\n");
  LoadedRules loaded;
  REQUIRE_NOTHROW(loaded = load_rules({tmp.path() / "missing", tmp.path()}));
  REQUIRE(loaded.problems.size() == 2);
  CHECK(loaded.rules.empty());
  bool saw_missing = false;
  for (const Problem& p : loaded.problems) saw_missing = saw_missing || p.message == "rules folder not found";
  CHECK(saw_missing);
}

TEST_CASE("rules::load_rule_text does not repeat a misspelt required key as missing", "[rules]") {
  std::string yaml = k_valid_head + "match:\n  call: [a.b]\n";
  yaml.replace(yaml.find("severity: high"), 14, "severty: high");
  const auto problems = problems_of(yaml);
  CHECK(only_message(problems) == "unknown key 'severty' in rule; did you mean 'severity'?");
  CHECK(problems[0].line == 4);
}

TEST_CASE("rules::load_rule_text rejects names that are not dotted names or globs", "[rules][hostile]") {
  for (const std::string name : {"'torch..cuda'", "'.cuda'", "'torch.[cuda'", "'a b'", "\"torch\\0x\""}) {
    INFO(name);
    const std::string message = only_message(problems_of(k_valid_head + "match:\n  call: [" + name + "]\n"));
    CHECK_THAT(message, Catch::Contains("is not a dotted Python name or glob"));
  }
  CHECK(problems_of(k_valid_head + "match:\n  call: [torch.cuda.*, 'F.?elu', '*']\n").empty());
}

TEST_CASE("rules::load_rule_text checks op conditions and severity_by_region", "[rules]") {
  std::vector<Problem> problems;
  const auto rule = load_rule_text(k_valid_head +
                                       "severity_by_region: {data-pipeline: info, setup: low}\n"
                                       "match:\n  op: ['torch.linalg.*']\n  status: [caveat, unsupported]\n"
                                       "  effect: [cpu-fallback]\n  op_kind: [op]\n",
                                   std::filesystem::path("rules") / "cuda-api/sync-call.yaml", problems);
  REQUIRE(problems.empty());
  REQUIRE(rule);
  CHECK(rule->subject == SubjectKind::op);
  CHECK(rule->severity_for(TargetProfile::native, facts::Region::data_pipeline) == Severity::info);
  CHECK(rule->severity_for(TargetProfile::native, facts::Region::forward) == Severity::high);
  CHECK(rule->severity_for(TargetProfile::native, std::nullopt) == Severity::high);

  auto bad = problems_of(k_valid_head + "match:\n  call: [a.b]\n  status: [caveat]\n");
  CHECK(only_message(bad) == "condition 'status' does not apply to subject 'call' (it applies to: op)");
  bad = problems_of(k_valid_head + "match:\n  op: ['*']\n  effect: [cpu_fallback]\n");
  CHECK(only_message(bad).find("unknown op effect 'cpu_fallback'; did you mean 'cpu-fallback'?") == 0);
  bad = problems_of(k_valid_head + "severity_by_region: {hot-path: high}\nmatch:\n  op: ['*']\n");
  CHECK(only_message(bad).find("unknown region 'hot-path'") == 0);
}

TEST_CASE("rules::load_rule_text keeps weighed_by_use, library and extension_modules to their subjects", "[rules]") {
  CHECK(only_message(problems_of(k_valid_head + "weighed_by_use: true\nmatch:\n  call: [a.b]\n")) ==
        "'weighed_by_use' applies to `dependency`, `import` and `setting` rules only");
  CHECK(only_message(problems_of(k_valid_head + "library: [flash-attn]\nmatch:\n  dependency: [flash-attn]\n")) ==
        "'library' names the packages a code finding uses: not for `dependency` rules");
  CHECK(only_message(problems_of(k_valid_head + "extension_modules: true\nmatch:\n  call: [rotary_emb.apply]\n")) ==
        "'extension_modules' applies to `import` rules only");
  std::vector<Problem> problems;
  const auto rule = load_rule_text(k_valid_head + "library: [bitsandbytes, \"flash-attn-*\"]\nmatch:\n  call: [a.b]\n",
                                   "rules/cuda-api/sync-call.yaml", problems);
  REQUIRE(rule.has_value());
  CHECK(rule->library.matches("bitsandbytes"));
  CHECK(rule->library.matches("flash-attn-3"));
  CHECK_FALSE(rule->library.matches("deepspeed"));
  CHECK_FALSE(rule->extension_modules);
  const auto modules = load_rule_text(k_valid_head + "extension_modules: true\nmatch:\n  import: [rotary_emb]\n",
                                      "rules/cuda-api/sync-call.yaml", problems);
  REQUIRE(modules.has_value());
  CHECK(modules->extension_modules);
  CHECK(problems.empty());
}
