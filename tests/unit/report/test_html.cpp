#include <catch2/catch.hpp>
#include <iterator>
#include <nlohmann/json.hpp>

#include "report/renderers.hpp"
#include "sample_report.hpp"
#include "tool_check.hpp"

using namespace tr2audit;
using namespace tr2audit::report;

namespace {
std::string embedded_data(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"tr2audit-data\">";
  const std::size_t begin = html.find(open);
  if (begin == std::string::npos) return {};
  const std::size_t end = html.find("</script>", begin);
  return html.substr(begin + open.size(), end - begin - open.size());
}
}  // namespace

TEST_CASE("report::render_html embeds the findings as JSON that cannot close its script element", "[report]") {
  const std::string html = testing::render_to_string(render_html, testing::sample_report());
  const std::string data = embedded_data(html);
  REQUIRE_FALSE(data.empty());
  CHECK(data.find("</") == std::string::npos);
  CHECK(data.find("<!--") == std::string::npos);
  const auto json = nlohmann::json::parse(data);
  REQUIRE(json["findings"].size() == 4);
  CHECK(json["findings"][1]["message"] == "Kernel built at runtime </script><!-- & | *bold*");
  CHECK(json["findings"][3]["suppressed"]["reason"] == "CPU fallback path, kept on purpose");
}

TEST_CASE("report::render_html embeds each finding in the JSON report's shape, gate state included", "[report]") {
  Report report = testing::sample_report();
  report.gate.emplace();
  report.gate->baseline = BaselineSummary{"b.json", 1, 2, {}};
  for (auto& f : report.findings) f.gate.baseline = rules::BaselineState::unchanged;
  report.findings[1].gate.baseline = rules::BaselineState::new_finding;
  const auto page = nlohmann::json::parse(embedded_data(testing::render_to_string(render_html, report)));
  const auto document = nlohmann::json::parse(testing::render_to_string(render_json, report));
  REQUIRE(page["findings"].size() == document["findings"].size());
  for (std::size_t i = 0; i < page["findings"].size(); ++i) CHECK(page["findings"][i] == document["findings"][i]);
  CHECK(page["findings"][1]["gate"]["state"] == "gated");
  CHECK(page["findings"][0]["gate"]["state"] == "baseline");
  CHECK(page["findings"][3]["gate"]["state"] == "suppressed");
  const std::string html = testing::render_to_string(render_html, report);
  CHECK(html.find("<select id=\"filter-gate\"") != std::string::npos);
  CHECK(html.find("<option selected>gated</option>") != std::string::npos);  // starts on what the gate looks at
  CHECK(html.find("id=\"gate\"><h2>What this change does</h2>") != std::string::npos);
}

TEST_CASE("report::render_html is self-contained and has every section", "[report]") {
  const std::string html = testing::render_to_string(render_html, testing::sample_report());
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  for (const char* external : {"<link", "src=\"http", "href=\"http", "@import", "url(", "<iframe"}) {
    INFO(external);
    CHECK(html.find(external) == std::string::npos);
  }
  for (const char* id : {"id=\"overview\"", "class=\"gauge\"", "id=\"charts\"", "id=\"findings\"", "id=\"plan\"",
                         "id=\"operators\"", "id=\"setup\"", "id=\"problems\"", "id=\"console-errors\""}) {
    INFO(id);
    CHECK(html.find(id) != std::string::npos);
  }
  CHECK(html.find("<title>Readiness 62 of 100</title>") != std::string::npos);
  // The drivers come before the plan and the plan before the full table; markup is escaped.
  CHECK(html.find("id=\"drivers\"") < html.find("id=\"plan\""));
  CHECK(html.find("id=\"plan\"") < html.find("id=\"findings-section\""));
  CHECK(html.find("Kernel built at runtime &lt;/script&gt;&lt;!-- &amp;") != std::string::npos);
  CHECK(html.find("</script><!--") == std::string::npos);
  CHECK(html.find("href=\"my%20dir/ops%20%C3%A9.py#L3\"><code>my dir/ops é.py:3</code>") != std::string::npos);
}

TEST_CASE("report::render_html runs in headless Chromium without errors and renders", "[report][tools]") {
  const auto dir = testing::temp_dir("html");
  testing::write_file(dir / "report.html", testing::render_to_string(render_html, testing::sample_report()));
  const auto run = testing::run_tool_script("check_html.sh", {(dir / "report.html").string(), (dir / "out").string()});
  if (run.skipped()) {
    WARN("SKIPPED: chromium or node is not installed (./.ci/bootstrap installs them): " << run.output);
    return;
  }
  INFO(run.output);
  REQUIRE(run.ok());
  std::ifstream dom_file(dir / "out" / "dom.html");
  const std::string dom((std::istreambuf_iterator<char>(dom_file)), std::istreambuf_iterator<char>());
  CHECK(dom.find("Showing 3 of 4") != std::string::npos);  // the script built the table (suppressed hidden)
  CHECK(dom.find("id=\"finding-F0002\"") != std::string::npos);
  // A page whose script throws must fail the check.
  std::string broken = testing::render_to_string(render_html, testing::sample_report());
  broken.replace(broken.find("var rank ="), 10, "undefinedFunction(); var rank =");
  testing::write_file(dir / "broken.html", broken);
  const auto bad =
      testing::run_tool_script("check_html.sh", {(dir / "broken.html").string(), (dir / "out-broken").string()});
  INFO(bad.output);
  CHECK(bad.status == 1);
  std::filesystem::remove_all(dir);
}
