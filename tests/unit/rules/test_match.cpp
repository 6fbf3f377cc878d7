#include <catch2/catch.hpp>

#include "support/extract_helpers.hpp"
#include "tr2audit/rules/match.hpp"
#include "tr2audit/rules/op_table.hpp"

using namespace tr2audit;
using namespace tr2audit::rules;

namespace {

/// A RuleSet from rule bodies: each entry is {id, match block, extra top-level keys}.
struct RuleText {
  std::string id;
  std::string match;
  std::string extra;
};

RuleSet rule_set(const std::vector<RuleText>& texts) {
  std::vector<Rule> rules;
  for (const RuleText& t : texts) {
    const std::string category = t.id.substr(0, t.id.find('.'));
    const std::string yaml = "id: " + t.id + "\ntitle: T\ncategory: " + category +
                             "\nseverity: medium\nconfidence: high\nmessage: 'hit {subject}'\nwhy: W\nfix: F\n"
                             "sources: [S]\nmatch:\n" +
                             t.match + t.extra;
    std::vector<Problem> problems;
    auto rule = load_rule_text(yaml, "", problems);
    INFO(yaml);
    for (const Problem& p : problems) INFO(format_problem(p));
    REQUIRE(problems.empty());
    rules.push_back(std::move(*rule));
  }
  return RuleSet(std::move(rules));
}

Span span_at(std::uint32_t line, std::uint32_t column = 1) {
  return Span{line, column, line, column + 10, 0, 0};
}

facts::CallFact call(const std::string& callee, std::uint32_t line, facts::Context ctx = {}) {
  facts::CallFact c;
  c.callee = QualifiedName::from_dotted(callee);
  c.callee_text = FactString(callee);
  c.at = span_at(line);
  c.ctx = ctx;
  return c;
}

facts::CallFact method_call(const std::string& receiver, const std::string& method, std::uint32_t line) {
  facts::CallFact c;
  c.callee_text = FactString(receiver + "." + method);
  c.method = FactString(method);
  c.receiver_text = FactString(receiver);
  c.at = span_at(line);
  return c;
}

facts::Argument keyword_arg(const std::string& keyword, const std::string& value) {
  facts::Argument a;
  a.keyword = FactString(keyword);
  a.kind = facts::LiteralKind::string;
  a.value = FactString(value);
  return a;
}

facts::Argument positional_arg(const std::string& value) {
  return keyword_arg("", value);
}

std::vector<std::uint32_t> lines_of(const std::vector<Finding>& findings) {
  std::vector<std::uint32_t> out;
  for (const Finding& f : findings) out.push_back(f.at.line);
  return out;
}

facts::FileFacts python_file(const std::string& path = "train.py") {
  facts::FileFacts file;
  file.path = FactString(path);
  file.kind = discover::FileKind::python;
  return file;
}

}  // namespace

TEST_CASE("rules::match call subject matches exact names and globs by resolved callee", "[rules]") {
  const RuleSet rules = rule_set({{"cuda-api.sync", "  call: [torch.cuda.synchronize]\n", ""},
                                  {"cuda-api.any-cuda", "  call: ['torch.cuda.*']\n", ""}});
  facts::FileFacts file = python_file();
  file.calls = {call("torch.cuda.synchronize", 3), call("torch.cuda.amp.autocast", 5), call("torch.cudax.f", 7),
                method_call("x", "synchronize", 9)};
  const auto findings = tr2audit::testing::match_one(file, rules, TargetProfile::native);
  REQUIRE(findings.size() == 3);
  CHECK(findings[0].rule_id == "cuda-api.any-cuda");  // same line: sorted by rule id
  CHECK(findings[1].rule_id == "cuda-api.sync");
  CHECK(findings[1].at.line == 3);
  CHECK(findings[2].at.line == 5);
  CHECK(findings[2].subject == "torch.cuda.amp.autocast");
  CHECK(findings[2].message == "hit torch.cuda.amp.autocast");
}

TEST_CASE("rules::match method subject needs an unresolved attribute call; receiver filters", "[rules]") {
  const RuleSet rules = rule_set({{"dynamic-graph.item", "  method: [item]\n  not_receiver: ['numpy.*']\n", ""},
                                  {"dynamic-graph.np-item", "  method: [item]\n  receiver: ['numpy.*']\n", ""}});
  facts::FileFacts file = python_file();
  facts::CallFact np = method_call("np.mean(x)", "item", 4);
  np.receiver_callee = QualifiedName::from_dotted("numpy.mean");
  facts::CallFact resolved = call("torch.Tensor.item", 6);
  resolved.method = "item";
  file.calls = {method_call("loss", "item", 2), np, resolved, method_call("loss", "items", 8)};
  const auto findings = tr2audit::testing::match_one(file, rules, TargetProfile::native);
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].rule_id == "dynamic-graph.item");
  CHECK(findings[0].at.line == 2);
  CHECK(findings[0].subject == "item");
  CHECK(findings[1].rule_id == "dynamic-graph.np-item");
  CHECK(findings[1].at.line == 4);
}

TEST_CASE("rules::match keyword and missing_keyword conditions", "[rules]") {
  const RuleSet rules =
      rule_set({{"dynamic-shape.pad-longest", "  call: [tok]\n  keyword: {padding: [longest, 'True']}\n", ""},
                {"dynamic-shape.any-pad", "  call: [tok]\n  keyword: {padding: ['*']}\n", ""},
                {"dynamic-shape.no-max", "  call: [tok]\n  missing_keyword: [max_length]\n", ""}});
  facts::FileFacts file = python_file();
  auto c1 = call("tok", 1);
  c1.args = {keyword_arg("padding", "longest")};
  auto c2 = call("tok", 2);
  c2.args = {keyword_arg("padding", "max_length"), keyword_arg("max_length", "128")};
  auto c3 = call("tok", 3);
  facts::Argument splat;
  splat.is_splat = true;
  splat.keyword = "**";
  splat.value = "**kwargs";
  c3.args = {splat};
  file.calls = {c1, c2, c3};
  const auto findings = tr2audit::testing::match_one(file, rules, TargetProfile::native);
  std::vector<std::pair<std::string, std::uint32_t>> got;
  for (const auto& f : findings) got.emplace_back(f.rule_id, f.at.line);
  CHECK(got == std::vector<std::pair<std::string, std::uint32_t>>{{"dynamic-shape.any-pad", 1},
                                                                  {"dynamic-shape.no-max", 1},
                                                                  {"dynamic-shape.pad-longest", 1},
                                                                  {"dynamic-shape.any-pad", 2}});
}

TEST_CASE("rules::match positional and argument-count conditions", "[rules]") {
  const RuleSet rules =
      rule_set({{"cuda-api.to-cuda", "  method: [to]\n  positional: {0: ['cuda*']}\n  max_args: 1\n", ""},
                {"cuda-api.two-args", "  method: [to]\n  min_args: 2\n", ""}});
  facts::FileFacts file = python_file();
  auto m1 = method_call("x", "to", 1);
  m1.args = {positional_arg("cuda:0")};
  auto m2 = method_call("x", "to", 2);
  m2.args = {positional_arg("cpu")};
  auto m3 = method_call("x", "to", 3);
  m3.args = {positional_arg("cuda"), positional_arg("float16")};
  auto m4 = method_call("x", "to", 4);
  facts::Argument star;
  star.is_splat = true;
  star.value = "*args";
  m4.args = {star, positional_arg("cuda")};
  file.calls = {m1, m2, m3, m4};
  const auto findings = tr2audit::testing::match_one(file, rules, TargetProfile::native);
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].rule_id == "cuda-api.to-cuda");
  CHECK(findings[0].at.line == 1);
  CHECK(findings[1].rule_id == "cuda-api.two-args");
  CHECK(findings[1].at.line == 3);
}

TEST_CASE("rules::match import subject by target or module with origin and dynamic", "[rules]") {
  const RuleSet rules = rule_set({{"cuda-library.flash", "  import: [flash_attn, 'flash_attn.*']\n", ""},
                                  {"cuda-extension.compiled", "  import: ['*']\n  origin: [local-missing]\n", ""},
                                  {"cuda-library.dyn", "  import: [apex]\n  dynamic: true\n", ""}});
  facts::FileFacts file = python_file();
  facts::ImportFact i1;
  i1.target = QualifiedName::from_dotted("flash_attn.flash_attn_func");
  i1.module = QualifiedName::from_dotted("flash_attn");
  i1.at = span_at(1);
  facts::ImportFact i2;
  i2.target = QualifiedName::from_dotted("pkg._C");
  i2.module = QualifiedName::from_dotted("pkg");
  i2.at = span_at(2);
  facts::ImportFact i3;
  i3.target = i3.module = QualifiedName::from_dotted("apex");
  i3.at = span_at(3);
  facts::ImportFact i4 = i3;
  i4.dynamic = true;
  i4.at = span_at(4);
  file.imports = {i1, i2, i3, i4};
  file.path = "pkg/model.py";
  file.module_name = "pkg.model";
  facts::FileFacts init = python_file();  // makes `pkg` a package of the repo, so `pkg._C` is a compiled extension
  init.path = "pkg/__init__.py";
  init.module_name = "pkg";
  init.is_package_init = true;
  const program::Program model = tr2audit::testing::program_of({file, init});
  const auto findings = match(program::FileView{model, program::FileId{0}}, rules, TargetProfile::native);
  std::vector<std::pair<std::string, std::uint32_t>> got;
  for (const auto& f : findings) got.emplace_back(f.rule_id, f.at.line);
  CHECK(got == std::vector<std::pair<std::string, std::uint32_t>>{
                   {"cuda-library.flash", 1}, {"cuda-extension.compiled", 2}, {"cuda-library.dyn", 4}});
  CHECK(findings[0].subject == "flash_attn.flash_attn_func");  // one finding although target and module match
}

TEST_CASE("rules::match decorator, assign, device, dependency, pattern and file subjects", "[rules]") {
  const RuleSet rules =
      rule_set({{"cuda-extension.triton", "  decorator: ['triton.*']\n  keyword: {num_warps: ['*']}\n", ""},
                {"cuda-api.cudnn-bench", "  assign: [torch.backends.cudnn.benchmark]\n  value: ['True']\n", ""},
                {"cuda-api.cuda-device", "  device: ['cuda', 'cuda:*']\n  use: [call-argument]\n", ""},
                {"cuda-library.flash-dep", "  dependency: [flash-attn]\n", ""},
                {"dynamic-graph.branch", "  pattern: [data-dependent-branch]\n", ""},
                {"cuda-extension.cu-file", "  file: cuda-source\n", ""}});
  facts::FileFacts file = python_file();
  facts::DecoratorFact d;
  d.decorator = QualifiedName::from_dotted("triton.jit");
  d.args = {keyword_arg("num_warps", "4")};
  d.at = span_at(1);
  facts::DecoratorFact d_no_kw = d;
  d_no_kw.args.clear();
  d_no_kw.at = span_at(2);
  facts::AssignFact a;
  a.target = QualifiedName::from_dotted("torch.backends.cudnn.benchmark");
  a.value.value = "True";
  a.at = span_at(3);
  facts::AssignFact a_false = a;
  a_false.value.value = "False";
  a_false.at = span_at(4);
  facts::DeviceLiteralFact dev{"cuda:1", facts::DeviceUse::call_argument, ".to", "", span_at(5), {}};
  facts::DeviceLiteralFact dev_cmp{"cuda", facts::DeviceUse::comparison, "", "", span_at(6), {}};
  facts::DependencyFact dep{"flash-attn", "flash-attn>=2", "dependencies", span_at(7)};
  facts::PatternFact pat{"data-dependent-branch", "if x.max() > t", span_at(8), {}};
  file.decorators = {d, d_no_kw};
  file.assigns = {a, a_false};
  file.devices = {dev, dev_cmp};
  file.dependencies = {dep};
  file.patterns = {pat};
  CHECK(lines_of(tr2audit::testing::match_one(file, rules, TargetProfile::native)) ==
        std::vector<std::uint32_t>{1, 3, 5, 7, 8});

  facts::FileFacts cu;
  cu.path = "csrc/kernel.cu";
  cu.kind = discover::FileKind::cuda_source;
  const auto cu_findings = tr2audit::testing::match_one(cu, rules, TargetProfile::native);
  REQUIRE(cu_findings.size() == 1);
  CHECK(cu_findings[0].rule_id == "cuda-extension.cu-file");
  CHECK(cu_findings[0].at.line == 1);
  CHECK(cu_findings[0].at.column == 1);
  CHECK(cu_findings[0].subject == "csrc/kernel.cu");
}

TEST_CASE("rules::match where and unless with guards, regions, loops, functions and paths", "[rules]") {
  const RuleSet rules = rule_set(
      {{"dynamic-graph.in-forward", "  method: [item]\n", "where:\n  region: [forward]\n"},
       {"dynamic-graph.in-loop", "  method: [item]\n", "where:\n  in_training_loop: true\n"},
       {"cuda-api.unguarded", "  method: [item]\n", "unless:\n  guard: [cuda-available, device-branch]\n"},
       {"cuda-api.fn-glob", "  method: [item]\n", "where:\n  function: ['*.forward']\n  path: ['models/**']\n"},
       {"cuda-api.not-test", "  method: [item]\n", "unless:\n  in_test: true\n  in_error_region: true\n"}});
  facts::FileFacts file = python_file("models/net.py");
  file.classes.push_back(facts::ClassInfo{"Net", "Net", {}, {}, -1, span_at(1)});
  facts::FunctionInfo forward;
  forward.name = "forward";
  forward.qualname = "Net.forward";
  forward.klass = 0;
  // `@torch.no_grad() def forward`: a post-processor, evaluation (a `with torch.no_grad():` block inside a
  // forward stays forward; see the region tests).
  forward.decorators = {QualifiedName::from_dotted("torch.no_grad")};
  file.functions.push_back(forward);
  facts::FunctionInfo train;
  train.name = "run";
  train.qualname = "run";
  file.functions.push_back(train);
  facts::LoopInfo loop;
  loop.function = 1;
  loop.calls_backward = true;
  file.loops.push_back(loop);

  auto in_forward = method_call("x", "item", 10);
  in_forward.ctx.function = 0;
  in_forward.ctx.klass = 0;
  in_forward.ctx.guards = facts::guard_bit(facts::Guard::no_grad) | facts::guard_bit(facts::Guard::cuda_available);
  auto in_loop = method_call("loss", "item", 20);
  in_loop.ctx.function = 1;
  in_loop.ctx.loop = 0;
  auto fwd_plain = method_call("h", "item", 12);
  fwd_plain.ctx.function = 0;
  fwd_plain.ctx.klass = 0;
  auto broken = method_call("y", "item", 30);
  broken.ctx.in_error_region = true;
  file.calls = {in_forward, fwd_plain, in_loop, broken};

  std::vector<std::pair<std::string, std::uint32_t>> got;
  const auto findings = tr2audit::testing::match_one(file, rules, TargetProfile::native);
  for (const auto& f : findings) got.emplace_back(f.rule_id, f.at.line);
  CHECK(got == std::vector<std::pair<std::string, std::uint32_t>>{{"cuda-api.fn-glob", 10},
                                                                  {"cuda-api.not-test", 10},
                                                                  {"cuda-api.fn-glob", 12},
                                                                  {"cuda-api.not-test", 12},
                                                                  {"cuda-api.unguarded", 12},
                                                                  {"dynamic-graph.in-forward", 12},
                                                                  {"cuda-api.not-test", 20},
                                                                  {"cuda-api.unguarded", 20},
                                                                  {"dynamic-graph.in-loop", 20},
                                                                  {"cuda-api.unguarded", 30}});
  REQUIRE(findings.size() == 10);
  // Findings carry their context.
  const Finding& fwd = findings[0];
  CHECK(fwd.function == "Net.forward");
  CHECK(fwd.klass == "Net");
  CHECK(fwd.region == facts::Region::evaluation);  // no_grad wins over forward
  CHECK(guard_names(fwd.guards) == std::vector<std::string>{"cuda-available", "no-grad"});
  CHECK(findings[2].region == facts::Region::forward);
  CHECK(findings[6].region == facts::Region::training_step);
  CHECK(findings[6].function == "run");
  CHECK(findings[9].in_error_region);
  CHECK(findings[9].function.empty());

  file.path = "scripts/net.py";  // the path glob no longer holds
  for (const auto& f : tr2audit::testing::match_one(file, rules, TargetProfile::native))
    CHECK(f.rule_id != "cuda-api.fn-glob");
  file.is_test = true;
  for (const auto& f : tr2audit::testing::match_one(file, rules, TargetProfile::native))
    CHECK(f.rule_id != "cuda-api.not-test");
}

TEST_CASE("rules::match honours profiles and severity_by_profile", "[rules]") {
  const RuleSet rules =
      rule_set({{"dynamic-graph.xla-only", "  method: [item]\n", "profiles: [xla]\n"},
                {"dynamic-graph.both", "  method: [item]\n", "severity_by_profile: {xla: blocker}\n"}});
  facts::FileFacts file = python_file();
  file.calls = {method_call("loss", "item", 1)};
  const auto native = tr2audit::testing::match_one(file, rules, TargetProfile::native);
  REQUIRE(native.size() == 1);
  CHECK(native[0].rule_id == "dynamic-graph.both");
  CHECK(native[0].severity == Severity::medium);
  const auto xla = tr2audit::testing::match_one(file, rules, TargetProfile::xla);
  REQUIRE(xla.size() == 2);
  CHECK(xla[0].rule_id == "dynamic-graph.both");
  CHECK(xla[0].severity == Severity::blocker);
  CHECK(xla[1].rule_id == "dynamic-graph.xla-only");
  CHECK(xla[1].confidence == Confidence::high);
  CHECK(xla[1].category == Category::dynamic_graph);
}

TEST_CASE("rules::match fills message placeholders", "[rules]") {
  std::vector<Problem> problems;
  auto rule = load_rule_text(
      "id: cuda-api.msg\ntitle: T\ncategory: cuda-api\nseverity: low\nconfidence: low\n"
      "message: '{method} on {receiver} in {function} via {callee} ({text}) = {value}; {unknown}'\n"
      "why: W\nfix: F\nsources: [S]\nmatch:\n  method: [to]\n  keyword: {device: ['*']}\n",
      "", problems);
  CHECK(problems.size() == 1);  // {unknown} is rejected at load time ...
  CHECK(fill_message("{method} {unknown} {", MessageFields{"s", "c", "m"}) == "m {unknown} {");  // ... kept here
  CHECK(fill_message("{subject}/{callee}/{value}/{detail}/{text}",
                     MessageFields{"s", "c", "m", "r", "v", "f", "d", "t"}) == "s/c/v/d/t");
  // Module-level code has no function to name.
  CHECK(fill_message("`{text}` in `{function}` syncs", MessageFields{.function = "", .text = "x.item()"}) ==
        "`x.item()` at the module's top level syncs");
  CHECK(fill_message("generates inside {function}: a", MessageFields{.function = "", .text = "g"}) ==
        "generates inside the module's top-level code: a");
  CHECK(fill_message("`{text}` in `{function}` syncs", MessageFields{.function = "step", .text = "x.item()"}) ==
        "`x.item()` in `step` syncs");

  const RuleSet rules = rule_set(
      {{"cuda-api.to-device", "  method: [to]\n  keyword: {device: ['*']}\n", "severity_by_profile: {native: low}\n"}});
  RuleSet with_message;
  {
    std::vector<Rule> list = rules.rules();
    list[0].message = "{method} on {receiver} in {function} = {value} [{callee}|{text}]";
    with_message = RuleSet(std::move(list));
  }
  facts::FileFacts file = python_file();
  facts::FunctionInfo fn;
  fn.name = "step";
  fn.qualname = "Trainer.step";
  file.functions.push_back(fn);
  auto m = method_call("batch", "to", 3);
  m.args = {keyword_arg("device", "cuda")};
  m.ctx.function = 0;
  file.calls = {m};
  const auto findings = tr2audit::testing::match_one(file, with_message, TargetProfile::native);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].message == "to on batch in Trainer.step = cuda [batch.to|batch.to]");
}

TEST_CASE("rules::match emits once per rule and span, and sorts by line, column, rule", "[rules]") {
  const RuleSet rules =
      rule_set({{"cuda-api.b", "  call: ['torch.*']\n", ""}, {"cuda-api.a", "  call: ['torch.*']\n", ""}});
  facts::FileFacts file = python_file();
  auto late = call("torch.x", 9);
  auto early_col = call("torch.y", 2);
  early_col.at = span_at(2, 3);
  auto first_col = call("torch.z", 2);
  first_col.at = span_at(2, 1);
  file.calls = {late, early_col, first_col, late};
  const auto findings = tr2audit::testing::match_one(file, rules, TargetProfile::native);
  std::vector<std::string> order;
  for (const auto& f : findings)
    order.push_back(std::to_string(f.at.line) + ":" + std::to_string(f.at.column) + " " + f.rule_id);
  CHECK(order == std::vector<std::string>{"2:1 cuda-api.a", "2:1 cuda-api.b", "2:3 cuda-api.a", "2:3 cuda-api.b",
                                          "9:1 cuda-api.a", "9:1 cuda-api.b"});
}

TEST_CASE("rules::match maps notebook lines to cells", "[rules]") {
  const RuleSet rules = rule_set({{"cuda-api.sync", "  call: [torch.cuda.synchronize]\n", ""}});
  facts::FileFacts file = python_file("nb.ipynb");
  file.kind = discover::FileKind::notebook;
  file.cell_first_lines = {1, 5, 12};
  file.cell_numbers = {1, 3, 4};
  file.calls = {call("torch.cuda.synchronize", 7), call("torch.cuda.synchronize", 12)};
  const auto findings = tr2audit::testing::match_one(file, rules, TargetProfile::native);
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].cell.cell == 3);
  CHECK(findings[0].cell.line == 3);
  CHECK(findings[1].cell.cell == 4);
  CHECK(findings[1].cell.line == 1);
}

TEST_CASE("rules::match call_text subject and argument, exclude and section conditions", "[rules]") {
  const RuleSet rules =
      rule_set({{"dynamic-shape.tok", "  call_text: ['tokenizer', '*.tokenizer']\n  keyword: {padding: ['*']}\n", ""},
                {"cuda-extension.cu-src", "  call: ['torch.utils.cpp_extension.*']\n  any_argument: ['*.cu']\n", ""},
                {"cuda-extension.no-cu", "  call: ['torch.utils.cpp_extension.*']\n  not_argument: ['*.cu']\n", ""},
                {"cuda-extension.custom-op", "  call: ['torch.ops.*']\n  exclude: ['torch.ops.aten.*']\n", ""},
                {"cuda-library.gpu-extra",
                 "  dependency: ['*']\n  section: ['optional-dependencies.*']\n"
                 "  not_section: ['optional-dependencies.dev']\n",
                 ""}});
  facts::FileFacts file = python_file();
  facts::CallFact tok;
  tok.callee_text = "self.tokenizer";
  tok.args = {keyword_arg("padding", "longest")};
  tok.at = span_at(1);
  facts::CallFact tok_no_kw = tok;
  tok_no_kw.args.clear();
  tok_no_kw.at = span_at(2);
  auto load_cu = call("torch.utils.cpp_extension.load", 3);
  facts::Argument sources = keyword_arg("sources", "[\"k.cu\"]");
  sources.value = "k.cu";
  load_cu.args = {keyword_arg("name", "k"), sources};
  auto load_cpp = call("torch.utils.cpp_extension.load", 4);
  load_cpp.args = {keyword_arg("sources", "k.cpp")};
  file.calls = {tok, tok_no_kw, load_cu, load_cpp, call("torch.ops.mylib.fused", 5), call("torch.ops.aten.add", 6)};
  file.dependencies = {{"flash-attn", "flash-attn", "optional-dependencies.gpu", span_at(7)},
                       {"pytest", "pytest", "optional-dependencies.dev", span_at(8)},
                       {"torch", "torch", "dependencies", span_at(9)}};
  const auto findings = tr2audit::testing::match_one(file, rules, TargetProfile::native);
  std::vector<std::pair<std::string, std::uint32_t>> got;
  for (const auto& f : findings) got.emplace_back(f.rule_id, f.at.line);
  CHECK(got == std::vector<std::pair<std::string, std::uint32_t>>{{"dynamic-shape.tok", 1},
                                                                  {"cuda-extension.cu-src", 3},
                                                                  {"cuda-extension.no-cu", 4},
                                                                  {"cuda-extension.custom-op", 5},
                                                                  {"cuda-library.gpu-extra", 7}});
  CHECK(findings[0].subject == "self.tokenizer");
}

TEST_CASE("rules::match knows the periodic and step-closure guards", "[rules]") {
  const RuleSet rules =
      rule_set({{"dynamic-graph.item", "  method: [item]\n", "unless:\n  guard: [periodic, step-closure]\n"}});
  facts::FileFacts file = python_file();
  auto periodic = method_call("loss", "item", 1);
  periodic.ctx.guards = facts::guard_bit(facts::Guard::periodic);
  auto closure = method_call("loss", "item", 2);
  closure.ctx.guards = facts::guard_bit(facts::Guard::step_closure);
  file.calls = {periodic, closure, method_call("loss", "item", 3)};
  CHECK(lines_of(tr2audit::testing::match_one(file, rules, TargetProfile::native)) == std::vector<std::uint32_t>{3});
  CHECK(guard_names(facts::guard_bit(facts::Guard::step_closure)) == std::vector<std::string>{"step-closure"});
}

TEST_CASE("rules::match op subject: table status, effect, dtype arguments and severity by region", "[rules]") {
  const std::string table_text =
      "version: \"t\"\nneuron_sdk: \"2.34\"\nchecked: \"2026-12-01\"\nops:\n"
      "- name: torch.linalg.eigh\n  kind: op\n  native: {status: caveat, effect: cpu-fallback, note: \"Host.\"}\n"
      "  xla: {status: supported, note: \"Lowered.\"}\n  alternative: \"power iteration\"\n  source: \"s\"\n"
      "- name: torch.topk\n  kind: op\n  native: {status: caveat, note: \"Integers only.\"}\n"
      "  xla: {status: caveat, note: \"Integers only.\"}\n  source: \"s\"\n"
      "- name: torch.Tensor.double\n  kind: api\n  native: {status: caveat, effect: dtype, note: \"No FP64.\"}\n"
      "  xla: {status: caveat, effect: dtype, note: \"No FP64.\"}\n  source: \"s\"\n"
      "- name: torch.float64\n  kind: api\n  native: {status: caveat, effect: dtype, note: \"No FP64.\"}\n"
      "  xla: {status: caveat, effect: dtype, note: \"No FP64.\"}\n  source: \"s\"\n";
  const LoadedOpTable table = OpTable::load_text(table_text, "neuron-ops.yaml");
  REQUIRE(table.table);
  const RuleSet rules = rule_set(
      {{"operator-support.fallback", "  op: ['*']\n  status: [caveat]\n  effect: [cpu-fallback]\n  op_kind: [op]\n",
        "severity_by_region: {data-pipeline: info}\n"},
       {"operator-support.dtype", "  op: ['*']\n  effect: [dtype]\n", ""}});
  const std::string code =
      "import torch\n"                                     // 1
      "class M(torch.nn.Module):\n"                        // 2
      "    def forward(self, x):\n"                        // 3
      "        a = torch.linalg.eigh(x)\n"                 // 4 fallback
      "        b = torch.topk(x, 2)\n"                     // 5 caveat without effect
      "        c = x.double()\n"                           // 6 dtype (ambiguous name, cast meaning)
      "        d = torch.zeros(3, dtype=torch.float64)\n"  // 7 dtype argument
      "        e = torch.finfo(torch.float64).eps\n"       // 8 a dtype named, not made
      "        return a\n"                                 // 9
      "class Data(torch.utils.data.Dataset):\n"            // 10
      "    def __getitem__(self, i):\n"                    // 11
      "        return torch.linalg.eigh(self.x[i])\n";     // 12 fallback, data pipeline: info
  const program::Program model = tr2audit::testing::program_of({tr2audit::testing::facts_of(code, "model.py")});
  const program::FileView view{model, program::FileId{0}};
  CHECK(match(view, rules, TargetProfile::native).empty());  // no table, no op findings
  const auto findings = match(view, rules, TargetProfile::native, &*table.table);
  std::vector<std::tuple<std::string, std::uint32_t, Severity>> got;
  for (const auto& f : findings) got.emplace_back(f.rule_id, f.at.line, f.severity);
  using T = std::tuple<std::string, std::uint32_t, Severity>;
  CHECK(got == std::vector<T>{{"operator-support.fallback", 4, Severity::medium},
                              {"operator-support.dtype", 6, Severity::medium},
                              {"operator-support.dtype", 7, Severity::medium},
                              {"operator-support.fallback", 12, Severity::info}});
  REQUIRE_FALSE(findings.empty());
  CHECK(findings[0].subject == "torch.linalg.eigh");
  // Under xla the row is supported: no finding.
  const auto xla = match(view, rules, TargetProfile::xla, &*table.table);
  CHECK(std::none_of(xla.begin(), xla.end(), [](const auto& f) { return f.rule_id == "operator-support.fallback"; }));

  // A rule of another category on the same call already says it: the op finding is dropped.
  const RuleSet with_dynamic = rule_set({{"operator-support.fallback", "  op: ['*']\n  effect: [cpu-fallback]\n", ""},
                                         {"dynamic-graph.eigh", "  call: [torch.linalg.eigh]\n", ""}});
  std::vector<std::pair<std::string, std::uint32_t>> deduped;
  for (const auto& f : match(view, with_dynamic, TargetProfile::native, &*table.table))
    deduped.emplace_back(f.rule_id, f.at.line);
  CHECK(deduped ==
        std::vector<std::pair<std::string, std::uint32_t>>{{"dynamic-graph.eigh", 4}, {"dynamic-graph.eigh", 12}});
}
