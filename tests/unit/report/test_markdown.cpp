#include <catch2/catch.hpp>

#include "report/renderers.hpp"
#include "sample_report.hpp"

using namespace tr2audit;
using namespace tr2audit::report;

namespace {
std::size_t count_of(const std::string& text, std::string_view needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("report::render_markdown opens with the verdict badge, confidence, reasons and flip", "[report]") {
  const std::string md = testing::render_to_string(render_markdown, testing::sample_report());
  CHECK(md.rfind("## 🟡 dual-run · readiness 62/100\n", 0) == 0);
  CHECK(md.find("**Confidence:** medium") != std::string::npos);
  CHECK(md.find("### Why\n\n- A CUDA extension is built at runtime. <sub>F0002</sub>") != std::string::npos);
  CHECK(md.find("### What would change the verdict\n\n- Port the fused kernel") != std::string::npos);
  CHECK(md.find("<details><summary>Migration plan (2 steps)</summary>") != std::string::npos);
  CHECK(md.find("<details><summary>Training setup</summary>") != std::string::npos);
  CHECK(md.find("| `torch.nonzero` | unsupported | 3 | [`train.py:44`](examples/demo/train.py#L44)") !=
        std::string::npos);
}

TEST_CASE("report::render_markdown lists top findings by severity with relative links, escaped", "[report]") {
  const std::string md = testing::render_to_string(render_markdown, testing::sample_report());
  const std::size_t top = md.find("### Top findings");
  REQUIRE(top != std::string::npos);
  const std::size_t blocker = md.find("⛔ blocker", top);
  const std::size_t high = md.find("🔴 high", top);
  CHECK(blocker < high);
  CHECK(md.find("[`train.py:12`](examples/demo/train.py#L12)") != std::string::npos);
  CHECK(md.find("(examples/demo/my%20dir/ops%20é.py#L3)") != std::string::npos);
  CHECK(md.find("</script>") == std::string::npos);
  CHECK(md.find("&lt;/script&gt;&lt;!-- &amp; \\| \\*bold\\*") != std::string::npos);
  CHECK(md.find("F0004") == std::string::npos);  // suppressed findings stay out of a PR comment
}

TEST_CASE("report::render_markdown caps the top list at 15 and folds the full list", "[report]") {
  Report report = testing::sample_report();
  for (int i = 0; i < 20; ++i) {
    report.findings.push_back(testing::sample_finding("F1" + std::to_string(100 + i), "cuda-api.cuda-device-literal",
                                                      Severity::info, "extra.py", 100 + i, 1));
  }
  const std::string md = testing::render_to_string(render_markdown, report);
  const std::size_t details = md.find("<details><summary>All 23 findings</summary>");
  REQUIRE(details != std::string::npos);
  CHECK(count_of(md.substr(0, details), "extra.py:") == 15 - 3);
  CHECK(count_of(md.substr(details), "extra.py:") > 15);
}

TEST_CASE("report::render_markdown without a recommendation still reports findings", "[report]") {
  Report report = testing::sample_report();
  report.recommendation.reset();
  const std::string md = testing::render_to_string(render_markdown, report);
  CHECK(md.rfind("## tr2audit report\n", 0) == 0);
  CHECK(md.find("### Top findings") != std::string::npos);
}
