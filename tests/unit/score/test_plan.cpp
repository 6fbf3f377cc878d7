// Tests of the migration plan: guide order, code-change steps tied to findings, profile wording.
#include "score_test_support.hpp"

using namespace tr2audit;
using testing::assess_findings;
using testing::findings_of;

namespace {

const score::PlanStep* step_with(const score::Assessment& a, std::string_view text) {
  for (const auto& step : a.plan) {
    if (step.step.find(text) != std::string::npos) return &step;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("score::plan names the locations of the code to change", "[score]") {
  const auto findings = findings_of({
      {"cuda-api.grad-scaler", "setup", Severity::medium, "train.py", 42, "torch.cuda.amp.GradScaler"},
      {"cuda-api.nccl-backend", "setup", Severity::high, "train.py", 20, "nccl"},
      {"cuda-api.cuda-method", "training-step", Severity::high, "train.py", 61, "cuda"},
      {"cuda-api.cuda-method", "training-step", Severity::high, "train.py", 62, "cuda"},
      {"cuda-api.cuda-method", "test", Severity::high, "tests/test_model.py", 5, "cuda"},
  });
  const auto a = assess_findings(findings);
  REQUIRE(a.plan.size() >= 7);
  CHECK_THAT(a.plan.front().step, Catch::StartsWith("Pin the model"));
  const auto* scaler = step_with(a, "GradScaler");
  REQUIRE(scaler != nullptr);
  CHECK(scaler->locations == std::vector<std::string>{"train.py:42"});
  CHECK(scaler->finding_ids == std::vector<std::string>{"F0001"});
  const auto* device = step_with(a, ".cuda()");
  REQUIRE(device != nullptr);
  CHECK(device->locations == std::vector<std::string>{"train.py:61", "train.py:62"});  // not the test file
  const auto* pg = step_with(a, "backend=\"neuron\"");
  REQUIRE(pg != nullptr);
  CHECK(pg->locations == std::vector<std::string>{"train.py:20"});
  CHECK(!pg->probes.empty());
  // Steps without supporting findings are left out.
  CHECK(step_with(a, "NKI kernel") == nullptr);
  CHECK(step_with(a, "fixed shape") == nullptr);
  // Guide order: baseline, code changes, short job, resume, outputs, compile/cache.
  const auto index = [&](std::string_view text) {
    for (std::size_t i = 0; i < a.plan.size(); ++i) {
      if (a.plan[i].step.find(text) != std::string::npos) return i;
    }
    return a.plan.size();
  };
  CHECK(index("GradScaler") < index("short Trainium2 job"));
  CHECK(index("short Trainium2 job") < index("Save a checkpoint"));
  CHECK(index("Save a checkpoint") < index("final outputs"));
  CHECK(index("final outputs") < index("compile time"));
}

TEST_CASE("score::plan words steps and probes for the target profile", "[score]") {
  const auto findings = findings_of({{"cuda-api.nccl-backend", "setup", Severity::high, "train.py", 20, "nccl"},
                                     {"dynamic-shape.pad-sequence", "data-pipeline", Severity::medium, "data.py", 9}});
  const auto native = assess_findings(findings, TargetProfile::native);
  const auto xla = assess_findings(findings, TargetProfile::xla);
  CHECK(step_with(native, "backend=\"neuron\"") != nullptr);
  CHECK(step_with(xla, "backend=\"xla\"") != nullptr);
  const auto* compile_native = step_with(native, "compile time");
  const auto* compile_xla = step_with(xla, "compile time");
  REQUIRE(compile_native != nullptr);
  REQUIRE(compile_xla != nullptr);
  CHECK_THAT(compile_native->probes[0], Catch::Contains("TORCH_LOGS=graph_breaks,recompiles"));
  CHECK_THAT(compile_xla->probes[0], Catch::Contains("neuron_parallel_compile --command analyze"));
  CHECK(compile_native->locations == std::vector<std::string>{"data.py:9"});
}

TEST_CASE("score::plan adds the GPU fallback condition only for dual-run", "[score]") {
  const auto dual = assess_findings(findings_of({
      {"cuda-api.nccl-backend", "setup", Severity::high, "train.py", 20},
      {"cuda-api.cuda-method", "training-step", Severity::high, "train.py", 61},
      {"cuda-api.cuda-device-literal", "setup", Severity::high, "train.py", 15},
      {"cuda-api.grad-scaler", "setup", Severity::medium, "train.py", 42},
      {"dynamic-shape.pad-sequence", "data-pipeline", Severity::medium, "data.py", 9},
      {"dynamic-graph.item-in-training-step", "training-step", Severity::high, "train.py", 70},
      {"cuda-library.flash-attn-import",
       "setup",
       Severity::high,
       "model.py",
       3,
       "flash_attn",
       {"import-error-fallback"}},
  }));
  REQUIRE(dual.verdict == score::Verdict::dual_run);
  const auto* fallback = step_with(dual, "GPU fallback");
  REQUIRE(fallback != nullptr);
  CHECK(fallback->locations == std::vector<std::string>{"model.py:3"});
  const auto pilot = assess_findings({});
  CHECK(step_with(pilot, "GPU fallback") == nullptr);
}

TEST_CASE("score::plan ports only the XLA code a run takes unconditionally", "[score]") {
  // A transformers fork's Trainer: `if is_torch_tpu_available(): xm.mark_step()` is a TPU (or legacy Neuron)
  // path the native stack never takes: nothing to port.
  const auto guarded = findings_of({
      {"neuron-ready.legacy-xla-step-marker",
       "training-step",
       Severity::low,
       "trainer.py",
       948,
       "xm.mark_step",
       {"import-error-fallback", "neuron-branch"}},
  });
  CHECK(step_with(assess_findings(guarded), "Port the PyTorch/XLA code") == nullptr);
  // A training loop written for the XLA stack: every step marks it.
  const auto unguarded = findings_of({
      {"neuron-ready.legacy-xla-step-marker", "training-step", Severity::low, "train.py", 120, "xm.mark_step"},
  });
  const auto assessed = assess_findings(unguarded);
  const auto* port = step_with(assessed, "Port the PyTorch/XLA code");
  REQUIRE(port != nullptr);
  CHECK(port->locations == std::vector<std::string>{"train.py:120"});
}
