#include <catch2/catch.hpp>

#include "sample_report.hpp"
#include "tr2audit/core/text.hpp"

using namespace tr2audit;
using namespace tr2audit::report;

namespace {
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}
/// Every finding in full (the layout these tests check); the default view is tested below.
RenderOptions all_view() {
  RenderOptions options;
  options.all = true;
  return options;
}
std::size_t index_of(const std::vector<std::string>& lines, std::string_view needle) {
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find(needle) != std::string::npos) return i;
  }
  return lines.size();
}
}  // namespace

TEST_CASE("report::render_text puts the verdict first, then reasons, flip, plan, operators, setup, findings",
          "[report]") {
  const auto lines = lines_of(testing::render_to_string(render_text, testing::sample_report(), all_view()));
  const std::size_t verdict = index_of(lines, "Verdict: dual-run · readiness 62/100 · confidence medium");
  REQUIRE(verdict < lines.size());
  CHECK(verdict < 5);
  const std::size_t why = index_of(lines, "Why");
  const std::size_t flip = index_of(lines, "What would change the verdict");
  const std::size_t plan = index_of(lines, "Migration plan");
  const std::size_t ops = index_of(lines, "Operators: 3 distinct");
  const std::size_t setup = index_of(lines, "Training setup");
  const std::size_t file = index_of(lines, "  train.py:12:19 high cuda-api.cuda-device-literal");
  CHECK(verdict < why);
  CHECK(why < flip);
  CHECK(flip < plan);
  CHECK(plan < ops);
  CHECK(ops < setup);
  CHECK(setup < file);
  CHECK(file < lines.size());
  CHECK(index_of(lines, "     at my dir/ops é.py:3") < lines.size());
  CHECK(index_of(lines, "unsupported torch.nonzero · 3 calls · first at train.py:44") < lines.size());
  CHECK(index_of(lines, "caveat torch.sort · 1 call · first at model.py:9") < lines.size());
  CHECK(index_of(lines, "torch.matmul") == lines.size());  // supported ops are not listed
  CHECK(index_of(lines, "  fine-tuning   lora (train.py:5, train.py:60)") < lines.size());
  CHECK(index_of(lines, "services/trainer: trainium2-pilot · readiness 85/100") < lines.size());
}

TEST_CASE("report::render_text draws a caret under the finding's columns in the trimmed snippet", "[report]") {
  const auto lines = lines_of(testing::render_to_string(render_text, testing::sample_report(), all_view()));
  const std::size_t code = index_of(lines, "| batch = batch.to(\"cuda\")");
  REQUIRE(code + 1 < lines.size());
  // snippet_column 18 is the opening quote; the span is 6 code points wide ("cuda" with quotes).
  CHECK(lines[code + 1] == "    | " + std::string(17, ' ') + "^^^^^^");
  // A multi-line span gets a single caret; an unknown snippet column gets none.
  const std::size_t multi = index_of(lines, "| ops = load(");
  REQUIRE(multi + 1 < lines.size());
  CHECK(lines[multi + 1] == "    | " + std::string(6, ' ') + "^");
  Report report = testing::sample_report();
  for (auto& f : report.findings) f.snippet_column = 0;
  CHECK(testing::render_to_string(render_text, report, all_view()).find('^') == std::string::npos);
}

TEST_CASE("report::render_text groups findings by file, lists suppressed ones apart and the problems", "[report]") {
  const std::string text = testing::render_to_string(render_text, testing::sample_report(), all_view());
  const auto lines = lines_of(text);
  CHECK(index_of(lines, "notebooks/explore.ipynb:40:5 (cell 4, line 2) medium") < lines.size());
  CHECK(index_of(lines, "Suppressed (1)") < lines.size());
  CHECK(
      index_of(
          lines,
          "train.py:30:1 cuda-api.cuda-device-literal F0004 · CPU fallback path, kept on purpose (until 2027-01-31)") <
      lines.size());
  CHECK(index_of(lines, "syntax-errors: broken.py:7:3: syntax error near 'def'") < lines.size());
  CHECK(text.find("\x1b[") == std::string::npos);
}

TEST_CASE("report::render_text --quiet keeps the verdict and counts; colour only when asked", "[report]") {
  RenderOptions quiet;
  quiet.quiet = true;
  const std::string text = testing::render_to_string(render_text, testing::sample_report(), quiet);
  CHECK(text.find("Verdict: dual-run") != std::string::npos);
  CHECK(text.find("Findings: 3 (1 blocker, 1 high, 1 medium), 1 suppressed") != std::string::npos);
  CHECK(text.find("Why") == std::string::npos);
  CHECK(text.find("train.py:12:19") == std::string::npos);
  RenderOptions color;
  color.color = true;
  const std::string colored = testing::render_to_string(render_text, testing::sample_report(), color);
  CHECK(colored.find("\x1b[1;31mblocker\x1b[0m") != std::string::npos);
  CHECK(colored.find("\x1b[1;33mdual-run\x1b[0m") != std::string::npos);
}

TEST_CASE("report::render_text by default collapses repeats, hides info and wraps long sentences", "[report]") {
  Report report = testing::sample_report();
  report.findings.push_back(report.findings.front());  // a second finding of the same rule in the same file
  report.findings.back().id = "F0099";
  report.findings.back().at.line += 10;
  report.findings.push_back(report.findings.front());
  report.findings.back().id = "F0098";
  report.findings.back().severity = Severity::info;
  report.recommendation->reasons.front().text = std::string(300, 'x').replace(100, 1, " ").replace(200, 1, " ");
  RenderOptions narrow;
  narrow.width = 80;
  const std::string text = testing::render_to_string(render_text, report, narrow);
  const auto lines = lines_of(text);
  const auto& first = report.findings.front();
  const std::size_t collapsed = index_of(lines, first.rule_id + " · ");
  REQUIRE(collapsed < lines.size());
  CHECK(lines[collapsed].find(" ×2") != std::string::npos);
  CHECK(index_of(lines, "[F0099]") == lines.size());  // the repeat is counted, not listed
  CHECK(index_of(lines, "[F0098]") == lines.size());  // info is hidden by default
  CHECK(index_of(lines, "1 info finding") < lines.size());
  CHECK(index_of(lines, "Findings by file") < lines.size());
  for (const auto& line : lines) {
    if (line.find("xxxx") != std::string::npos) CHECK(count_code_points(line) <= 104);  // one unbreakable word
  }
  CHECK(testing::render_to_string(render_text, report, all_view()).find("[F0099]") != std::string::npos);
}

TEST_CASE("report::render_text spells counts with the right plural", "[report]") {
  Report report = testing::sample_report();
  report.scan.files_scanned = 1;
  report.scan.lines = 1;
  const std::string text = testing::render_to_string(render_text, report);
  CHECK(text.find("Scanned 1 file (1 line) in") != std::string::npos);
  report.scan.files_scanned = 2;
  CHECK(testing::render_to_string(render_text, report).find("Scanned 2 files") != std::string::npos);
}
