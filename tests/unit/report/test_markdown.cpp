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

/// The sample report plus `extra` findings of one rule with long messages, spread over many files.
Report crowded(std::size_t extra) {
  Report report = testing::sample_report();
  for (std::size_t i = 0; i < extra; ++i) {
    rules::Finding f =
        testing::sample_finding("F" + std::to_string(10000 + i), "dynamic-graph.item-in-training-step", Severity::info,
                                "pkg/module_" + std::to_string(i % 97) + ".py", static_cast<std::uint32_t>(10 + i), 1);
    f.message = std::string(180, 'm');
    report.findings.push_back(f);
  }
  return report;
}
}  // namespace

TEST_CASE("report::render_markdown opens with the verdict badge, drivers, reasons and flip", "[report]") {
  const std::string md = testing::render_to_string(render_markdown, testing::sample_report());
  CHECK(md.rfind("## 🟡 dual-run · readiness 62/100\n", 0) == 0);
  CHECK(md.find("**Confidence:** medium") != std::string::npos);
  CHECK(md.find("### Why\n\n- A CUDA extension is built at runtime.\n") != std::string::npos);
  CHECK(md.find("### What would change the verdict\n\n- Port the fused kernel") != std::string::npos);
  CHECK(md.find("<details><summary>Migration plan (2 steps)</summary>") != std::string::npos);
  CHECK(md.find("<details><summary>Training setup</summary>") != std::string::npos);
  CHECK(md.find("| `torch.nonzero` | unsupported | 3 | [`train.py:44`](train.py#L44)") != std::string::npos);
  CHECK(md.find("### What decides the verdict") < md.find("### Why"));
  // A notebook finding names its cell and line, and links the notebook (its joined line means nothing there).
  CHECK(md.find("[`notebooks/explore.ipynb:cell 4:2`](notebooks/explore.ipynb)") != std::string::npos);
}

TEST_CASE("report::render_markdown: the top findings are the verdict's drivers, most severe first", "[report]") {
  Report report = testing::sample_report();
  // Many findings that no reason cites come first by path and rank high: they are not drivers.
  for (int i = 0; i < 30; ++i)
    report.findings.push_back(testing::sample_finding("F2" + std::to_string(100 + i), "cuda-api.cuda-synchronize",
                                                      Severity::high, "aaa/first.py", 100 + i, 1));
  const std::string md = testing::render_to_string(render_markdown, report);
  const std::size_t drivers = md.find("### What decides the verdict");
  const std::size_t why = md.find("### Why");
  REQUIRE(drivers != std::string::npos);
  const std::string section = md.substr(drivers, why - drivers);
  CHECK(section.find("cuda-api.cuda-synchronize") == std::string::npos);
  const std::size_t blocker = section.find("⛔ blocker");
  const std::size_t high = section.find("🔴 high");
  REQUIRE(blocker != std::string::npos);
  CHECK(blocker < high);
  // F0001's rule has two active findings? No: F0004 is suppressed, so the count is 1.
  CHECK(section.find("`cuda-api.cuda-device-literal`</sub> | 1 | [`train.py:12`](train.py#L12)") != std::string::npos);
  CHECK(section.find("(my%20dir/ops%20%C3%A9.py#L3)") != std::string::npos);
  CHECK(md.find("</script>") == std::string::npos);
  CHECK(md.find("&lt;/script&gt;&lt;!-- &amp; \\| \\*bold\\*") != std::string::npos);
  CHECK(md.find("F0004") == std::string::npos);  // suppressed findings stay out of a PR comment
}

TEST_CASE("report::render_markdown links are repo-relative, absolute under --link-base", "[report]") {
  Report report = testing::sample_report();
  report.scan.root = "/somewhere/else/examples/demo/";  // the spelling of the scan path never matters
  report.scan.git = GitInfo{"0123abc", "main", "examples/demo/"};
  const std::string relative = testing::render_to_string(render_markdown, report);
  CHECK(relative.find("[`examples/demo/train.py:12`](examples/demo/train.py#L12)") != std::string::npos);
  RenderOptions options;
  options.link_base = "https://github.com/org/repo/blob/0123abc/";
  options.link_full = "https://ci.example/runs/7";
  const std::string absolute = testing::render_to_string(render_markdown, report, options);
  CHECK(absolute.find("](https://github.com/org/repo/blob/0123abc/examples/demo/train.py#L12)") != std::string::npos);
  CHECK(absolute.find("[the full report](https://ci.example/runs/7)") != std::string::npos);
}

TEST_CASE("report::render_markdown always fits a GitHub comment and counts what it cut", "[report]") {
  for (const std::size_t extra : {20u, 3000u}) {
    const Report report = crowded(extra);
    const std::string md = testing::render_to_string(render_markdown, report);
    INFO(extra << " extra findings: " << md.size() << " bytes");
    CHECK(md.size() <= 60000);
    CHECK(md.find("### What decides the verdict") != std::string::npos);
    CHECK(md.find("### Findings by rule") != std::string::npos);
    CHECK(md.find("| `dynamic-graph.item-in-training-step` | 🟠 medium | " + std::to_string(extra + 1) + " |") !=
          std::string::npos);
    const bool cut = md.find("more findings not shown: see the full report") != std::string::npos;
    CHECK(cut == (extra == 3000));
    if (!cut) CHECK(count_of(md, "pkg/module_") >= extra);
  }
}

TEST_CASE("report::render_markdown under a baseline leads with the change's own findings", "[report]") {
  Report report = testing::sample_report();
  report.gate.emplace();
  report.gate->baseline =
      BaselineSummary{".tr2audit-baseline.json", 1, 1, {RecordedFinding{"ff", "cuda-api.x", "old.py", 4, "gone"}}};
  report.gate->criteria_given = true;
  report.gate->status = GateStatus::failed;
  report.gate->reasons = {"1 finding at or above blocker (--fail-on blocker), first: my dir/ops é.py:3"};
  report.findings[0].gate.baseline = rules::BaselineState::unchanged;
  report.findings[1].gate.baseline = rules::BaselineState::new_finding;
  report.findings[2].gate.baseline = rules::BaselineState::unchanged;
  const std::string md = testing::render_to_string(render_markdown, report);
  const std::size_t change = md.find("### What this change does");
  REQUIRE(change != std::string::npos);
  CHECK(md.find("- Baseline `.tr2audit-baseline.json`: **1 new**, 1 unchanged, **1 fixed**") != std::string::npos);
  CHECK(md.find("  - fixed: `old.py:4` cuda-api.x gone") != std::string::npos);
  CHECK(md.find("- Gate: **failed**") != std::string::npos);
  const std::size_t own = md.find("#### This change's findings (1)");
  REQUIRE(own != std::string::npos);
  CHECK(md.find("ops%20%C3%A9.py#L3", own) < md.find("### Findings by rule"));
  CHECK(md.find("| Rule | Severity | Findings | In this change | First at |") != std::string::npos);
}

TEST_CASE("report::render_markdown without a recommendation still reports findings", "[report]") {
  Report report = testing::sample_report();
  report.recommendation.reset();
  const std::string md = testing::render_to_string(render_markdown, report);
  CHECK(md.rfind("## tr2audit report\n", 0) == 0);
  CHECK(md.find("### What decides the verdict") == std::string::npos);
  CHECK(md.find("### Findings by rule") != std::string::npos);
}
