// Tests of score::assess against hand-built findings and the shipped policy (rules/scoring.yaml).
#include <algorithm>
#include <random>

#include "score/engine.hpp"
#include "score_test_support.hpp"

using namespace tr2audit;
using testing::assess_findings;
using testing::F;
using testing::findings_of;

namespace {

struct Case {
  const char* name;
  std::vector<F> findings;
  score::Verdict verdict;
  std::uint32_t min_readiness, max_readiness;
};

const std::vector<F> k_portable = {
    {"cuda-api.nccl-backend", "setup", Severity::high, "train.py", 20, "nccl"},
    {"cuda-api.cuda-method", "training-step", Severity::high, "train.py", 61, "cuda"},
    {"cuda-api.cuda-device-literal", "setup", Severity::high, "train.py", 15, "cuda"},
    {"cuda-api.grad-scaler", "setup", Severity::medium, "train.py", 42, "torch.cuda.amp.GradScaler"},
    {"cuda-api.cuda-amp-autocast", "training-step", Severity::medium, "train.py", 63, "torch.cuda.amp.autocast"},
    {"cuda-api.cuda-synchronize", "other", Severity::medium, "timing.py", 8, "torch.cuda.synchronize"},
    {"dynamic-shape.data-collator-dynamic-padding", "data-pipeline", Severity::medium, "data.py", 30,
     "transformers.DataCollatorWithPadding"},
    {"dynamic-graph.item-in-training-step", "training-step", Severity::medium, "train.py", 70, "item"},
};

}  // namespace

TEST_CASE("score::assess decides verdicts and readiness ranges from findings", "[score]") {
  const std::vector<Case> cases = {
      {"nothing to port", {}, score::Verdict::trainium2_pilot, 100, 100},
      {"an unguarded Triton kernel defined and launched in forward",
       {{"cuda-extension.triton-kernel", "setup", Severity::blocker, "kernels.py", 12, "triton.jit"},
        {"cuda-extension.triton-jit-call", "forward", Severity::blocker, "kernels.py", 40, "rmsnorm_kernel"}},
       score::Verdict::gpu_keep,
       0,
       60},
      {"a single isolated blocker kind costs readiness but does not decide alone",
       {{"cuda-extension.cuda-extension-jit-build", "forward", Severity::blocker, "layer.py", 90, "load"}},
       score::Verdict::dual_run,
       35,
       60},
      {"portable CUDA APIs with replacements", k_portable, score::Verdict::dual_run, 35, 74},
      {"a couple of device calls only",
       {{"cuda-api.cuda-method", "setup", Severity::high, "train.py", 30, "cuda"}},
       score::Verdict::trainium2_pilot,
       75,
       100},
      {"flash-attn called unguarded in forward",
       {{"cuda-library.flash-attn-call", "forward", Severity::medium, "model.py", 53, "flash_attn.flash_attn_func"}},
       score::Verdict::gpu_keep,
       0,
       100},
      // A vendored model no training entry point builds (InternVL's LLaVA-MPT, chosen only for an `mpt`
      // checkpoint): porting work, not the verdict.
      {"flash-attn called in a forward no training entry point reaches",
       {{"cuda-library.flash-attn-call",
         "forward",
         Severity::medium,
         "mpt/attention.py",
         147,
         "flash_attn.flash_attn_func",
         {},
         Confidence::high,
         "",
         false}},
       score::Verdict::trainium2_pilot,
       75,
       100},
      {"dynamic forward: two kinds of data-dependent code",
       {{"dynamic-graph.data-dependent-shape-op", "forward", Severity::high, "model.py", 80, "torch.nonzero"},
        {"dynamic-graph.data-dependent-branch-in-forward", "forward", Severity::high, "model.py", 82, "if"}},
       score::Verdict::gpu_keep,
       0,
       100},
      {"one .item() in forward is dual-run work, not gpu-keep",
       {{"dynamic-graph.item-in-forward", "forward", Severity::high, "model.py", 82, "item"},
        {"cuda-api.cuda-method", "setup", Severity::high, "train.py", 30, "cuda"},
        {"cuda-api.nccl-backend", "setup", Severity::high, "train.py", 20, "nccl"},
        {"cuda-api.cuda-device-literal", "setup", Severity::high, "train.py", 15, "cuda"}},
       score::Verdict::dual_run,
       35,
       74},
  };
  for (const auto& c : cases) {
    SECTION(c.name) {
      const auto findings = findings_of(c.findings);
      const auto a = assess_findings(findings);
      INFO(c.name << ": readiness " << a.readiness << ", verdict " << score::to_string(a.verdict));
      CHECK(a.verdict == c.verdict);
      CHECK(a.readiness >= c.min_readiness);
      CHECK(a.readiness <= c.max_readiness);
      CHECK(a.reasons.size() >= 2);
      CHECK(a.reasons.size() <= 6);
      CHECK(a.categories.size() == k_all_categories.size());
    }
  }
}

TEST_CASE("score::assess counts repeats of one rule in one function as one problem", "[score]") {
  const auto sync = [](std::uint32_t line, const char* function) {
    F f{"cuda-api.cuda-synchronize", "training-step", Severity::medium, "train.py", line};
    f.function = function;
    return f;
  };
  const auto a1 = assess_findings(findings_of({sync(5, "train")}));
  std::vector<F> ten, spread;
  for (std::uint32_t i = 0; i < 10; ++i) {
    ten.push_back(sync(5 + i, "train"));
    spread.push_back(sync(5 + i, i % 2 ? "train" : "evaluate"));
  }
  const auto a10 = assess_findings(findings_of(ten));
  const auto a2 = assess_findings(findings_of(spread));
  // One sync costs about 4 points; ten in one function are the same problem; two functions are two
  // problems, the second with diminishing weight.
  CHECK(100 - a1.readiness == 4);
  CHECK(a10.readiness == a1.readiness);
  CHECK(a10.categories[static_cast<std::size_t>(Category::cuda_api)].findings == 10);
  CHECK(a2.readiness < a1.readiness);
  CHECK(100 - a2.readiness < 8);
}

TEST_CASE("score::assess normalises readiness by the size of the training path", "[score]") {
  const auto findings = findings_of(k_portable);
  report::TrainingSetup setup = testing::loop_setup();
  score::ScoreInput input;
  input.findings = findings;
  input.setup = &setup;
  input.training_lines = 500;
  const auto small = score::assess(input, testing::shipped_policy());
  input.training_lines = 50000;
  const auto large = score::assess(input, testing::shipped_policy());
  CHECK(large.readiness > small.readiness);
}

TEST_CASE("score::assess caps readiness by reached blockers without zeroing it", "[score]") {
  std::vector<F> one = k_portable;
  one.push_back({"cuda-extension.cuda-extension-jit-build", "forward", Severity::blocker, "model.py", 9, "load"});
  std::vector<F> unreached = one;
  unreached.back().reached = false;
  std::vector<F> three = one;
  three.push_back({"cuda-extension.cuda-extension-jit-build", "forward", Severity::blocker, "model.py", 30, "load"});
  three.back().function = "Attention.forward";
  three.push_back({"cuda-extension.cuda-extension-jit-build", "forward", Severity::blocker, "model.py", 60, "load"});
  three.back().function = "MLP.forward";
  const auto a_portable = assess_findings(findings_of(k_portable));
  const auto a_one = assess_findings(findings_of(one));
  const auto a_unreached = assess_findings(findings_of(unreached));
  const auto a_three = assess_findings(findings_of(three));
  CHECK(a_one.readiness <= 60);
  CHECK(a_one.readiness > 0);
  CHECK(a_one.readiness < a_portable.readiness);
  CHECK(a_unreached.readiness > a_one.readiness);  // not reached: no cap, half the penalty
  // Three extensions loaded in three places are three blockers, though one rule id: gpu-keep.
  CHECK(a_three.verdict == score::Verdict::gpu_keep);
  CHECK(a_three.readiness < a_one.readiness);
  CHECK(a_three.readiness > 0);
  CHECK_THAT(a_three.reasons[0].text, Catch::Contains("everal unguarded blockers"));
  // The flip never says "becomes gpu-keep if a blocker sits on the hot path" when one does.
  for (const auto& flip : a_one.flip) CHECK_THAT(flip, !Catch::Contains("becomes gpu-keep if an unguarded blocker"));
}

TEST_CASE("score::assess keeps a training run on DeepSpeed's engine from a pilot", "[score]") {
  // A clean fine-tune that is a pilot on its own...
  const std::vector<F> clean = {
      {"dynamic-graph.item-in-training-step", "training-step", Severity::medium, "train.py", 70, "item"},
      {"cuda-api.cuda-device-literal", "setup", Severity::medium, "train.py", 15, "cuda"},
  };
  const auto a_clean = assess_findings(findings_of(clean));
  REQUIRE(a_clean.verdict == score::Verdict::trainium2_pilot);
  // ...is at most dual-run once the training run builds DeepSpeed's engine: its loop needs a Trainium2 twin.
  std::vector<F> engine = clean;
  engine.push_back({"cuda-library.deepspeed-engine", "setup", Severity::high, "train.py", 40, "deepspeed.initialize"});
  const auto a_engine = assess_findings(findings_of(engine));
  CHECK(a_engine.readiness <= 70);
  CHECK(a_engine.verdict == score::Verdict::dual_run);
  // An opt-in DeepSpeed path (low) is the GPU variant: no cap.
  std::vector<F> opt_in = clean;
  opt_in.push_back({"cuda-library.deepspeed-engine", "setup", Severity::low, "train.py", 40, "deepspeed.initialize"});
  CHECK(assess_findings(findings_of(opt_in)).verdict == score::Verdict::trainium2_pilot);
}

TEST_CASE("score::assess ignores test code and suppressed findings", "[score]") {
  const auto clean = assess_findings({});
  auto in_tests = findings_of({{"cuda-extension.triton-jit-call", "test", Severity::blocker, "tests/test_k.py", 3},
                               {"cuda-api.cuda-method", "test", Severity::high, "tests/test_model.py", 9}});
  const auto a = assess_findings(in_tests);
  CHECK(a.verdict == clean.verdict);
  CHECK(a.readiness == clean.readiness);
  auto suppressed = findings_of({{"cuda-extension.triton-jit-call", "forward", Severity::blocker, "k.py", 3}});
  suppressed[0].suppressed = rules::Suppression{"ported already", ""};
  CHECK(assess_findings(suppressed).verdict == score::Verdict::trainium2_pilot);
}

TEST_CASE("score::assess applies the hard rules in order", "[score]") {
  SECTION("a guarded blocker does not force gpu-keep") {
    const auto a = assess_findings(findings_of(
        {{"cuda-extension.triton-jit-call", "forward", Severity::blocker, "k.py", 3, "k", {"import-error-fallback"}}}));
    CHECK(a.verdict != score::Verdict::gpu_keep);
  }
  SECTION("a blocker in the evaluation code is not on the hot path") {
    const auto a = assess_findings(
        findings_of({{"cuda-extension.cuda-inline-extension-build", "evaluation", Severity::blocker, "eval.py", 3}}));
    CHECK(a.verdict != score::Verdict::gpu_keep);
  }
  SECTION("neuron-ready code is a pilot despite CUDA leftovers") {
    std::vector<F> specs = k_portable;
    specs.push_back({"neuron-ready.neuron-sdk-import", "setup", Severity::info, "train.py", 2, "torch_neuronx"});
    const auto a = assess_findings(findings_of(specs));
    CHECK(a.verdict == score::Verdict::trainium2_pilot);
    REQUIRE(!a.flip.empty());
    CHECK_THAT(a.flip[0], Catch::Contains("would be dual-run"));
  }
  SECTION("an unguarded blocker anywhere cancels the neuron-ready pilot") {
    const auto a = assess_findings(
        findings_of({{"neuron-ready.neuron-sdk-import", "setup", Severity::info, "train.py", 2, "torch_neuronx"},
                     {"cuda-extension.cuda-inline-extension-build", "other", Severity::blocker, "tools/bench.py", 3}}));
    CHECK(a.reasons[0].text.find("already targets Neuron and has no unguarded blocker") == std::string::npos);
  }
  SECTION("the blocker rule wins over neuron signals") {
    const auto a = assess_findings(
        findings_of({{"neuron-ready.neuron-sdk-import", "setup", Severity::info, "train.py", 2, "torch_neuronx"},
                     {"cuda-extension.triton-jit-call", "forward", Severity::blocker, "model.py", 30, "rmsnorm"},
                     {"cuda-extension.triton-kernel", "setup", Severity::blocker, "kernels.py", 8, "triton.jit"}}));
    CHECK(a.verdict == score::Verdict::gpu_keep);
    CHECK_THAT(a.reasons[0].text, Catch::Contains("`rmsnorm` in") || Catch::Contains("`rmsnorm` (model.py:30)"));
    CHECK(std::find(a.reasons[0].finding_ids.begin(), a.reasons[0].finding_ids.end(), "F0002") !=
          a.reasons[0].finding_ids.end());
  }
}

TEST_CASE("score::assess counts a wrapper's call and the op it wraps as one kind", "[score]") {
  // OLMo's shape: `cu_doc_lens = get_cumulative_document_lengths(doc_lens)` in `OLMo.forward` (a wrapped-op call)
  // and `doc_lens.masked_select(...)` inside `get_cumulative_document_lengths`: one op, not "several kinds".
  auto findings = findings_of({
      {"dynamic-graph.wrapped-data-dependent-op",
       "forward",
       Severity::high,
       "model.py",
       1314,
       "wrapped-op-call",
       {},
       Confidence::medium,
       "OLMo.forward"},
      {"dynamic-graph.data-dependent-shape-method",
       "forward",
       Severity::high,
       "torch_util.py",
       158,
       "masked_select",
       {},
       Confidence::medium,
       "get_cumulative_document_lengths"},
  });
  findings[0].wrapper = "get_cumulative_document_lengths";
  const auto one_op = assess_findings(findings);
  CHECK(one_op.verdict != score::Verdict::gpu_keep);
  CHECK(score::detail::distinct_rules({&findings[0], &findings[1]}) == 1);
  // A wrapper whose op has no finding of its own (its body is not in forward) is a kind of its own...
  findings[0].wrapper = "another_wrapper";
  CHECK(assess_findings(findings).verdict == score::Verdict::gpu_keep);
  // ...and so is a second op beside the wrapped one.
  findings[0].wrapper = "get_cumulative_document_lengths";
  findings.push_back(findings_of({{"dynamic-graph.item-in-forward",
                                   "forward",
                                   Severity::high,
                                   "model.py",
                                   1320,
                                   "item",
                                   {},
                                   Confidence::high,
                                   "OLMo.forward"}})[0]);
  CHECK(assess_findings(findings).verdict == score::Verdict::gpu_keep);
}

TEST_CASE("score::assess flip re-decides with the named work done", "[score]") {
  std::vector<F> specs = k_portable;
  specs.push_back(
      {"cuda-library.flash-attn-call", "forward", Severity::medium, "model.py", 53, "flash_attn.flash_attn_func"});
  specs.push_back({"cuda-extension.triton-jit-call", "forward", Severity::blocker, "kernels.py", 12, "fused_mlp"});
  const auto findings = findings_of(specs);
  const auto a = assess_findings(findings);
  REQUIRE(a.verdict == score::Verdict::gpu_keep);
  REQUIRE(!a.flip.empty());
  CHECK_THAT(a.flip[0], Catch::Contains("`fused_mlp` (kernels.py:12)"));
  CHECK_THAT(a.flip[0], Catch::Contains("`flash_attn.flash_attn_func` (model.py:53)"));
  CHECK_THAT(a.flip[0], Catch::Contains("the verdict becomes dual-run"));
  // Doing exactly that work gives the verdict the flip promises.
  const auto rest = findings_of(k_portable);
  CHECK(assess_findings(rest).verdict == score::Verdict::dual_run);
  SECTION("a dual-run names what reaches the pilot") {
    const auto d = assess_findings(rest);
    REQUIRE(!d.flip.empty());
    CHECK_THAT(d.flip[0], Catch::Contains("trainium2-pilot"));
    CHECK_THAT(d.flip.back(), Catch::Contains("gpu-keep"));
  }
}

TEST_CASE("score::assess flip names the work that costs the most readiness, not the most findings", "[score]") {
  // llm.c's shape: a training script with portable CUDA calls, and forty standalone .cu experiments
  // that no Python builds. Forty low findings are a few problems after the repeat decay; removing
  // them first would name a kernel experiment as the way to the pilot.
  std::vector<F> specs = k_portable;
  specs.push_back({"cuda-api.cuda-hard-gate", "setup", Severity::high, "train.py", 19, "cuda-hard-gate"});
  for (std::uint32_t i = 0; i < 40; ++i) {
    specs.push_back({"cuda-extension.standalone-cuda-source",
                     "other",
                     Severity::low,
                     "dev/cuda/kernel" + std::to_string(i) + ".cu",
                     1,
                     "kernel" + std::to_string(i),
                     {},
                     Confidence::high,
                     "",
                     false});
  }
  const auto a = assess_findings(findings_of(specs));
  INFO("readiness " << a.readiness);
  REQUIRE(a.verdict == score::Verdict::dual_run);
  REQUIRE(!a.flip.empty());
  CHECK_THAT(a.flip[0], !Catch::Contains("dev/cuda/"));
  CHECK_THAT(a.flip[0], Catch::Contains("trainium2-pilot"));

  SECTION("the findings of a hard rule that holds the verdict at dual-run are part of the work") {
    specs.push_back({"operator-support.unsupported-dtype",
                     "forward",
                     Severity::medium,
                     "model.py",
                     109,
                     "torch.view_as_complex",
                     {},
                     Confidence::high,
                     "apply_rotary_emb"});
    auto findings = findings_of(specs);
    for (auto& f : findings) {
      if (f.rule_id != "cuda-api.cuda-hard-gate") continue;
      // `if not batch.is_cuda:` and its `raise` on the next line: named by the statement, not the rule.
      f.snippet = "    if not batch.is_cuda:";
      f.snippet_column = 5;
      f.at.column = 5;
      f.at.end_line = f.at.line + 1;
      f.at.end_column = 30;
    }
    const auto b = assess_findings(findings);
    REQUIRE(b.verdict == score::Verdict::dual_run);
    REQUIRE(!b.flip.empty());
    CHECK_THAT(b.flip[0], Catch::Contains("`if not batch.is_cuda` (train.py:19)"));
    CHECK_THAT(b.flip[0], Catch::Contains("replace `torch.view_as_complex` in `apply_rotary_emb` (model.py:109)"));
    CHECK_THAT(b.flip[0], !Catch::Contains("dev/cuda/"));
  }
}

TEST_CASE("score::assess is independent of the order of findings", "[score]") {
  std::vector<F> specs = k_portable;
  specs.push_back({"cuda-library.apex-import", "setup", Severity::high, "train.py", 3, "apex"});
  const auto base = assess_findings(findings_of(specs));
  std::mt19937 rng(7);
  for (int round = 0; round < 5; ++round) {
    auto findings = findings_of(specs);
    std::shuffle(findings.begin(), findings.end(), rng);
    const auto a = assess_findings(findings);
    CHECK(a.verdict == base.verdict);
    CHECK(a.readiness == base.readiness);
    CHECK(a.confidence == base.confidence);
  }
}

TEST_CASE("score::assess lowers confidence for weak evidence", "[score]") {
  const std::vector<F> device = {k_portable[1]};  // readiness far from any threshold: high confidence
  const auto strong = assess_findings(findings_of(device));
  std::vector<F> weak = device;
  for (auto& f : weak) f.confidence = Confidence::low;
  const auto a = assess_findings(findings_of(weak));
  CHECK(static_cast<int>(a.confidence) < static_cast<int>(strong.confidence));
  SECTION("a tiny repo without a training loop is low confidence") {
    const auto findings = findings_of({{"cuda-api.cuda-method", "setup", Severity::high, "x.py", 1}});
    const report::TrainingSetup no_loop;
    score::ScoreInput input;
    input.findings = findings;
    input.setup = &no_loop;
    input.lines = 40;
    input.files_scanned = 1;
    input.files_with_syntax_errors = 1;
    CHECK(score::assess(input, testing::shipped_policy()).confidence == Confidence::low);
  }
}

TEST_CASE("score::assess estimates effort per category", "[score]") {
  const auto a =
      assess_findings(findings_of({{"cuda-extension.triton-jit-call", "forward", Severity::blocker, "k.py", 3},
                                   {"cuda-api.cuda-synchronize", "other", Severity::medium, "t.py", 3}}));
  const auto& ext = a.categories[static_cast<std::size_t>(Category::cuda_extension)];
  const auto& api = a.categories[static_cast<std::size_t>(Category::cuda_api)];
  const auto& shape = a.categories[static_cast<std::size_t>(Category::dynamic_shape)];
  CHECK(ext.effort == score::Effort::high);
  CHECK(ext.engineer_days == "15-40");
  CHECK(ext.score < 50);
  CHECK(api.effort == score::Effort::low);
  CHECK(shape.effort == score::Effort::none);
  CHECK(shape.engineer_days == "0");
  CHECK(shape.score == 100);
  CHECK(!a.effort_assumptions.empty());
}

TEST_CASE("score::assess reproduces the worked example of docs/scoring.md", "[score]") {
  const auto a = assess_findings(findings_of(k_portable));
  CHECK(a.verdict == score::Verdict::dual_run);
  CHECK(a.readiness == 73);
  CHECK(a.confidence == Confidence::medium);  // 2 points from the pilot threshold
  REQUIRE(!a.flip.empty());
  CHECK(a.flip[0] ==
        "Switch `cuda` (train.py:61), `cuda` (train.py:15) to their Neuron equivalents: the verdict becomes "
        "trainium2-pilot (readiness 78).");
  CHECK(a.categories[static_cast<std::size_t>(Category::cuda_api)].score == 0);
  CHECK(a.categories[static_cast<std::size_t>(Category::cuda_api)].engineer_days == "3-5");
  CHECK(a.categories[static_cast<std::size_t>(Category::dynamic_graph)].score == 89);
}

TEST_CASE("score::assess keeps a standard Hugging Face fine-tune at least dual-run", "[score]") {
  const auto findings = findings_of(
      {{"dynamic-graph.data-dependent-shape-op", "forward", Severity::high, "variants/cpt.py", 80, "torch.nonzero"},
       {"dynamic-graph.data-dependent-branch-in-forward", "forward", Severity::high, "variants/cpt.py", 82, "if"},
       {"dynamic-graph.item-in-forward", "forward", Severity::high, "variants/cpt.py", 84, "item"},
       {"dynamic-graph.boolean-mask-index", "forward", Severity::high, "variants/cpt.py", 86, "mask"}});
  report::TrainingSetup setup = testing::loop_setup();
  score::ScoreInput input;
  input.findings = findings;
  input.setup = &setup;
  CHECK(score::assess(input, testing::shipped_policy()).verdict == score::Verdict::gpu_keep);
  setup.fine_tuning.push_back(report::SetupFact{"lora", {"train.py:31"}});
  setup.model_family.push_back(report::SetupFact{"llama", {"train.py:20"}});
  const auto a = score::assess(input, testing::shipped_policy());
  CHECK(a.verdict != score::Verdict::gpu_keep);  // the floor overrides the later gpu-keep rule
  CHECK_THAT(a.reasons[0].text, Catch::Contains("lora (train.py:31)"));
  CHECK_THAT(a.reasons[0].text, Catch::Contains("llama (train.py:20)"));
}

TEST_CASE("score::assess needs a training entry point for the fine-tune floor and the Neuron rule", "[score]") {
  const auto findings = findings_of(
      {{"dynamic-graph.data-dependent-shape-op", "forward", Severity::high, "convert.py", 80, "torch.nonzero"},
       {"dynamic-graph.data-dependent-branch-in-forward", "forward", Severity::high, "convert.py", 82, "if"},
       {"dynamic-graph.item-in-forward", "forward", Severity::high, "convert.py", 84, "item"},
       {"dynamic-graph.boolean-mask-index", "forward", Severity::high, "convert.py", 86, "mask"}});
  report::TrainingSetup setup = testing::loop_setup();
  setup.fine_tuning.push_back(report::SetupFact{"lora", {"convert.py:31"}});
  setup.model_family.push_back(report::SetupFact{"llama", {"convert.py:20"}});
  score::ScoreInput input;
  input.findings = findings;
  input.setup = &setup;
  input.has_training_entry = false;  // a converter's from_pretrained is no fine-tune
  CHECK(score::assess(input, testing::shipped_policy()).verdict == score::Verdict::gpu_keep);
  input.has_training_entry = true;
  CHECK(score::assess(input, testing::shipped_policy()).verdict != score::Verdict::gpu_keep);

  // Neuron evidence only behind is_torch_xla_available() (accelerator-agnostic) does not say "targets Neuron".
  auto xla = findings_of(
      {{"neuron-ready.torch-xla-import", "setup", Severity::info, "utils.py", 3, "torch_xla", {"neuron-branch"}},
       {"cuda-api.cuda-device-literal", "setup", Severity::medium, "train.py", 9, "cuda"}});
  score::ScoreInput guarded;
  guarded.findings = xla;
  guarded.setup = &setup;
  const auto g = score::assess(guarded, testing::shipped_policy());
  for (const auto& reason : g.reasons) CHECK_THAT(reason.text, !Catch::Contains("already targets Neuron"));
  // The same import on the training path, unguarded, is Neuron evidence.
  xla[0].guards = 0;
  guarded.findings = xla;
  const auto n = score::assess(guarded, testing::shipped_policy());
  REQUIRE_FALSE(n.reasons.empty());
  CHECK_THAT(n.reasons[0].text, Catch::Contains("already targets Neuron"));
}

TEST_CASE("score::detail::code_of names a notebook finding's code in source text, not JSON columns", "[score]") {
  // `.to("cuda")` in a notebook cell: the finding's columns are the JSON file's, where each quote is
  // written `\"`, so the span is 8 columns wide for the 6 characters of "cuda".
  auto findings = findings_of({{"cuda-api.cuda-device-literal", "setup", Severity::medium, "nb.ipynb", 40, "cuda"}});
  auto& f = findings[0];
  f.cell = CellLocation{8, 24};
  f.snippet = "model_input = tokenizer(eval_prompt, return_tensors=\"pt\").to(\"cuda\")";
  f.snippet_column = 62;  // the opening quote of "cuda"
  f.at.end_line = f.at.line;
  f.at.column = 81;  // in the JSON line: the `\"` escapes of "pt" and the line's indent and opening quote
  f.at.end_column = 89;
  CHECK(score::detail::code_of(f) == "`\"cuda\"`");
  SECTION("a Python file's columns are the source's") {
    f.cell = CellLocation{};
    f.at.column = 62;
    f.at.end_column = 68;
    CHECK(score::detail::code_of(f) == "`\"cuda\"`");
  }
}

TEST_CASE("score::assess names a multi-line call by its callee, not by its pattern word", "[score]") {
  std::vector<F> specs = {{"cuda-library.lock-in-library-call",
                           "forward",
                           Severity::high,
                           "model.py",
                           210,
                           "lock-in-library-call",
                           {},
                           Confidence::medium,
                           "DDiTBlock.forward"},
                          {"cuda-extension.cuda-extension-jit-build", "forward", Severity::blocker, "layer.py", 90,
                           "torch.utils.cpp_extension.load"}};
  auto findings = findings_of(specs);
  for (auto& f : findings) {
    // `qkv = apply_rotary_pos_emb(` with its arguments on the next lines; `ext = load(` likewise.
    f.snippet = f.rule_id == "cuda-library.lock-in-library-call" ? "      qkv = apply_rotary_pos_emb(" : "ext = load(";
    f.snippet_column = f.rule_id == "cuda-library.lock-in-library-call" ? 13 : 7;
    f.at.column = f.snippet_column;
    f.at.end_line = f.at.line + 2;
    f.at.end_column = 8;
  }
  const auto a = assess_findings(findings);
  std::string reasons;
  for (const auto& reason : a.reasons) reasons += reason.text + "\n";
  CHECK_THAT(reasons, Catch::Contains("`apply_rotary_pos_emb(…)` in `DDiTBlock.forward` (model.py:210)"));
  CHECK_THAT(reasons, !Catch::Contains("`lock-in-library-call`"));
  // A dotted subject names the callee better than the call as written.
  CHECK_THAT(reasons, Catch::Contains("`torch.utils.cpp_extension.load`"));
  CHECK_THAT(reasons, !Catch::Contains("`load(…)`"));
}
