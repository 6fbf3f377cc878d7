// The text report's decision sections: verdict line, reasons, the drivers, per-entry-point verdicts,
// flip, plan, category scores, operators and training setup. Long sentences wrap at the width.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "text_style.hpp"
#include "tr2audit/core/text.hpp"

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

std::string plural(std::size_t count, std::string_view noun) {
  return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

std::string wrap(std::string_view text, std::size_t width, std::string_view first, std::string_view rest) {
  std::string out(first);
  std::size_t column = count_code_points(first);
  bool line_empty = true;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t end = std::min(text.find(' ', i), text.size());
    const std::string_view word = text.substr(i, end - i);
    i = end + 1;
    if (word.empty()) continue;
    const std::size_t len = count_code_points(word);
    if (!line_empty && column + 1 + len > width) {
      out.append("\n").append(rest);
      column = count_code_points(rest);
      line_empty = true;
    }
    if (!line_empty) {
      out.push_back(' ');
      ++column;
    }
    out.append(word);
    column += len;
    line_empty = false;
  }
  return out + "\n";
}

namespace {

constexpr std::size_t k_max_locations = 5;
constexpr std::size_t k_default_reasons = 2;    // reasons shown without --all
constexpr std::size_t k_default_entries = 5;    // entry-point and project verdicts shown without --all
constexpr std::size_t k_default_operators = 5;  // operators listed without --all

/// "text" cut to `width` code points at a word boundary, with "…".
std::string fit(const std::string& text, std::size_t width) {
  if (count_code_points(text) <= width) return text;
  std::string out;
  for (std::size_t i = 0, cps = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if ((byte & 0xC0) != 0x80 && ++cps > width - 1) break;
    out.push_back(text[i]);
  }
  const auto space = out.rfind(' ');
  if (space != std::string::npos && space > out.size() / 2) out.resize(space);
  return out + "…";
}

/// Parts joined with " · " within `width` code points: whole parts while they fit, then the next part cut
/// with "…" only when enough of it shows to mean something; never a dangling "·…".
std::string fit_parts(const std::vector<std::string>& parts, std::size_t width) {
  constexpr std::size_t k_min_shown = 16;
  std::string out;
  for (const auto& part : parts) {
    if (part.empty()) continue;
    const std::string sep = out.empty() ? "" : " · ";
    const std::size_t used = count_code_points(out) + count_code_points(sep);
    if (used + count_code_points(part) <= width) {
      out += sep + part;
      continue;
    }
    if (used + k_min_shown <= width) out += sep + fit(part, width - used);
    break;
  }
  return out;
}

void render_plan(const std::vector<score::PlanStep>& plan, const RenderOptions& options, const Palette& p,
                 std::ostream& out) {
  if (plan.empty()) return;
  out << "\n" << p.bold("Migration plan") << "\n";
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const score::PlanStep& step = plan[i];
    const std::string number = std::to_string(i + 1) + ". ";
    if (options.all) {
      out << wrap(step.step, options.width, "  " + number, std::string(2 + number.size(), ' '));
    } else {  // one line per step; --all gives the whole sentence, why and probes
      out << "  " << number
          << fit(step.step, options.width > number.size() + 2 ? options.width - number.size() - 2 : 20) << "\n";
    }
    const std::string indent(2 + number.size(), ' ');
    if (options.all && !step.why.empty()) out << indent << p.dim(step.why) << "\n";
    if (!step.locations.empty()) out << indent << "at " << join_limited(step.locations, k_max_locations) << "\n";
    if (options.all) {
      for (const auto& probe : step.probes) out << indent << "probe: " << probe << "\n";
    }
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

void render_reasons(const Report& report, const RenderOptions& options, const Palette& p, std::ostream& out) {
  if (!report.recommendation || report.recommendation->reasons.empty()) return;
  const auto& reasons = report.recommendation->reasons;
  out << "\n" << p.bold("Why") << "\n";
  const std::size_t shown = options.all ? reasons.size() : std::min(reasons.size(), k_default_reasons);
  for (std::size_t i = 0; i < shown; ++i) {
    const auto& ids = reasons[i].finding_ids;
    const std::string suffix = ids.empty() ? "" : " [" + join_limited(ids, 6) + "]";
    out << wrap(reasons[i].text + suffix, options.width, "  - ", "    ");
  }
  if (shown < reasons.size())
    out << "    " << p.dim("(+" + plural(reasons.size() - shown, "more reason") + ": --all)") << "\n";
}

void render_drivers(const Report& report, const RenderOptions& options, const Palette& p, std::ostream& out) {
  if (!report.recommendation || report.recommendation->drivers.empty()) return;
  out << "\n" << p.bold("What drives the verdict") << "\n";
  std::size_t n = 0;
  for (const auto& d : report.recommendation->drivers) {
    const std::string head = std::to_string(++n) + ". ";
    const std::vector<std::string> parts{std::string(to_string(d.severity)) + " " + d.rule_id,
                                         plural(d.finding_ids.size(), "finding"),
                                         d.decides ? "decides the verdict" : "", d.code};
    const std::string indent(2 + head.size(), ' ');
    const std::size_t room = options.width > indent.size() + 20 ? options.width - indent.size() : 20;
    if (options.all) {
      out << wrap(fit_parts(parts, SIZE_MAX), options.width, "  " + head, indent);
    } else {  // two lines per driver by default
      out << "  " << head << fit_parts(parts, room) << "\n";
    }
    std::vector<std::string> places;  // one per line: two findings on one line are one place to change
    for (const auto& location : d.locations) {
      if (std::find(places.begin(), places.end(), location) == places.end()) places.push_back(location);
    }
    const std::vector<std::string> where{"at " + join_limited(places, 2), d.entry.empty() ? "" : "via " + d.entry};
    if (options.all) {
      out << wrap(fit_parts(where, SIZE_MAX), options.width, indent, indent + "  ");
    } else {
      out << indent << fit_parts(where, room) << "\n";
    }
  }
}

void render_entry_verdicts(const Report& report, const RenderOptions& options, const Palette& p, std::ostream& out) {
  if (!report.entry_verdicts.empty()) {
    out << "\n" << p.bold("Training entry points") << " (each judged on the code it reaches; lowest first)\n";
    std::vector<const EntryVerdict*> order;
    for (const auto& e : report.entry_verdicts) order.push_back(&e);
    std::stable_sort(order.begin(), order.end(),
                     [](const EntryVerdict* a, const EntryVerdict* b) { return a->readiness < b->readiness; });
    const std::size_t shown = options.all ? order.size() : std::min(order.size(), k_default_entries);
    for (std::size_t i = 0; i < shown; ++i) {
      const EntryVerdict& e = *order[i];
      const std::string head = "  " + e.entry + ": " + std::string(score::to_string(e.verdict)) + " · " +
                               std::to_string(e.readiness) + "/100";
      const std::size_t used = count_code_points(head) + 3;
      // Too little room left for the reason: leave it out (--all shows it) rather than overflow the line.
      const std::string reason = options.all                 ? e.reason
                                 : used + 20 > options.width ? std::string()
                                                             : fit(e.reason, options.width - used);
      out << "  " << e.entry << ": " << p.verdict(e.verdict) << " · " << e.readiness << "/100"
          << (reason.empty() ? "" : " · " + reason) << "\n";
    }
    if (shown < order.size())
      out << "  " << p.dim("(+" + plural(order.size() - shown, "more entry point") + ": --all)") << "\n";
  }
  if (!report.projects.empty()) {
    out << "\n" << p.bold("Projects") << "\n";
    const std::size_t shown =
        options.all ? report.projects.size() : std::min(report.projects.size(), k_default_entries);
    for (std::size_t i = 0; i < shown; ++i) {
      const auto& project = report.projects[i];
      out << "  " << project.project << ": " << p.verdict(project.verdict) << " · readiness " << project.readiness
          << "/100 · confidence " << to_string(project.confidence) << "\n";
    }
    if (shown < report.projects.size())
      out << "  " << p.dim("(+" + plural(report.projects.size() - shown, "more project") + ": --all)") << "\n";
  }
}

void render_assessment(const Report& report, const RenderOptions& options, const Palette& p, std::ostream& out) {
  if (!report.recommendation) return;
  const score::Assessment& a = *report.recommendation;
  if (!a.flip.empty()) {
    out << "\n" << p.bold("What would change the verdict") << "\n";
    for (const auto& flip : a.flip) out << wrap(flip, options.width, "  - ", "    ");
  }
  render_plan(a.plan, options, p, out);
  render_categories(a.categories, p, out);
  if (options.all && !a.effort_assumptions.empty()) out << wrap(a.effort_assumptions, options.width, "  ", "  ");
}

void render_operators(const OperatorSummary& ops, const RenderOptions& options, const Palette& p, std::ostream& out) {
  if (ops.distinct == 0) return;
  out << "\n"
      << p.bold("Operators") << ": " << ops.distinct << " distinct · " << ops.supported << " supported, " << ops.caveat
      << " caveat, " << ops.replace << " replace, " << ops.unsupported << " unsupported, " << ops.unknown << " unknown";
  if (!ops.neuron_sdk.empty()) out << p.dim(enclose(" (Neuron SDK ", ops.neuron_sdk + ", checked " + ops.checked, ")"));
  out << "\n";
  std::size_t listed = 0, hidden = 0;
  for (const auto& op : ops.ops) {
    if (op.status != "unsupported" && op.status != "replace" && op.status != "caveat") continue;
    if (!options.all && listed == k_default_operators) {
      ++hidden;
      continue;
    }
    ++listed;
    const std::string status = op.status == "caveat" ? p.paint(op.status, "33") : p.paint(op.status, "31");
    out << "  " << status << " " << p.bold(op.name) << " · " << op.calls << " call" << (op.calls == 1 ? "" : "s");
    if (!op.first_location.empty()) out << " · first at " << op.first_location;
    out << "\n";
    if (options.all && !op.note.empty()) out << "      " << p.dim(op.note) << "\n";
    if (options.all && !op.alternative.empty()) out << "      instead: " << op.alternative << "\n";
  }
  if (hidden) out << "  " << p.dim("(+" + plural(hidden, "more operator") + ": --all)") << "\n";
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
