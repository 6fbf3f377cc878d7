// The built-in rules as the lock-in stage and the CUDA-only library rules use them: what
// rules::lockin_knowledge calls GPU-only, `origin` on call rules (a package's own code is judged by
// propagation), the `neuron_stack` predicate, and no second finding on a line the import rule reports.
#include <catch2/catch.hpp>
#include <filesystem>

#include "support/extract_helpers.hpp"
#include "tr2audit/rules/match.hpp"
#include "tr2audit/rules/rule_set.hpp"

using namespace tr2audit;
using tr2audit::testing::facts_of;

namespace {

const rules::RuleSet& builtin() {
  static const rules::LoadedRules loaded = rules::load_rules({std::filesystem::path(TR2AUDIT_SOURCE_DIR) / "rules"});
  return loaded.rules;
}

std::vector<rules::Finding> scan(std::vector<std::pair<std::string, std::string>> files, std::string_view path) {
  std::vector<facts::FileFacts> facts;
  for (auto& [rel, code] : files) facts.push_back(facts_of(code, rel));
  const auto model =
      program::Program::build(std::move(facts), false, rules::lockin_knowledge(builtin(), TargetProfile::native));
  return rules::match(program::FileView{model, *model.find_file(path)}, builtin(), TargetProfile::native);
}

std::vector<std::pair<std::uint32_t, std::string>> hits(const std::vector<rules::Finding>& findings) {
  std::vector<std::pair<std::uint32_t, std::string>> out;
  for (const auto& f : findings) out.emplace_back(f.at.line, f.rule_id);
  return out;
}

bool has(const std::vector<rules::Finding>& findings, std::uint32_t line, std::string_view rule) {
  const auto all = hits(findings);
  return std::find(all.begin(), all.end(), std::make_pair(line, std::string(rule))) != all.end();
}

}  // namespace

TEST_CASE("rules::lockin_knowledge calls GPU-only what cuda-extension/cuda-library call rules report", "[rules]") {
  REQUIRE_FALSE(builtin().empty());
  const auto knowledge = rules::lockin_knowledge(builtin(), TargetProfile::native);
  const auto f = facts_of(R"PY(import subprocess
import torch
import xformers.ops as xops
torch.ops.mylib.fused_norm(x)
xops.memory_efficient_attention(q, k, v)
torch.matmul(a, b)
subprocess.run(["nvidia-smi"])
torch.ops.aten.add(a, b)
)PY");
  std::vector<bool> gpu_only;
  for (const auto& call : f.calls) gpu_only.push_back(knowledge.kernel_call(call));
  CHECK(gpu_only == std::vector<bool>{true, true, false, false, false});
  CHECK(knowledge.kernel_decorator(QualifiedName::from_dotted("triton.jit")));
  CHECK_FALSE(knowledge.kernel_decorator(QualifiedName::from_dotted("torch.no_grad")));
}

TEST_CASE("rules: a CUDA-only library's own code is not a call into that library", "[rules]") {
  const char* const user =
      "import torch\nfrom flash_attn.layers.rotary import apply_rotary_emb\ny = apply_rotary_emb(x, cos, sin)\n";
  CHECK(has(scan({{"model.py", user}}, "model.py"), 3, "cuda-library.flash-attn-call"));
  const auto inside = scan({{"flash_attn/__init__.py", ""},
                            {"flash_attn/layers/__init__.py", ""},
                            {"flash_attn/layers/rotary.py", "def apply_rotary_emb(x, cos, sin):\n    return x * cos\n"},
                            {"flash_attn/models/gpt.py", user}},
                           "flash_attn/models/gpt.py");
  CHECK_FALSE(has(inside, 3, "cuda-library.flash-attn-call"));
  CHECK_FALSE(has(inside, 3, "cuda-extension.lock-in-call"));  // plain PyTorch: no kernel behind it
}

TEST_CASE("rules: attn_implementation=flash_attention_2 stays quiet in a repo that trains on Neuron", "[rules]") {
  const char* const load = R"PY(from transformers import AutoModelForCausalLM
model = AutoModelForCausalLM.from_pretrained("m", attn_implementation="flash_attention_2")
)PY";
  CHECK(has(scan({{"train.py", load}}, "train.py"), 2, "cuda-library.flash-attention-2-implementation"));
  const auto neuron =
      scan({{"train.py", load}, {"trainer.py", "from optimum.neuron import NeuronTrainer\n"}}, "train.py");
  CHECK_FALSE(has(neuron, 2, "cuda-library.flash-attention-2-implementation"));
}

TEST_CASE("rules: a line the import rule reports is not reported again as a library call", "[rules]") {
  const auto findings = scan({{"nb.py",
                               "import xformers.ops as xops; y = xops.memory_efficient_attention(q, k, v)\nz = "
                               "xops.memory_efficient_attention(y, y, y)\n"}},
                             "nb.py");
  CHECK(has(findings, 1, "cuda-library.xformers-import"));
  CHECK_FALSE(has(findings, 1, "cuda-library.cuda-only-library-call"));
  CHECK(has(findings, 2, "cuda-library.cuda-only-library-call"));
}
