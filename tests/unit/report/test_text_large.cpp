// The default text report of a large repo: a fixture generated here (a model, a training loop with
// many CUDA calls, helper modules, benchmark tools and tests: hundreds of findings) is scanned with
// the shipped rules and rendered. The default report fits the line budget, keeps the section order,
// lists training-path files before tools and says how to see the rest; --all shows every finding.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tr2audit/core/text.hpp"
#include "tr2audit/pipeline/scan.hpp"
#include "tr2audit/rules/op_table.hpp"
#include "tr2audit/rules/rule_set.hpp"
#include "tr2audit/score/policy.hpp"

namespace fs = std::filesystem;
using namespace tr2audit;

namespace {

const fs::path k_repo = TR2AUDIT_SOURCE_DIR;

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

/// A training repo with a few hundred findings spread over the training path, helpers and tools.
fs::path make_large_repo() {
  const fs::path root = fs::temp_directory_path() / "tr2audit-large-text-fixture";
  fs::remove_all(root);
  std::string model = "import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n";
  model += "    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(64, 64)\n\n";
  model += "    def forward(self, x):\n";
  for (int i = 0; i < 40; ++i)
    model += "        if x.sum().item() > " + std::to_string(i) + ":\n            x = x.cuda()\n";
  model += "        return self.fc(x)\n";
  write(root / "model.py", model);
  std::string helpers = "import torch\n\n";
  for (int i = 0; i < 30; ++i) {
    helpers += "\ndef helper_" + std::to_string(i) + "(t):\n    torch.cuda.synchronize()\n";
    helpers += "    torch.cuda.empty_cache()\n    return t.to(\"cuda\")\n";
  }
  write(root / "utils" / "helpers.py", helpers);
  std::string train = "import torch\nfrom model import Net\nfrom utils import helpers\n\n\ndef main():\n";
  train += "    torch.distributed.init_process_group(backend=\"nccl\")\n    model = Net().cuda()\n";
  train += "    opt = torch.optim.AdamW(model.parameters())\n    scaler = torch.cuda.amp.GradScaler()\n";
  train += "    for step in range(100):\n        x = torch.randn(8, 64).cuda()\n";
  for (int i = 0; i < 30; ++i) train += "        x = helpers.helper_" + std::to_string(i) + "(x)\n";
  train += "        with torch.cuda.amp.autocast():\n            loss = model(x).sum()\n";
  train += "        scaler.scale(loss).backward()\n        scaler.step(opt)\n        scaler.update()\n";
  train += "        print(loss.item())\n\n\nif __name__ == \"__main__\":\n    main()\n";
  write(root / "train.py", train);
  for (int t = 0; t < 12; ++t) {
    std::string bench = "import torch\nimport time\n\n\ndef bench():\n";
    for (int i = 0; i < 12; ++i) bench += "    torch.cuda.synchronize()\n    x = torch.randn(4).cuda()\n";
    bench += "\n\nif __name__ == \"__main__\":\n    bench()\n";
    write(root / "benchmarks" / ("bench_" + std::to_string(t) + ".py"), bench);
  }
  return root;
}

report::Report scan_large(const fs::path& root) {
  static const rules::LoadedRules loaded = rules::load_rules({k_repo / "rules"});
  static const rules::LoadedOpTable table = rules::OpTable::load(k_repo / "rules" / "neuron-ops.yaml");
  static const score::LoadedPolicy policy = score::load_policy(k_repo / "rules" / "scoring.yaml");
  REQUIRE(loaded.problems.empty());
  pipeline::ScanOptions options;
  options.root = root;
  options.jobs = 2;
  return pipeline::scan(options, pipeline::Knowledge{loaded.rules, &*table.table, &*policy.policy});
}

std::vector<std::string> render_lines(const report::Report& report, bool all) {
  report::RenderOptions options;
  options.all = all;
  std::ostringstream out;
  report::render_text(report, options, out);
  std::vector<std::string> lines;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::size_t first_line_with(const std::vector<std::string>& lines, std::string_view needle, std::size_t from = 0) {
  for (std::size_t i = from; i < lines.size(); ++i) {
    if (lines[i].find(needle) != std::string::npos) return i;
  }
  return lines.size();
}

}  // namespace

TEST_CASE("the default text report of a repo with hundreds of findings fits about 150 lines", "[report][text]") {
  const fs::path root = make_large_repo();
  const report::Report report = scan_large(root);
  fs::remove_all(root);
  REQUIRE(report.findings.size() >= 300);
  const auto lines = render_lines(report, false);
  INFO(lines.size() << " lines for " << report.findings.size() << " findings");
  CHECK(lines.size() <= 150);
  const std::size_t verdict = first_line_with(lines, "Verdict: ");
  const std::size_t drivers = first_line_with(lines, "What drives the verdict");
  const std::size_t flip = first_line_with(lines, "What would change the verdict");
  const std::size_t plan = first_line_with(lines, "Migration plan");
  const std::size_t categories = first_line_with(lines, "By category");
  const std::size_t files = first_line_with(lines, "Findings by file");
  CHECK(verdict < drivers);
  CHECK(drivers < flip);
  CHECK(flip < plan);
  CHECK(plan < categories);
  CHECK(categories < files);
  CHECK(files < lines.size());
  // Training path first: the model and the loop come before any benchmark.
  const std::size_t model = first_line_with(lines, "model.py (", files);
  const std::size_t train = first_line_with(lines, "train.py (", files);
  const std::size_t bench = first_line_with(lines, "benchmarks/", files);
  CHECK(model < bench);
  CHECK(train < bench);
  // Repeats of one rule in one file are one line with a count, and the report says how to see the rest.
  CHECK(first_line_with(lines, " ×") < lines.size());
  CHECK(first_line_with(lines, "--all") < lines.size());
  // Plan steps list at most 5 locations.
  for (const auto& line : lines) {
    if (line.rfind("     at ", 0) == 0 || line.find(" at ") == 5) CHECK(std::count(line.begin(), line.end(), ',') <= 5);
  }
  // The verdict section's one-line summaries (drivers, their places, entry points) fit the width and
  // never end in a dangling separator.
  const std::size_t entries = first_line_with(lines, "Training entry points");
  for (std::size_t i = drivers; i < std::min(flip, entries); ++i) {
    INFO(lines[i]);
    CHECK(count_code_points(lines[i]) <= report::RenderOptions{}.width);
    CHECK(lines[i].find("·…") == std::string::npos);
  }
  // --all shows every finding.
  const auto all = render_lines(report, true);
  CHECK(all.size() > lines.size());
  for (const auto& finding : report.findings) {
    if (finding.suppressed) continue;
    CHECK(first_line_with(all, "[" + finding.id + "]") < all.size());
  }
}
