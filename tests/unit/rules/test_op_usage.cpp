#include <algorithm>
#include <catch2/catch.hpp>

#include "support/extract_helpers.hpp"
#include "tr2audit/rules/op_usage.hpp"

using namespace tr2audit;

namespace {

const rules::OpTable& real_table() {
  static const rules::LoadedOpTable loaded =
      rules::OpTable::load(std::filesystem::path(TR2AUDIT_SOURCE_DIR) / "rules" / "neuron-ops.yaml");
  REQUIRE(loaded.table);
  return *loaded.table;
}

const report::OperatorUse* find_op(const report::OperatorSummary& summary, const std::string& name) {
  for (const auto& op : summary.ops) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

const char* const k_model = R"PY(import torch as th
import torch.nn.functional as F
from torch import nn

class Warp(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(32, 32)

    def forward(self, x, grid, cov):
        w = F.grid_sample(x, grid, align_corners=False)
        vals, vecs = th.linalg.eigh(cov)
        idx = x.nonzero()
        spec = th.fft.rfft(x)
        made_up = th.totally_new_op(x)
        return w, vals, idx, spec, made_up, torch_compile_me()
)PY";

}  // namespace

TEST_CASE("rules::collect_op_uses resolves aliases, module constructors and Tensor methods", "[rules][op_usage]") {
  const auto facts = testing::facts_of(k_model, "warp.py");
  const auto uses = rules::collect_op_uses(facts, real_table());
  const auto summary = rules::summarize_operators(uses, real_table(), TargetProfile::native);
  REQUIRE(find_op(summary, "torch.nn.functional.grid_sample"));
  REQUIRE(find_op(summary, "torch.linalg.eigh"));
  CHECK(find_op(summary, "torch.linalg.eigh")->first_location == "warp.py:12");
  REQUIRE(find_op(summary, "torch.nonzero") !=
          nullptr);  // x.nonzero(): an unambiguous Tensor method (row torch.nonzero)
  CHECK(find_op(summary, "torch.nonzero")->method_only);
  CHECK(find_op(summary, "torch.nn.functional.grid_sample")->calls == 1);
  const auto lstm = std::find_if(summary.ops.begin(), summary.ops.end(), [](const auto& op) {
    return op.name.find("lstm") != std::string::npos || op.name.find("LSTM") != std::string::npos;
  });
  CHECK(lstm != summary.ops.end());
  const auto* unknown = find_op(summary, "torch.totally_new_op");
  REQUIRE(unknown);
  CHECK(unknown->status == "unknown");
  CHECK(summary.unknown >= 1);
  CHECK(summary.distinct ==
        summary.supported + summary.caveat + summary.replace + summary.unsupported + summary.unknown);
}

TEST_CASE("rules::summarize_operators follows the target profile and leaves test code out", "[rules][op_usage]") {
  const auto facts = testing::facts_of(
      "import torch\nimport torch_xla.core.xla_model as xm\nm = torch.compile(model)\nxm.mark_step()\n", "train.py");
  const auto uses = rules::collect_op_uses(facts, real_table());
  const auto native = rules::summarize_operators(uses, real_table(), TargetProfile::native);
  const auto xla = rules::summarize_operators(uses, real_table(), TargetProfile::xla);
  REQUIRE(find_op(native, "torch.compile"));
  REQUIRE(find_op(xla, "torch.compile"));
  CHECK(find_op(native, "torch.compile")->status != find_op(xla, "torch.compile")->status);
  CHECK(find_op(xla, "torch.compile")->status == "unsupported");
  const auto test_facts = testing::facts_of("import torch\nx = torch.nonzero(y)\n", "tests/test_x.py", true);
  const auto test_summary =
      rules::summarize_operators(rules::collect_op_uses(test_facts, real_table()), real_table(), TargetProfile::native);
  CHECK(test_summary.distinct == 0);
}
