// One large generated repository (hundreds of findings across deep folders, long code lines) scanned by
// the binary as a user would: the Markdown report stays under GitHub's comment limit with the verdict,
// the drivers, a per-rule table and a count of what was cut; links are repo-relative (absolute with
// --link-base) whatever the spelling of the scan path; the HTML layout holds in headless Chromium at
// 1400 and 800 px; under a baseline the Markdown leads with the change's own findings and SARIF says
// baselineState per result.
#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/run_binary.hpp"
#include "unit/report/tool_check.hpp"

using tr2audit::testing::run_tr2audit;
using tr2audit::testing::slurp;
using tr2audit::testing::TempDir;
using Json = nlohmann::json;

namespace {

constexpr std::size_t k_limit = 60000;

std::string module_source(int i) {
  std::string s =
      "import torch\n"
      "import torch.nn as nn\n"
      "from torch.utils.cpp_extension import load_inline\n"
      "\n"
      "_ext = load_inline(name=\"k" +
      std::to_string(i) +
      "\", cpp_sources=[\"int f();\"], cuda_sources=[\"__global__ void k() {}\"])\n"
      "\n"
      "\n"
      "class Block" +
      std::to_string(i) +
      "(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.proj = nn.Linear(64, 64).cuda()\n"
      "\n"
      "    def forward(self, x):\n"
      "        x = x.cuda()\n"
      "        if x.sum().item() > 0:\n"
      "            x = self.proj(x)\n"
      "        torch.cuda.synchronize()\n"
      "        scale = torch.tensor([1.0], device=\"cuda\")\n"
      "        return x * scale + torch.nn.functional.gelu(self.proj(x)).mean(dim=-1, keepdim=True).expand_as(x) * "
      "torch.ones_like(x, device=\"cuda\").mul(0.5).add(torch.zeros_like(x).to(\"cuda\")).clamp(min=-1.0, max=1.0)\n";
  return s;
}

std::string train_source(int modules) {
  std::string s = "import torch\n";
  for (int i = 0; i < modules; ++i)
    s += "from models.very_long_package_name_for_layout.sub_" + std::to_string(i % 6) + ".m" + std::to_string(i) +
         " import Block" + std::to_string(i) + "\n";
  s += "\n\ndef main():\n    blocks = torch.nn.Sequential(";
  for (int i = 0; i < modules; ++i) s += "Block" + std::to_string(i) + "(), ";
  s += ")\n    opt = torch.optim.AdamW(blocks.parameters())\n"
       "    for step in range(10):\n"
       "        x = torch.randn(8, 64).cuda()\n"
       "        loss = blocks(x).sum()\n"
       "        loss.backward()\n"
       "        opt.step()\n"
       "        print(loss.item())\n"
       "\n\nif __name__ == \"__main__\":\n    main()\n";
  return s;
}

/// A git work tree holding the project under proj/: 40 model files in deep folders plus a trainer.
void write_repo(const TempDir& top, int modules = 40) {
  std::filesystem::create_directories(top.path() / ".git" / "refs" / "heads");
  top.write(".git/HEAD", "ref: refs/heads/main\n");
  top.write(".git/refs/heads/main", "0123456789abcdef0123456789abcdef01234567\n");
  for (int i = 0; i < modules; ++i)
    top.write(
        "proj/models/very_long_package_name_for_layout/sub_" + std::to_string(i % 6) + "/m" + std::to_string(i) + ".py",
        module_source(i));
  top.write("proj/train.py", train_source(modules));
}

std::string q(const std::filesystem::path& path) {
  return "'" + path.string() + "'";
}

std::size_t at(const std::string& text, const std::string& what) {
  const std::size_t pos = text.find(what);
  INFO("looking for: " << what);
  REQUIRE(pos != std::string::npos);
  return pos;
}

}  // namespace

TEST_CASE("large repo: the Markdown report fits a PR comment, leads with the drivers, links repo-relative",
          "[golden][large]") {
  TempDir top;
  write_repo(top);
  const std::string base = "https://github.com/org/repo/blob/0123abc";
  const auto json_run = run_tr2audit("scan -f json " + q(top.path() / "proj"));
  const Json report = Json::parse(json_run.out);
  REQUIRE(report["findings"].size() >= 300);

  const auto md_dir = top.path() / "out";
  std::filesystem::create_directories(md_dir);
  const std::vector<std::string> spellings{(top.path() / "proj").string(), (top.path() / "proj").string() + "/",
                                           (top.path() / "." / "proj").string()};
  std::vector<std::string> reports;
  for (std::size_t i = 0; i < spellings.size(); ++i) {
    const auto file = md_dir / ("r" + std::to_string(i) + ".md");
    const auto run =
        run_tr2audit("scan -f markdown -o " + q(file) + " --link-base " + base + "/ '" + spellings[i] + "'");
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    reports.push_back(slurp(file));
  }
  CHECK(reports[0] == reports[1]);  // the scan path's spelling does not change a byte
  CHECK(reports[0] == reports[2]);
  const std::string& md = reports[0];
  CHECK(md.size() <= k_limit);
  // Order: verdict, drivers, why, the per-rule table, then the folded details.
  const std::size_t verdict = at(md, "readiness ");
  const std::size_t drivers = at(md, "### What decides the verdict");
  const std::size_t by_rule = at(md, "### Findings by rule");
  const std::size_t all = at(md, "<details><summary>All " + std::to_string(report["summary"]["findings"].get<int>()));
  CHECK(verdict < drivers);
  CHECK(drivers < by_rule);
  CHECK(by_rule < all);
  CHECK(md.find("more findings not shown: see the full report") != std::string::npos);
  // Absolute links under --link-base, with the project's folder in the repository.
  CHECK(md.find("(" + base + "/proj/models/very_long_package_name_for_layout/sub_") != std::string::npos);
  CHECK(md.find("](models/") == std::string::npos);
  // The drivers are ordered by severity: a row's severity never outranks the one before it.
  const std::vector<std::string> order{"blocker", "high", "medium", "low", "info"};
  std::size_t previous = 0, rows = 0;
  std::istringstream table(md.substr(drivers, by_rule - drivers));
  for (std::string line; std::getline(table, line);) {
    if (line.rfind("| ", 0) != 0 || line.rfind("| Severity", 0) == 0) continue;
    const std::string cell = line.substr(2, line.find(" |", 2) - 2);
    const std::string severity = cell.substr(cell.rfind(' ') + 1);
    const auto rank = static_cast<std::size_t>(std::find(order.begin(), order.end(), severity) - order.begin());
    INFO(line);
    REQUIRE(rank < order.size());
    CHECK(rank >= previous);
    previous = rank;
    ++rows;
  }
  CHECK(rows >= 2);

  const auto linked = run_tr2audit("scan -f markdown --link-full https://ci.example/run/7 " + q(top.path() / "proj"));
  CHECK(linked.out.size() <= k_limit);
  CHECK(linked.out.find("](models/very_long_package_name_for_layout/") == std::string::npos);
  CHECK(linked.out.find("](proj/models/very_long_package_name_for_layout/") != std::string::npos);
  CHECK(linked.out.find("[the full report](https://ci.example/run/7)") != std::string::npos);
}

TEST_CASE("large repo: the HTML layout holds at 1400 and 800 px (DOM measurements in Chromium)", "[golden][large]") {
  TempDir top;
  write_repo(top);
  const auto html = top.path() / "report.html";
  const auto run = run_tr2audit("scan -f html -o " + q(html) + " " + q(top.path() / "proj"));
  REQUIRE(run.exit_code == 0);
  const std::string page = slurp(html);
  CHECK(at(page, "id=\"drivers\"") < at(page, "id=\"findings-section\""));
  CHECK(at(page, "id=\"plan\"") < at(page, "id=\"findings-section\""));
  const auto check = tr2audit::report::testing::run_tool_script("check_html_layout.sh",
                                                                {html.string(), (top.path() / "layout").string()});
  if (check.skipped()) {
    WARN("SKIPPED: chromium or node is not installed (./.ci/bootstrap installs them): " << check.output);
    return;
  }
  INFO(check.output);
  CHECK(check.ok());
}

TEST_CASE("large repo: under a baseline the reports carry the gate state of every finding", "[golden][large][gate]") {
  TempDir top;
  write_repo(top, 12);
  const auto baseline = top.path() / "baseline.json";
  REQUIRE(run_tr2audit("scan --write-baseline " + q(baseline) + " " + q(top.path() / "proj")).exit_code == 0);
  top.write("proj/models/extra.py", module_source(99));  // the change: a new file with a custom kernel
  const auto md = top.path() / "r.md";
  const auto sarif = top.path() / "r.sarif";
  const auto json = top.path() / "r.json";
  const auto run = run_tr2audit("scan --baseline " + q(baseline) + " --fail-on blocker -f markdown -o " + q(md) +
                                " -f sarif -o " + q(sarif) + " -f json -o " + q(json) + " " + q(top.path() / "proj"));
  INFO(run.err);
  const Json report = Json::parse(slurp(json));
  const std::string comment = slurp(md);
  CHECK(comment.size() <= k_limit);
  const std::size_t change = at(comment, "### What this change does");
  CHECK(change < at(comment, "### Findings by rule"));
  CHECK(at(comment, "#### This change's findings") > change);
  CHECK(comment.find("proj/models/extra.py") != std::string::npos);
  // JSON: each finding's state, the gate's counts.
  std::size_t gated = 0;
  for (const auto& f : report["findings"]) {
    const bool fresh = f["location"]["path"].get<std::string>() == "models/extra.py";
    CHECK(f["baseline"] == (fresh ? "new" : "unchanged"));
    CHECK(f["gate"]["state"] == (fresh ? "gated" : "baseline"));
    gated += fresh ? 1 : 0;
  }
  CHECK(gated > 0);
  CHECK(report["gate"]["gated_findings"] == gated);
  CHECK(report["baseline"]["new"] == gated);
  // SARIF: every result says its baselineState and whether it is suppressed.
  const Json log = Json::parse(slurp(sarif));
  const auto& results = log["runs"][0]["results"];
  REQUIRE(results.size() == report["findings"].size());
  for (const auto& r : results) {
    const bool fresh = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "models/extra.py";
    CHECK(r["baselineState"] == (fresh ? "new" : "unchanged"));
    CHECK(r["suppressions"].is_array());
  }
  const auto valid = tr2audit::report::testing::run_tool_script("validate_sarif.sh", {sarif.string()});
  if (!valid.skipped()) {
    INFO(valid.output);
    CHECK(valid.ok());
  }
}
