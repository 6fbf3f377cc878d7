// The text report's decision sections: verdict line, reasons, flip, plan, category scores,
// per-project verdicts, operators and training setup.
#include <algorithm>
#include <string>
#include <utility>

#include "text_style.hpp"

namespace tr2audit::report::text {

std::string Palette::paint(std::string_view text, std::string_view code) const {
  return m_on ? "\x1b[" + std::string(code) + "m" + std::string(text) + "\x1b[0m" : std::string(text);
}

std::string Palette::severity(Severity severity) const {
  const std::string_view name = to_string(severity);
  switch (severity) {
    case Severity::blocker:
      return paint(name, "1;31");
    case Severity::high:
      return paint(name, "31");
    case Severity::medium:
      return paint(name, "33");
    case Severity::low:
      return paint(name, "36");
    case Severity::info:
      return paint(name, "32");
  }
  return std::string(name);
}

std::string Palette::verdict(score::Verdict verdict) const {
  const std::string_view name = score::to_string(verdict);
  switch (verdict) {
    case score::Verdict::gpu_keep:
      return paint(name, "1;31");
    case score::Verdict::dual_run:
      return paint(name, "1;33");
    case score::Verdict::trainium2_pilot:
      return paint(name, "1;32");
  }
  return std::string(name);
}

std::string enclose(std::string_view open, std::string_view text, std::string_view close) {
  std::string out;
  out.reserve(open.size() + text.size() + close.size());
  out.append(open).append(text).append(close);
  return out;
}

std::string join_limited(const std::vector<std::string>& items, std::size_t max) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < max; ++i) out += (i ? ", " : "") + items[i];
  if (items.size() > max) out += ", +" + std::to_string(items.size() - max) + " more";
  return out;
}

namespace {

constexpr std::size_t k_max_locations = 5;

std::string ids_suffix(const std::vector<std::string>& ids, const Palette& p) {
  return ids.empty() ? std::string() : enclose(" ", p.dim(enclose("[", join_limited(ids, 6), "]")), "");
}

void render_plan(const std::vector<score::PlanStep>& plan, const Palette& p, std::ostream& out) {
  if (plan.empty()) return;
  out << "\n" << p.bold("Migration plan") << "\n";
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const score::PlanStep& step = plan[i];
    out << "  " << i + 1 << ". " << step.step << ids_suffix(step.finding_ids, p) << "\n";
    if (!step.why.empty()) out << "     " << p.dim(step.why) << "\n";
    if (!step.locations.empty()) out << "     at " << join_limited(step.locations, k_max_locations) << "\n";
    for (const auto& probe : step.probes) out << "     probe: " << probe << "\n";
  }
}

void render_categories(const std::vector<score::CategoryScore>& categories, const Palette& p, std::ostream& out) {
  if (categories.empty()) return;
  out << "\n" << p.bold("By category") << " (score out of 100, estimated effort)\n";
  for (const auto& c : categories) {
    std::string name(to_string(c.category));
    name.resize(std::max<std::size_t>(name.size(), 18), ' ');
    out << "  " << name << " "
        << (c.score < 10    ? "  "
            : c.score < 100 ? " "
                            : "")
        << c.score << "  " << c.findings << " finding" << (c.findings == 1 ? "" : "s") << ", effort "
        << score::to_string(c.effort);
    if (!c.engineer_days.empty() && c.engineer_days != "0") out << " (" << c.engineer_days << " engineer-days)";
    out << "\n";
  }
}

}  // namespace

void render_verdict_line(const Report& report, const Palette& p, std::ostream& out) {
  if (!report.recommendation) {
    out << p.bold("Verdict: ") << "none · no Python code was scanned, so there is no training code to judge\n";
    return;
  }
  const score::Assessment& a = *report.recommendation;
  out << p.bold("Verdict: ") << p.verdict(a.verdict) << " · readiness " << p.bold(std::to_string(a.readiness))
      << "/100 · confidence " << to_string(a.confidence) << "\n";
}

void render_assessment(const Report& report, const Palette& p, std::ostream& out) {
  if (!report.recommendation) return;
  const score::Assessment& a = *report.recommendation;
  if (!a.reasons.empty()) {
    out << "\n" << p.bold("Why") << "\n";
    for (const auto& reason : a.reasons) out << "  - " << reason.text << ids_suffix(reason.finding_ids, p) << "\n";
  }
  if (!a.flip.empty()) {
    out << "\n" << p.bold("What would change the verdict") << "\n";
    for (const auto& flip : a.flip) out << "  - " << flip << "\n";
  }
  render_plan(a.plan, p, out);
  render_categories(a.categories, p, out);
  if (!a.effort_assumptions.empty()) out << "  " << p.dim(a.effort_assumptions) << "\n";
  if (!report.projects.empty()) {
    out << "\n" << p.bold("Projects") << "\n";
    for (const auto& project : report.projects) {
      out << "  " << project.project << ": " << p.verdict(project.verdict) << " · readiness " << project.readiness
          << "/100 · confidence " << to_string(project.confidence) << "\n";
    }
  }
}

void render_operators(const OperatorSummary& ops, const Palette& p, std::ostream& out) {
  if (ops.distinct == 0) return;
  out << "\n"
      << p.bold("Operators") << ": " << ops.distinct << " distinct · " << ops.supported << " supported, " << ops.caveat
      << " caveat, " << ops.replace << " replace, " << ops.unsupported << " unsupported, " << ops.unknown << " unknown";
  if (!ops.neuron_sdk.empty()) out << p.dim(enclose(" (Neuron SDK ", ops.neuron_sdk + ", checked " + ops.checked, ")"));
  out << "\n";
  for (const auto& op : ops.ops) {
    if (op.status != "unsupported" && op.status != "replace" && op.status != "caveat") continue;
    const std::string status = op.status == "caveat" ? p.paint(op.status, "33") : p.paint(op.status, "31");
    out << "  " << status << " " << p.bold(op.name) << " · " << op.calls << " call" << (op.calls == 1 ? "" : "s");
    if (!op.first_location.empty()) out << " · first at " << op.first_location;
    out << "\n";
    if (!op.note.empty()) out << "      " << p.dim(op.note) << "\n";
    if (!op.alternative.empty()) out << "      instead: " << op.alternative << "\n";
  }
}

void render_setup(const TrainingSetup& setup, const Palette& p, std::ostream& out) {
  const std::pair<std::string_view, const std::vector<SetupFact>*> rows[] = {
      {"fine-tuning", &setup.fine_tuning}, {"model family", &setup.model_family},   {"precision", &setup.precision},
      {"parallelism", &setup.parallelism}, {"checkpointing", &setup.checkpointing}, {"frameworks", &setup.frameworks}};
  bool any = false;
  for (const auto& [name, facts] : rows) any = any || !facts->empty();
  if (!any) return;
  out << "\n" << p.bold("Training setup") << "\n";
  for (const auto& [name, facts] : rows) {
    if (facts->empty()) continue;
    std::string label(name);
    label.resize(14, ' ');
    out << "  " << label;
    for (std::size_t i = 0; i < facts->size(); ++i) {
      const SetupFact& fact = (*facts)[i];
      out << (i ? "; " : "") << fact.value;
      if (!fact.evidence.empty()) out << " " << p.dim(enclose("(", join_limited(fact.evidence, 3), ")"));
    }
    out << "\n";
  }
}

}  // namespace tr2audit::report::text
