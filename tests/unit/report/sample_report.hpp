// A hand-built Report that sets every field the renderers read (recommendation, projects,
// operators, setup, suppressed and notebook findings, problems, tricky text), for the report tests.
#pragma once
#include <sstream>
#include <string>

#include "tr2audit/report/report.hpp"

namespace tr2audit::report::testing {

inline rules::Finding sample_finding(std::string id, std::string rule_id, Severity severity, std::string path,
                                     std::uint32_t line, std::uint32_t column) {
  rules::Finding f;
  f.id = std::move(id);
  f.rule_id = std::move(rule_id);
  f.category = Category::cuda_api;
  f.severity = severity;
  f.confidence = Confidence::high;
  f.message = "Device string \"cuda\" pins tensors to an NVIDIA GPU";
  f.path = std::move(path);
  f.at = Span{line, column, line, column + 6, 0, 0};
  f.function = "Trainer.train_step";
  f.klass = "Trainer";
  f.region = facts::Region::training_step;
  f.snippet = "batch = batch.to(\"cuda\")";
  f.snippet_column = 18;  // the opening quote of "cuda"
  f.subject = "cuda";
  f.fingerprint = "0123456789abcdef";
  return f;
}

inline Report sample_report() {
  Report r;
  r.run = RunInfo{"<version>", "<version>", "1970-01-01T00:00:00Z", 0};
  r.scan.root = "examples/demo";
  r.scan.files_scanned = 3;
  r.scan.lines = 120;
  r.scan.files_by_kind = {{"python", 2}, {"notebook", 1}};
  r.findings.push_back(sample_finding("F0001", "cuda-api.cuda-device-literal", Severity::high, "train.py", 12, 19));
  rules::Finding ext =
      sample_finding("F0002", "cuda-extension.cuda-extension-jit-build", Severity::blocker, "my dir/ops é.py", 3, 8);
  ext.category = Category::cuda_extension;
  ext.message = "Kernel built at runtime </script><!-- & | *bold*";
  ext.snippet = "ops = load(name=\"fused\", sources=[\"k.cu\"])  # </script>";
  ext.snippet_column = 7;
  ext.at = Span{3, 8, 4, 2, 0, 0};
  r.findings.push_back(ext);
  rules::Finding cell = sample_finding("F0003", "dynamic-graph.item-in-training-step", Severity::medium,
                                       "notebooks/explore.ipynb", 40, 5);
  cell.category = Category::dynamic_graph;
  cell.cell = CellLocation{4, 2};
  cell.snippet = "loss.item()";
  cell.snippet_column = 1;
  cell.guards = facts::guard_bit(facts::Guard::periodic);
  r.findings.push_back(cell);
  rules::Finding quiet = sample_finding("F0004", "cuda-api.cuda-device-literal", Severity::low, "train.py", 30, 1);
  quiet.suppressed = rules::Suppression{"CPU fallback path, kept on purpose", "2027-01-31"};
  r.findings.push_back(quiet);
  r.problems.push_back(Problem{ProblemKind::syntax_errors, "broken.py", 7, 3, "syntax error near 'def'"});
  r.rules.push_back(RuleInfo{"cuda-api.cuda-device-literal",
                             "Hard-coded CUDA device",
                             "cuda-api",
                             "high",
                             "high",
                             "The device string pins tensors to a GPU",
                             "Use torch.device(\"neuron\")",
                             {"https://awsdocs-neuron.readthedocs-hosted.com/"}});
  r.rules.push_back(RuleInfo{"cuda-extension.cuda-extension-jit-build",
                             "CUDA extension compiled at runtime",
                             "cuda-extension",
                             "blocker",
                             "high",
                             "nvcc builds for CUDA only",
                             "Port to NKI",
                             {}});
  r.rules.push_back(RuleInfo{"dynamic-graph.item-in-training-step",
                             ".item() in the training step",
                             "dynamic-graph",
                             "medium",
                             "medium",
                             "A host sync per step",
                             "Log every N steps",
                             {}});
  r.operators.table_version = "2026.11";
  r.operators.neuron_sdk = "2.27";
  r.operators.checked = "2026-11-20";
  r.operators.distinct = 3;
  r.operators.supported = 1;
  r.operators.caveat = 1;
  r.operators.unsupported = 1;
  r.operators.ops = {OperatorUse{"torch.nonzero", "unsupported", "data-dependent output shape",
                                 "torch.where with a mask", "ops.md", false, false, 3, "train.py:44"},
                     OperatorUse{"torch.sort", "caveat", "falls back to CPU for large inputs", "", "ops.md", true, true,
                                 1, "model.py:9"},
                     OperatorUse{"torch.matmul", "supported", "", "", "ops.md", false, false, 12, "model.py:20"}};
  r.setup.fine_tuning = {SetupFact{"lora", {"train.py:5", "train.py:60"}}};
  r.setup.precision = {SetupFact{"bf16", {"train.py:70"}}};
  r.setup.frameworks = {SetupFact{"hf-trainer", {}}};
  score::Assessment a;
  a.verdict = score::Verdict::dual_run;
  a.readiness = 62;
  a.confidence = Confidence::medium;
  a.reasons = {score::Reason{"A CUDA extension is built at runtime.", {"F0002"}},
               score::Reason{"Training code pins tensors to cuda.", {"F0001"}}};
  a.flip = {"Port the fused kernel to NKI or plain PyTorch -> trainium2-pilot"};
  a.plan = {score::PlanStep{"Replace the runtime-built CUDA extension",
                            "nvcc output cannot run on Neuron",
                            {"F0002"},
                            {"my dir/ops é.py:3"},
                            {"Run one step on CPU to find the fallback path"}},
            score::PlanStep{"Make the device configurable", "", {"F0001"}, {"train.py:12"}, {}}};
  a.categories = {score::CategoryScore{Category::cuda_extension, 20, 1, score::Effort::high, "5-15"},
                  score::CategoryScore{Category::cuda_api, 80, 1, score::Effort::low, "1-3"}};
  a.effort_assumptions = "One engineer who knows the code base.";
  r.recommendation = a;
  score::Assessment project = a;
  project.project = "services/trainer";
  project.verdict = score::Verdict::trainium2_pilot;
  project.readiness = 85;
  r.projects.push_back(project);
  return r;
}

/// The sample report under a baseline and a PR diff with a failed gate: F0002 is new and on a changed
/// line, F0001 and F0003 are recorded in the baseline, F0004 stays suppressed.
inline Report gated_sample_report() {
  Report r = sample_report();
  r.gate.emplace();
  r.gate->baseline = BaselineSummary{
      ".tr2audit-baseline.json", 1, 2, {RecordedFinding{"feed", "cuda-api.cuda-method", "old.py", 9, "x.cuda()"}}};
  DiffSummary diff;
  diff.ref = "origin/main";
  diff.merge_base = "0123456789abcdef0123456789abcdef01234567";
  diff.changed_files = 2;
  diff.added = {{Severity::blocker, 1}};
  diff.removed = {{Severity::high, 1}};
  diff.removed_findings = {
      RecordedFinding{"beef", "cuda-api.cuda-synchronize", "loop.py", 3, "torch.cuda.synchronize()"}};
  diff.base_verdict = score::Verdict::trainium2_pilot;
  diff.base_readiness = 81;
  r.gate->diff = diff;
  r.gate->criteria_given = true;
  r.gate->status = GateStatus::failed;
  r.gate->reasons = {"1 finding at or above blocker (--fail-on blocker), first: my dir/ops é.py:3"};
  for (auto& f : r.findings) {
    f.gate.baseline = f.id == "F0002" ? rules::BaselineState::new_finding : rules::BaselineState::unchanged;
    f.gate.in_diff = f.id == "F0002";
  }
  return r;
}

/// Renders with a format's function into a string.
inline std::string render_to_string(RenderFn render, const Report& report, RenderOptions options = {}) {
  std::ostringstream out;
  render(report, options, out);
  return out.str();
}

}  // namespace tr2audit::report::testing
