// The operator table on a whole scan: a model whose forward calls ops the table marks CPU fallback or
// unsupported gets operator-support findings at those lines and is no longer a pilot; the same model
// without them is. Real rules, operator table and scoring policy, on a temporary repo.
#include <algorithm>
#include <catch2/catch.hpp>

#include "support/builtin_scan.hpp"
#include "tr2audit/pipeline/scan.hpp"
#include "tr2audit/rules/op_table.hpp"
#include "tr2audit/rules/rule_set.hpp"
#include "tr2audit/score/policy.hpp"
#include "unit/discover/temp_tree.hpp"

using namespace tr2audit;

namespace {

constexpr const char* k_train =
    "import torch\n"
    "from torch.utils.data import DataLoader\n"
    "from model import Whitening\n"
    "\n"
    "def main():\n"
    "    model = Whitening(64)\n"
    "    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)\n"
    "    loader = DataLoader(torch.randn(256, 16, 64), batch_size=8, drop_last=True)\n"
    "    for x in loader:\n"
    "        loss = model(x).pow(2).mean()\n"
    "        loss.backward()\n"
    "        opt.step()\n"
    "        opt.zero_grad()\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    main()\n";

std::string model_source(bool host_ops) {
  const std::string whiten = host_ops ? "        evals, evecs = torch.linalg.eigh(cov)\n"  // line 11
                                        "        spectrum = torch.fft.rfft(h, dim=1)\n"    // line 12
                                      : "        evecs = cov\n"
                                        "        spectrum = h\n";
  return "import torch\n"                                              // 1
         "from torch import nn\n"                                      // 2
         "\n"                                                          // 3
         "class Whitening(nn.Module):\n"                               // 4
         "    def __init__(self, dim):\n"                              // 5
         "        super().__init__()\n"                                // 6
         "        self.proj = nn.Linear(dim, dim)\n"                   // 7
         "    def forward(self, x):\n"                                 // 8
         "        h = self.proj(x)\n"                                  // 9
         "        cov = h.transpose(1, 2) @ h\n"                       // 10
         + whiten +                                                    // 11-12
         "        return (h @ evecs).sum() + spectrum.abs().sum()\n";  // 13
}

report::Report scan_repo(const test::TempTree& tree) {
  return tr2audit::testing::scan_with_builtin_knowledge(tree.root());
}

std::vector<std::pair<std::string, std::uint32_t>> operator_findings(const report::Report& report) {
  std::vector<std::pair<std::string, std::uint32_t>> out;
  for (const auto& f : report.findings) {
    if (f.category == Category::operator_support) out.emplace_back(f.rule_id, f.at.line);
  }
  return out;
}

}  // namespace

TEST_CASE("pipeline::scan turns CPU-fallback ops in forward into findings and a dual-run verdict", "[pipeline]") {
  test::TempTree with_ops;
  with_ops.write("train.py", k_train);
  with_ops.write("model.py", model_source(true));
  const report::Report report = scan_repo(with_ops);
  using Hit = std::pair<std::string, std::uint32_t>;
  CHECK(operator_findings(report) ==
        std::vector<Hit>{{"operator-support.cpu-fallback-op", 11}, {"operator-support.cpu-fallback-op", 12}});
  const auto eigh = std::find_if(report.findings.begin(), report.findings.end(),
                                 [](const auto& f) { return f.subject == "torch.linalg.eigh"; });
  REQUIRE(eigh != report.findings.end());
  CHECK(eigh->severity == Severity::medium);
  CHECK_THAT(eigh->message, Catch::StartsWith("`torch.linalg.eigh` in `Whitening.forward` falls back to CPU on "
                                              "native TorchNeuron: "));
  CHECK_THAT(eigh->message, Catch::Contains("Alternative: "));
  REQUIRE(report.recommendation);
  CHECK(report.recommendation->verdict == score::Verdict::dual_run);
  REQUIRE_FALSE(report.recommendation->reasons.empty());
  const std::string& reason = report.recommendation->reasons[0].text;
  CHECK_THAT(reason, Catch::Contains("`torch.linalg.eigh(cov)` in `Whitening.forward` (model.py:11)"));
  CHECK_THAT(reason, Catch::Contains("rules/neuron-ops.yaml"));

  test::TempTree without;
  without.write("train.py", k_train);
  without.write("model.py", model_source(false));
  const report::Report plain = scan_repo(without);
  CHECK(operator_findings(plain).empty());
  REQUIRE(plain.recommendation);
  CHECK(plain.recommendation->verdict == score::Verdict::trainium2_pilot);
}
