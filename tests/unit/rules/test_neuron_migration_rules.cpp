// The built-in rules on real-looking Neuron training code: a legacy PyTorch/XLA training script gets
// one migration finding per torch_xla call site under the native profile (low, neuron-ready, never a
// GPU category) and only info under the xla profile; NKI kernel calls, legacy Neuron pins in a manifest,
// and tensor-device hard gates next to portable device branches.
#include <catch2/catch.hpp>
#include <filesystem>

#include "support/extract_helpers.hpp"
#include "tr2audit/discover/source_file.hpp"
#include "tr2audit/rules/match.hpp"
#include "tr2audit/rules/rule_set.hpp"

using namespace tr2audit;
using tr2audit::testing::facts_of;

namespace {

const rules::RuleSet& builtin() {
  static const rules::LoadedRules loaded = rules::load_rules({std::filesystem::path(TR2AUDIT_SOURCE_DIR) / "rules"});
  return loaded.rules;
}

std::vector<rules::Finding> scan(const facts::FileFacts& file, TargetProfile profile) {
  return tr2audit::testing::match_one(file, builtin(), profile);
}

/// "rule@line severity" for the findings of one category.
std::vector<std::string> of_category(const std::vector<rules::Finding>& findings, Category category) {
  std::vector<std::string> out;
  for (const auto& f : findings) {
    if (f.category == category)
      out.push_back(f.rule_id + "@" + std::to_string(f.at.line) + " " + std::string(to_string(f.severity)));
  }
  return out;
}

// A pretraining script in the style of the neuronx-distributed examples (written for this test).
constexpr std::string_view k_xla_script = R"PY(import os
import torch
import torch.distributed as dist
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
import torch_xla.distributed.xla_multiprocessing as xmp


def log(loss):
    print(loss.item())


def train(model, optimizer, train_dataloader):
    device = xm.xla_device()
    model.to(device)
    loader = pl.MpDeviceLoader(train_dataloader, device)
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        xm.optimizer_step(optimizer)
        xm.mark_step()
        xm.add_step_closure(log, (loss.detach(),))
    xm.master_print("done")


def _mp_fn(index, args):
    dist.init_process_group("xla")
    train(*args)


if __name__ == "__main__":
    xmp.spawn(_mp_fn, args=(None,))
)PY";

}  // namespace

TEST_CASE("neuron-ready: every torch_xla call site of an XLA training script is a native migration item",
          "[rules][neuron]") {
  const auto file = facts_of(k_xla_script);
  const auto native = scan(file, TargetProfile::native);
  const std::vector<std::string> expected{
      "neuron-ready.legacy-torch-xla-import@4 info",   "neuron-ready.legacy-torch-xla-import@5 info",
      "neuron-ready.legacy-torch-xla-import@6 info",   "neuron-ready.legacy-xla-device@14 low",
      "neuron-ready.legacy-xla-device-loader@16 low",  "neuron-ready.legacy-xla-collectives@20 low",
      "neuron-ready.legacy-xla-step-marker@21 low",    "neuron-ready.legacy-xla-step-closure@22 low",
      "neuron-ready.legacy-torch-xla-api@23 info",     "neuron-ready.neuron-device-literal@27 info",
      "neuron-ready.xla-process-group-backend@27 low", "neuron-ready.legacy-xla-spawn@32 low",
  };
  auto found = of_category(native, Category::neuron_ready);
  std::sort(found.begin(), found.end(), [](const std::string& a, const std::string& b) {
    const auto line = [](const std::string& s) { return std::stoi(s.substr(s.find('@') + 1)); };
    return line(a) != line(b) ? line(a) < line(b) : a < b;
  });
  CHECK(found == expected);
  // Neuron-aware code: nothing here is reported as GPU lock-in.
  for (const auto& f : native) {
    INFO(f.rule_id << "@" << f.at.line);
    CHECK(f.category != Category::cuda_api);
    CHECK(f.category != Category::cuda_library);
    CHECK(f.category != Category::cuda_extension);
  }
}

TEST_CASE("neuron-ready: under the xla profile the same script only says it targets the XLA stack", "[rules][neuron]") {
  const auto xla = scan(facts_of(k_xla_script), TargetProfile::xla);
  for (const auto& f : xla) {
    if (f.category != Category::neuron_ready) continue;
    INFO(f.rule_id << "@" << f.at.line);
    CHECK(f.severity == Severity::info);
    CHECK(f.rule_id.find("legacy") == std::string::npos);
  }
  const auto found = of_category(xla, Category::neuron_ready);
  CHECK(std::count(found.begin(), found.end(), "neuron-ready.torch-xla-api@14 info") == 1);
  CHECK(std::count(found.begin(), found.end(), "neuron-ready.xla-step-marker@21 info") == 1);
}

TEST_CASE("neuron-ready: an NKI kernel called in forward is reported at the call's first line", "[rules][neuron]") {
  const auto file = facts_of(R"PY(import torch
from neuronx_distributed.kernels.flash_attn import nki_flash_attn_func


class LlamaAttention(torch.nn.Module):
    def forward(self, q, k, v):
        if self.config.use_flash_attention:
            attn_output = nki_flash_attn_func(
                q,
                k,
                v,
            )
        else:
            attn_output = torch.nn.functional.scaled_dot_product_attention(q, k, v)
        return attn_output
)PY",
                             "models/llama.py");
  const auto found = of_category(scan(file, TargetProfile::native), Category::neuron_ready);
  CHECK(std::count(found.begin(), found.end(), "neuron-ready.nki-kernel-call@8 info") == 1);
}

TEST_CASE("cuda-api.cuda-hard-gate: asserts and raises on a tensor's device, not device branches", "[rules][neuron]") {
  const auto file = facts_of(R"PY(import torch


def cross_entropy(logits, labels):
    assert logits.is_cuda and labels.is_cuda, "Only support CUDA tensors"
    return torch.nn.functional.cross_entropy(logits, labels)


def rotary(x, cos, sin):
    if x.is_cuda:
        return fused_rotary(x, cos, sin)
    return x * cos + rotate_half(x) * sin


def backward(grad_output):
    if not grad_output.is_cuda:
        raise NotImplementedError("not supported on CPUs")
    return grad_output


def cpu_reference(x):
    assert not x.is_cuda
    return x
)PY",
                             "ops/losses.py");
  const auto gates = of_category(scan(file, TargetProfile::native), Category::cuda_api);
  CHECK(std::count(gates.begin(), gates.end(), "cuda-api.cuda-hard-gate@5 high") == 1);
  CHECK(std::count(gates.begin(), gates.end(), "cuda-api.cuda-hard-gate@16 high") == 1);
  for (const std::string& g : gates) {
    CHECK(g.find("@10 ") == std::string::npos);
    CHECK(g.find("@22 ") == std::string::npos);
  }
}

TEST_CASE("neuron-ready.repo-nki-kernel-call: the repo's own @nki.jit kernels, called from a model",
          "[rules][neuron]") {
  std::vector<facts::FileFacts> files;
  files.push_back(facts_of(R"PY(import neuronx_distributed
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def flash_fwd(q, k, v, seed):
    return nl.load(q)


@nki.jit
def flash_fwd_sharded(q, k, v, seed):
    return flash_fwd(q, k, v, seed)


def get_seed(dropout_p):
    return 0
)PY",
                           "src/mylib/kernels/flash.py"));
  files.push_back(facts_of(R"PY(import torch
from mylib.kernels.flash import flash_fwd, get_seed


class FlashAttention(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v):
        seed = get_seed(0.0)
        return flash_fwd[(q.shape[0],)](q, k, v, seed)
)PY",
                           "src/mylib/attention.py"));
  const auto model = program::Program::build(std::move(files));
  std::vector<std::string> found;
  for (std::uint32_t f = 0; f < 2; ++f) {
    for (const auto& finding :
         rules::match(program::FileView{model, program::FileId{f}}, builtin(), TargetProfile::native)) {
      if (finding.rule_id == "neuron-ready.repo-nki-kernel-call")
        found.push_back(finding.path + ":" + std::to_string(finding.at.line) + " " + finding.message);
    }
  }
  // The launch in the model is reported; the kernel calling a sub-kernel and the plain helper are not.
  CHECK(found ==
        std::vector<std::string>{"src/mylib/attention.py:9 calls the NKI kernel `mylib.kernels.flash.flash_fwd`"});
}
