#include <catch2/catch.hpp>

#include "tr2audit/gate/comments.hpp"
#include "tr2audit/gate/suppress.hpp"

using namespace tr2audit;
using namespace tr2audit::gate;

namespace {

const std::vector<std::string> k_ids{"cuda-api.cuda-method", "cuda-api.cuda-synchronize",
                                     "cuda-extension.cuda-inline-extension-build"};

rules::Finding finding(const std::string& rule_id, std::uint32_t line, const std::string& path = "train.py") {
  rules::Finding f;
  f.rule_id = rule_id;
  f.category = Category::cuda_api;
  f.severity = Severity::high;
  f.path = path;
  f.at = Span{line, 1, line, 5, 0, 0};
  f.fingerprint = rule_id + std::to_string(line);
  return f;
}

report::Report apply(const std::string& text, std::vector<rules::Finding> findings,
                     const std::string& today = "2026-06-01") {
  report::Report in;
  in.findings = std::move(findings);
  const SourceReader read = [&](const std::string& path) -> std::optional<discover::LoadedSource> {
    if (path != "train.py") return std::nullopt;
    discover::LoadedSource source;
    source.text = text;
    return source;
  };
  return apply_suppressions(in, {"train.py"}, read, SuppressOptions{today, k_ids});
}

const rules::Finding* by_rule(const report::Report& r, std::string_view rule_id) {
  for (const auto& f : r.findings) {
    if (f.rule_id == rule_id) return &f;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("gate::scan_comments skips strings and triple-quoted strings", "[gate]") {
  const std::string text =
      "x = \"# not a comment\"  # real one\n"
      "y = '''\n# inside a docstring\n'''\n"
      "z = rb'\\'#' # second\n"
      "    # own line\n";
  const auto comments = scan_comments(text, CommentSyntax::python);
  REQUIRE(comments.size() == 3);
  CHECK(comments[0].line == 1);
  CHECK(comments[0].text == " real one");
  CHECK_FALSE(comments[0].own_line);
  CHECK(comments[1].line == 5);
  CHECK(comments[1].text == " second");
  CHECK(comments[2].line == 6);
  CHECK(comments[2].own_line);
}

TEST_CASE("gate::parse_directives reads ids, until and reason, and rejects bad ones", "[gate]") {
  const std::string text =
      "a()  # tr2audit: ignore[cuda-api.cuda-method, cuda-api.cuda-synchronize] until=2026-12-31 GPU path, see #42\n"
      "# tr2audit: ignore-file[cuda-api.*] vendored trainer\n"
      "b()  # tr2audit: ignore[cuda-api.cuda-method]\n"
      "c()  # tr2audit: ignore[*] everything\n"
      "d()  # tr2audit: ignore[cuda-api.cuda-methd] typo\n"
      "e()  # tr2audit: ignore[cuda-api.cuda-method] until=2026-02-30 bad date\n"
      "f()  # tr2audit: ignroe[cuda-api.cuda-method] misspelt\n";
  const auto parsed = parse_directives(scan_comments(text, CommentSyntax::python), "train.py", k_ids);
  REQUIRE(parsed.directives.size() == 2);
  CHECK(parsed.directives[0].rule_ids == std::vector<std::string>{"cuda-api.cuda-method", "cuda-api.cuda-synchronize"});
  CHECK(parsed.directives[0].until == "2026-12-31");
  CHECK(parsed.directives[0].reason == "GPU path, see #42");
  CHECK(parsed.directives[1].file_level);
  REQUIRE(parsed.problems.size() == 5);
  CHECK(parsed.problems[0].line == 3);
  CHECK(parsed.problems[0].message.find("no reason") != std::string::npos);
  CHECK(parsed.problems[1].message.find("bare '*'") != std::string::npos);
  CHECK(parsed.problems[2].message.find("did you mean 'cuda-api.cuda-method'") != std::string::npos);
  CHECK(parsed.problems[3].message.find("not a date") != std::string::npos);
  CHECK(parsed.problems[4].message.find("did you mean 'ignore'") != std::string::npos);
}

TEST_CASE("gate::apply_suppressions honours the finding's line and the line above", "[gate]") {
  const std::string text =
      "import torch\n"
      "x.cuda()  # tr2audit: ignore[cuda-api.cuda-method] data stays on GPU in the eval tool\n"
      "# tr2audit: ignore[cuda-api.cuda-synchronize] timing only\n"
      "# a second comment line\n"
      "torch.cuda.synchronize()\n"
      "y.cuda()\n";
  const auto out = apply(text, {finding("cuda-api.cuda-method", 2), finding("cuda-api.cuda-synchronize", 5),
                                finding("cuda-api.cuda-method", 6)});
  REQUIRE(out.findings.size() == 3);
  REQUIRE(out.findings[0].suppressed);
  CHECK(out.findings[0].suppressed->reason == "data stays on GPU in the eval tool");
  REQUIRE(out.findings[1].suppressed);
  CHECK(out.findings[1].suppressed->reason == "timing only");
  CHECK_FALSE(out.findings[2].suppressed);
  CHECK(out.findings[2].id == "F0003");
}

TEST_CASE("gate::apply_suppressions: no reason, no suppression; strings are not comments", "[gate]") {
  const std::string text =
      "x.cuda()  # tr2audit: ignore[cuda-api.cuda-method]\n"
      "s = \"# tr2audit: ignore[cuda-api.cuda-method] looks real\"; y.cuda()\n";
  const auto out = apply(text, {finding("cuda-api.cuda-method", 1), finding("cuda-api.cuda-method", 2)});
  CHECK_FALSE(out.findings[0].suppressed);
  CHECK_FALSE(out.findings[1].suppressed);
  REQUIRE(out.problems.size() == 1);
  CHECK(out.problems[0].kind == ProblemKind::invalid_config);
  CHECK(out.problems[0].line == 1);
}

TEST_CASE("gate::apply_suppressions expires directives against the injected date", "[gate]") {
  const std::string text = "x.cuda()  # tr2audit: ignore[cuda-api.cuda-method] until=2026-03-01 port pending\n";
  const auto before = apply(text, {finding("cuda-api.cuda-method", 1)}, "2026-03-01");
  CHECK(before.findings.size() == 1);
  CHECK(before.findings[0].suppressed);
  const auto after = apply(text, {finding("cuda-api.cuda-method", 1)}, "2026-03-02");
  REQUIRE(after.findings.size() == 2);
  CHECK_FALSE(by_rule(after, "cuda-api.cuda-method")->suppressed);
  const rules::Finding* expired = by_rule(after, k_expired_suppression);
  REQUIRE(expired);
  CHECK(expired->severity == Severity::low);
  CHECK(expired->message.find("expired on 2026-03-01") != std::string::npos);
}

TEST_CASE("gate::apply_suppressions reports unused ids and honours file-level directives", "[gate]") {
  const std::string text =
      "# tr2audit: ignore-file[cuda-api.cuda-synchronize] benchmark script\n"
      "x.cuda()  # tr2audit: ignore[cuda-api.cuda-method, cuda-api.cuda-synchronize] both\n"
      "torch.cuda.synchronize()\n";
  const auto out = apply(text, {finding("cuda-api.cuda-method", 2), finding("cuda-api.cuda-synchronize", 3)});
  CHECK(by_rule(out, "cuda-api.cuda-method")->suppressed);
  REQUIRE(by_rule(out, "cuda-api.cuda-synchronize")->suppressed);
  CHECK(by_rule(out, "cuda-api.cuda-synchronize")->suppressed->reason == "benchmark script");
  const rules::Finding* unused = by_rule(out, k_unused_suppression);
  REQUIRE(unused);
  CHECK(unused->at.line == 2);
  CHECK(unused->subject == "cuda-api.cuda-synchronize");
  CHECK(unused->category == Category::cuda_api);
  CHECK(unused->fingerprint.size() == 16);
  CHECK(std::count_if(out.findings.begin(), out.findings.end(),
                      [](const rules::Finding& f) { return f.rule_id == k_unused_suppression; }) == 1);
  CHECK(std::any_of(out.rules.begin(), out.rules.end(), [](const auto& r) { return r.id == k_unused_suppression; }));
}

TEST_CASE("gate::is_iso_date accepts real dates only", "[gate]") {
  CHECK(is_iso_date("2028-02-29"));
  CHECK_FALSE(is_iso_date("2027-02-29"));
  CHECK_FALSE(is_iso_date("2026-13-01"));
  CHECK_FALSE(is_iso_date("26-01-01"));
}
