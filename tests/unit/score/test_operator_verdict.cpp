// Tests of the operator-support, QLoRA and notebook parts of the shipped scoring policy: the
// `at_most` ceilings and entry-aware path factors (rules/scoring.yaml).
#include "score_test_support.hpp"

using namespace tr2audit;
using testing::assess_findings;
using testing::F;
using testing::findings_of;

namespace {

const F k_fallback{"operator-support.cpu-fallback-op",
                   "forward",
                   Severity::medium,
                   "model.py",
                   40,
                   "torch.linalg.eigh",
                   {},
                   Confidence::medium,
                   "Whitening.forward"};

score::Assessment assess_with(const std::vector<rules::Finding>& findings, const report::TrainingSetup& setup,
                              std::vector<std::string> entry_paths = {"train.py"}) {
  score::ScoreInput input;
  input.findings = findings;
  input.setup = &setup;
  input.files_scanned = 20;
  input.lines = 3000;
  input.training_entry_paths = std::move(entry_paths);
  return score::assess(input, testing::shipped_policy());
}

}  // namespace

TEST_CASE("score::assess keeps a forward whose ops fall back to the CPU at most dual-run", "[score]") {
  const auto a = assess_findings(findings_of({k_fallback}));
  CHECK(a.readiness >= 75);  // the thresholds alone would say pilot
  CHECK(a.verdict == score::Verdict::dual_run);
  REQUIRE_FALSE(a.reasons.empty());
  CHECK_THAT(a.reasons[0].text, Catch::Contains("`torch.linalg.eigh` in `Whitening.forward` (model.py:40)"));
  CHECK_THAT(a.reasons[0].text, Catch::Contains("rules/neuron-ops.yaml"));
  CHECK(a.reasons[0].finding_ids == std::vector<std::string>{"F0001"});

  // The same op once at setup, or gated by an opt-in (capped low), does not cap the verdict.
  F setup_once = k_fallback;
  setup_once.region = "setup";
  setup_once.severity = Severity::info;
  CHECK(assess_findings(findings_of({setup_once})).verdict == score::Verdict::trainium2_pilot);
  F opt_in = k_fallback;
  opt_in.severity = Severity::low;
  CHECK(assess_findings(findings_of({opt_in})).verdict == score::Verdict::trainium2_pilot);
}

TEST_CASE("score::assess lets a worse hard rule win over the operator ceiling", "[score]") {
  auto findings =
      findings_of({k_fallback,
                   {"dynamic-graph.data-dependent-branch-in-forward", "forward", Severity::high, "model.py", 50, "if"},
                   {"dynamic-graph.item-in-forward", "forward", Severity::high, "model.py", 52, "item"}});
  const auto a = assess_findings(findings);
  CHECK(a.verdict == score::Verdict::gpu_keep);
  REQUIRE_FALSE(a.reasons.empty());
  CHECK_THAT(a.reasons[0].text, Catch::Contains("data-dependent control flow"));
}

TEST_CASE("score::assess weighs unsupported ops in forward toward gpu-keep", "[score]") {
  const auto one = assess_findings(findings_of({{"operator-support.unsupported-op",
                                                 "forward",
                                                 Severity::high,
                                                 "adapter.py",
                                                 20,
                                                 "torch.sparse.mm",
                                                 {},
                                                 Confidence::medium}}));
  const auto two = assess_findings(findings_of({{"operator-support.unsupported-op",
                                                 "forward",
                                                 Severity::high,
                                                 "adapter.py",
                                                 20,
                                                 "torch.sparse.mm",
                                                 {},
                                                 Confidence::medium},
                                                {"operator-support.unsupported-op",
                                                 "forward",
                                                 Severity::high,
                                                 "adapter.py",
                                                 24,
                                                 "torch.sparse_coo_tensor",
                                                 {},
                                                 Confidence::medium},
                                                {"operator-support.cpu-fallback-op",
                                                 "forward",
                                                 Severity::medium,
                                                 "adapter.py",
                                                 30,
                                                 "torch.fft.ifft2",
                                                 {},
                                                 Confidence::medium},
                                                {"operator-support.unsupported-dtype",
                                                 "training-step",
                                                 Severity::medium,
                                                 "train.py",
                                                 70,
                                                 "torch.float64",
                                                 {},
                                                 Confidence::medium}}));
  CHECK(one.verdict == score::Verdict::dual_run);
  CHECK(one.readiness < 92);
  CHECK(two.readiness + 10 < one.readiness);
  CHECK(two.verdict == score::Verdict::dual_run);
}

TEST_CASE("score::assess keeps a QLoRA training path at most dual-run", "[score]") {
  const auto findings = findings_of({{"cuda-library.bitsandbytes-quantized-model", "setup", Severity::high,
                                      "finetune.py", 30, "transformers.BitsAndBytesConfig"}});
  report::TrainingSetup lora = testing::loop_setup();
  lora.fine_tuning.push_back(report::SetupFact{"lora", {"finetune.py:40"}});
  const auto eight_bit = assess_with(findings, lora);
  CHECK(eight_bit.verdict == score::Verdict::trainium2_pilot);
  report::TrainingSetup qlora = testing::loop_setup();
  qlora.fine_tuning.push_back(report::SetupFact{"qlora", {"finetune.py:30"}});
  const auto a = assess_with(findings, qlora);
  CHECK(a.verdict == score::Verdict::dual_run);
  REQUIRE_FALSE(a.reasons.empty());
  CHECK_THAT(a.reasons[0].text, Catch::Contains("bf16 LoRA"));
  const bool planned = std::any_of(a.plan.begin(), a.plan.end(), [](const auto& step) {
    return step.step.find("QLoRA to bf16 LoRA") != std::string::npos;
  });
  CHECK(planned);
}

TEST_CASE("score::assess down-weights notebooks only when training runs elsewhere", "[score]") {
  const auto findings =
      findings_of({{"cuda-api.cuda-method", "training-step", Severity::high, "train.ipynb", 12, "cuda"},
                   {"cuda-api.cuda-device-literal", "setup", Severity::high, "explore.ipynb", 3, "cuda"}});
  const report::TrainingSetup setup = testing::loop_setup();
  const auto script_trains = assess_with(findings, setup, {"train.py"});
  const auto notebook_trains = assess_with(findings, setup, {"train.ipynb"});
  const auto both = assess_with(findings, setup, {"train.py", "train.ipynb"});
  // Notebooks hold the only training loop: they weigh like scripts.
  CHECK(notebook_trains.readiness + 10 < script_trains.readiness);
  // A notebook holding a training loop weighs fully; the other notebook stays down-weighted.
  CHECK(both.readiness < script_trains.readiness);
  CHECK(both.readiness > notebook_trains.readiness);
}
