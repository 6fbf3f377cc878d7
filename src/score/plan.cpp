// score/plan: the migration plan in the decision guide's order: baseline, code changes (one step per
// policy plan template that findings support), short job, checkpoint/resume, outputs, compile and
// cache, and the GPU fallback condition for dual-run.
#include <algorithm>
#include <set>

#include "score/engine.hpp"

namespace tr2audit::score::detail {
namespace {

constexpr std::size_t k_max_locations = 12;
constexpr std::size_t k_max_evidence = 6;

bool xla(const ScoreInput& input) {
  return input.target == TargetProfile::xla;
}

void add_location(PlanStep& step, const std::string& location) {
  if (step.locations.size() < k_max_locations &&
      std::find(step.locations.begin(), step.locations.end(), location) == step.locations.end()) {
    step.locations.push_back(location);
  }
}

void add_findings(PlanStep& step, const Findings& findings) {
  for (const auto* f : findings) {
    if (std::find(step.finding_ids.begin(), step.finding_ids.end(), f->id) == step.finding_ids.end()) {
      step.finding_ids.push_back(f->id);
    }
    add_location(step, location_of(*f));
  }
}

void add_evidence(PlanStep& step, const std::vector<report::SetupFact>& facts) {
  std::size_t added = 0;
  for (const auto& fact : facts) {
    for (const auto& where : fact.evidence) {
      if (added++ < k_max_evidence) add_location(step, where);
    }
  }
}

bool has_value(const std::vector<report::SetupFact>& facts, std::string_view value) {
  return std::any_of(facts.begin(), facts.end(), [&](const auto& f) { return f.value == value; });
}

PlanStep baseline_step(const ScoreInput& input) {
  PlanStep step;
  step.step =
      "Pin the model, data, tokenizer and optimizer versions (and the seed), then record a GPU baseline: the "
      "loss curve over a fixed number of steps and the throughput.";
  step.why =
      "Every Trainium2 result below is judged against this baseline; unpinned inputs make the comparison "
      "meaningless.";
  step.probes = {"pip freeze and the dataset/tokenizer revisions stored with the run",
                 "loss logged every step for the first few hundred steps with a fixed seed",
                 "tokens/s (or samples/s) and step time on the GPU"};
  if (input.setup != nullptr) {
    add_evidence(step, input.setup->model_family);
    add_evidence(step, input.setup->fine_tuning);
  }
  return step;
}

PlanStep template_step(const PlanTemplate& t, const Findings& matched, const ScoreInput& input) {
  PlanStep step;
  step.step = xla(input) && !t.step_xla.empty() ? t.step_xla : t.step_native;
  step.why = t.why;
  step.probes = xla(input) && !t.probes_xla.empty() ? t.probes_xla : t.probes_native;
  add_findings(step, matched);
  return step;
}

PlanStep short_job_step(const ScoreInput& input) {
  PlanStep step;
  step.step =
      "Run a short Trainium2 job (a few hundred steps, same data order and seed) and compare its loss curve "
      "with the GPU baseline.";
  step.why = "Numerical drift (bf16 without loss scaling, different kernels) shows up in the first hundreds of steps.";
  if (xla(input)) {
    step.probes = {"loss within tolerance of the GPU curve at matching steps",
                   "torch_xla metrics report (PT_XLA_DEBUG_LEVEL=2): no aten:: CPU fallbacks, one graph per step",
                   "neuron-top: NeuronCore utilisation during the steady state"};
  } else {
    step.probes = {
        "loss within tolerance of the GPU curve at matching steps",
        "no ops reported as falling back to CPU (TORCH_NEURONX_DISABLE_FALLBACK_EXECUTION=1 makes them fail)",
        "neuron-top: NeuronCore utilisation during the steady state"};
  }
  return step;
}

PlanStep resume_step(const ScoreInput& input) {
  PlanStep step;
  step.step =
      "Save a checkpoint, interrupt the job, resume from it and check that the step counter, learning-rate "
      "schedule and loss continue where they stopped.";
  step.why = "Long Trainium2 jobs get interrupted; a resume that silently restarts the optimizer wastes the run.";
  if (input.setup != nullptr) {
    add_evidence(step, input.setup->checkpointing);
    const auto& ck = input.setup->checkpointing;
    if (!has_value(ck, "resume") && !has_value(ck, "optimizer-state")) {
      step.step += " No resume path was found: save and restore model, optimizer, scheduler and step first.";
    }
  }
  step.probes = {"the first resumed step's loss matches the step after the checkpoint in an uninterrupted run",
                 xla(input) ? "checkpoints written with xm.save or xser after xm.mark_step(), loaded on CPU first"
                            : "the optimizer state round-trips (same param groups and step count)"};
  return step;
}

PlanStep outputs_step() {
  PlanStep step;
  step.step =
      "Compare the final outputs of the Trainium2 and GPU runs: evaluation loss and metrics, and sample "
      "predictions or generations on a fixed set.";
  step.why = "Matching loss curves do not guarantee matching models; the outputs are what users see.";
  step.probes = {"evaluation metrics within the agreed tolerance", "identical prompts give comparable generations"};
  return step;
}

PlanStep compile_step(const Findings& findings, const ScoreInput& input) {
  PlanStep step;
  step.step =
      "Record compile time, cache hits, effective steps and throughput of the Trainium2 run, and confirm that "
      "shapes stay fixed after warm-up.";
  step.why = "Every new shape or graph break compiles again; compile time can dominate a short job.";
  Findings dynamic;
  for (const auto* f : findings) {
    const bool relevant = f->category == Category::dynamic_shape || f->category == Category::dynamic_graph;
    if (relevant && f->severity >= Severity::medium) dynamic.push_back(f);
  }
  add_findings(step, dynamic);
  if (xla(input)) {
    step.probes = {"neuron_parallel_compile --command analyze python train.py (unsupported ops, with script lines)",
                   "neuron_parallel_compile to pre-fill the Neuron persistent cache; the real run then only hits it",
                   "compile count stays flat after the first steps (no new graphs per batch)"};
  } else {
    step.probes = {"TORCH_LOGS=graph_breaks,recompiles: no recompiles after warm-up, graph breaks understood",
                   "Neuron persistent cache (/var/tmp/neuron-compile-cache or --cache_dir) hit on the second run",
                   "steady-state tokens/s against the GPU baseline"};
  }
  return step;
}

PlanStep fallback_step(const Findings& findings, const ScoringPolicy& policy) {
  PlanStep step;
  step.step =
      "Define the GPU fallback condition: keep the GPU path runnable and switch back when the loss diverges "
      "beyond tolerance, throughput falls below the agreed share of the GPU baseline, or compile time exceeds "
      "its budget.";
  step.why = "Dual-run means GPU stays the fallback until Trainium2 has matched it on the criteria above.";
  Findings guarded;
  for (const auto* f : findings) {
    if (is_guarded(*f, policy) && f->severity >= Severity::medium) guarded.push_back(f);
  }
  add_findings(step, guarded);
  step.probes = {"the same commit trains on both GPU and Trainium2 (device selected by flag or torch.accelerator)"};
  return step;
}

}  // namespace

std::vector<PlanStep> build_plan(const Decision& decision, const Findings& findings, const ScoreInput& input,
                                 const ScoringPolicy& policy) {
  std::vector<PlanStep> plan;
  plan.push_back(baseline_step(input));
  std::set<const rules::Finding*> planned;
  for (const auto& t : policy.plan) {
    Findings matched;
    for (const auto* f : matching(t.select, findings, policy)) {
      if (counts(*f) && planned.insert(f).second) matched.push_back(f);
    }
    if (!matched.empty()) plan.push_back(template_step(t, matched, input));
  }
  plan.push_back(short_job_step(input));
  plan.push_back(resume_step(input));
  plan.push_back(outputs_step());
  plan.push_back(compile_step(findings, input));
  if (decision.verdict == Verdict::dual_run) plan.push_back(fallback_step(findings, policy));
  return plan;
}

}  // namespace tr2audit::score::detail
