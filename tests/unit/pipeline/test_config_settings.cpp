// Config files on a whole scan: a torchtune-style recipe and a Hydra experiment config give findings at
// the lines that select CUDA (device, accelerator, fp16, a CUDA-only optimizer, nvidia-smi), while CI
// workflows, pre-commit and docs-site files of the same repo stay quiet, and the verdict is the one the
// code alone gets. Real rules, operator table and scoring policy, on a temporary repo.
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <tuple>

#include "support/builtin_scan.hpp"
#include "tr2audit/pipeline/scan.hpp"
#include "tr2audit/rules/op_table.hpp"
#include "tr2audit/rules/rule_set.hpp"
#include "tr2audit/score/policy.hpp"
#include "unit/discover/temp_tree.hpp"

using namespace tr2audit;

namespace {

constexpr const char* k_recipe =
    "import hydra\n"
    "import torch\n"
    "from hydra.utils import instantiate\n"
    "\n"
    "@hydra.main(config_path='configs', config_name='train')\n"
    "def main(cfg):\n"
    "    model = instantiate(cfg.model).to(cfg.device)\n"
    "    opt = instantiate(cfg.train.optimizer, model.parameters())\n"
    "    for batch in instantiate(cfg.datamodule):\n"
    "        loss = model(batch).mean()\n"
    "        loss.backward()\n"
    "        opt.step()\n"
    "        opt.zero_grad()\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    main()\n";

constexpr const char* k_experiment =
    "# @package _global_\n"                                                   // 1
    "defaults:\n"                                                             // 2
    "  - override /optimizer: adamw-apex\n"                                   // 3
    "trainer:\n"                                                              // 4
    "  accelerator: gpu\n"                                                    // 5
    "  devices: 8\n"                                                          // 6
    "  precision: 16\n"                                                       // 7
    "train:\n"                                                                // 8
    "  gpu_mem: ${eval:\"round(float(__import__('subprocess').check_output("  // 9
    "'nvidia-smi -i 0 --query-gpu=memory.total', shell=True)) / 1000)\"}\n"   //
    "  optimizer:\n"                                                          // 10
    "    _target_: apex.optimizers.FusedAdam\n"                               // 11
    "    lr: 6e-4\n";                                                         // 12

constexpr const char* k_torchtune =
    "model:\n"                                                     // 1
    "  _component_: torchtune.models.llama3_2.lora_llama3_2_1b\n"  // 2
    "optimizer:\n"                                                 // 3
    "  _component_: bitsandbytes.optim.PagedAdamW8bit\n"           // 4
    "  lr: 2e-5\n"                                                 // 5
    "device: cuda\n"                                               // 6
    "dtype: bf16\n";                                               // 7

constexpr const char* k_ci =
    "name: gpu tests\non: [push]\njobs:\n  test:\n    env: {device: cuda}\n    steps:\n      - run: nvidia-smi\n";

report::Report scan_repo(const test::TempTree& tree) {
  return tr2audit::testing::scan_with_builtin_knowledge(tree.root());
}

using Hit = std::tuple<std::string, std::string, std::uint32_t>;

std::set<Hit> config_findings(const report::Report& report) {
  std::set<Hit> out;
  for (const auto& f : report.findings) {
    if (f.path != "train.py") out.emplace(f.rule_id, f.path, f.at.line);
  }
  return out;
}

}  // namespace

TEST_CASE("pipeline::scan reports what Hydra and torchtune configs select, and tools' files stay quiet",
          "[pipeline][settings]") {
  test::TempTree repo;
  repo.write("train.py", k_recipe);
  repo.write("configs/experiment/owt/base.yaml", k_experiment);
  repo.write("recipes/configs/llama3_2/1B_lora_single_device.yaml", k_torchtune);
  repo.write(".github/workflows/gpu.yml", k_ci);
  repo.write(".pre-commit-config.yaml", "repos:\n  - repo: local\n    hooks: [{id: smi, entry: nvidia-smi}]\n");
  repo.write("mkdocs.yml", "site_name: x\nextra: {device: cuda}\n");
  const report::Report report = scan_repo(repo);
  const std::string base = "configs/experiment/owt/base.yaml";
  const std::string tune = "recipes/configs/llama3_2/1B_lora_single_device.yaml";
  CHECK(config_findings(report) == std::set<Hit>{
                                       {"cuda-api.config-gpu-accelerator", base, 5},
                                       {"cuda-api.config-fp16-mixed-precision", base, 7},
                                       {"cuda-api.config-nvidia-smi", base, 9},
                                       {"cuda-library.cuda-only-config-target", base, 11},
                                       {"cuda-library.cuda-only-config-target", tune, 4},
                                       {"cuda-api.config-cuda-device", tune, 6},
                                   });
  const auto target = std::find_if(report.findings.begin(), report.findings.end(), [&](const auto& f) {
    return f.rule_id == "cuda-library.cuda-only-config-target" && f.path == tune;
  });
  REQUIRE(target != report.findings.end());
  CHECK(target->severity == Severity::medium);
  CHECK(target->message ==
        "`optimizer._component_: bitsandbytes.optim.PagedAdamW8bit`: the config builds a "
        "CUDA-only library's `bitsandbytes.optim.PagedAdamW8bit`");

  // The same code without its configs: the config findings weigh, but do not decide the verdict alone.
  test::TempTree code_only;
  code_only.write("train.py", k_recipe);
  const report::Report plain = scan_repo(code_only);
  REQUIRE(report.recommendation);
  REQUIRE(plain.recommendation);
  CHECK(report.recommendation->verdict == plain.recommendation->verdict);
  CHECK(report.recommendation->readiness <= plain.recommendation->readiness);
}
