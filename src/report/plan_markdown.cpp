// The pilot request as Markdown (`tr2audit plan --format markdown`): the same content as the YAML
// request, as tables a platform team reads in a ticket or pull request.
#include "plan_common.hpp"
#include "renderers.hpp"

namespace tr2audit::report {
namespace {

/// Table-safe inline text.
std::string cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|' || c == '`' || c == '*' || c == '_' || c == '[' || c == ']' || c == '\\') out += '\\';
    if (c == '\n') c = ' ';
    if (c == '<') {
      out += "&lt;";
      continue;
    }
    out += c;
  }
  return out;
}

std::string code(std::string_view where) {
  return where.empty() ? "" : "`" + std::string(where) + "`";
}

void fields(const Report& report, std::ostream& out) {
  out << "## Fields\n\n| field | value | where |\n|---|---|---|\n";
  for (const auto& field : report.pilot.fields) {
    const std::string name(pilot::to_string(field.field));
    if (field.found.empty()) {
      out << "| " << cell(name) << " | **not found**: " << cell(field.hint) << " | |\n";
      continue;
    }
    for (std::size_t i = 0; i < field.found.size(); ++i) {
      const auto& ev = field.found[i];
      out << "| " << (i == 0 ? cell(name) : "") << " | " << cell(ev.name) << " = " << cell(ev.value) << " | "
          << code(ev.where) << " |\n";
    }
  }
  out << "| output difference accepted | **not found**: state the evaluation difference from the GPU run you accept"
      << " | |\n\n";
}

void burden(const pilot::CompileBurden& b, std::ostream& out) {
  out << "## Compile burden\n\n**" << cell(pilot::to_string(b.bound)) << "**: " << cell(b.summary) << "\n\n";
  if (!b.proposed_buckets.empty()) {
    out << "Proposed buckets (pad each batch up to the next one):";
    for (std::size_t i = 0; i < b.proposed_buckets.size(); ++i) out << (i ? ", " : " ") << b.proposed_buckets[i];
    out << "\n\n";
  }
  out << "Assumptions:\n\n";
  for (const auto& a : b.assumptions) out << "- " << cell(a) << "\n";
  if (!b.sources.empty()) {
    out << "\nShape sources:\n\n";
    for (const auto& s : b.sources) out << "- `" << s << "`\n";
  }
  out << "\n";
}

void checks(const Report& report, std::ostream& out) {
  out << "## Platform checks\n\n| check | status | detail | where |\n|---|---|---|---|\n";
  for (const auto& check : report.pilot.checks) {
    std::string where;
    for (const auto& w : check.where) where += (where.empty() ? "" : " ") + code(w);
    out << "| " << check.id << " | " << pilot::to_string(check.status) << " | " << cell(check.detail) << " | " << where
        << " |\n";
  }
  out << "\n";
}

void record(const Report& report, std::ostream& out) {
  out << "## Comparison record\n\nWhat the code already logs for the run record (`tr2audit plan --record-template`):"
      << "\n\n| record field | logged at |\n|---|---|\n";
  for (const auto& field : report.pilot.logged) {
    std::string where;
    for (const auto& w : field.where) where += (where.empty() ? "" : " ") + code(w);
    out << "| " << field.record_field << " | " << (where.empty() ? "not logged yet" : where) << " |\n";
  }
  out << "\nTolerances `tr2audit compare` checks (inferred defaults; confirm them):\n\n";
  for (const auto& t : plan::default_tolerances())
    out << "- `" << t.name << "`: " << t.value << " (" << t.meaning << ")\n";
  out << "\n";
}

void steps(const Report& report, std::ostream& out) {
  out << "## Plan steps\n\n";
  if (!report.recommendation || report.recommendation->plan.empty()) {
    out << "None.\n\n";
    return;
  }
  std::size_t n = 0;
  for (const auto& step : report.recommendation->plan) {
    out << ++n << ". " << cell(step.step);
    if (!step.locations.empty()) out << " (" << code(step.locations.front()) << ")";
    out << "\n";
  }
  out << "\n";
}

}  // namespace

void render_plan_markdown(const Report& report, const RenderOptions&, std::ostream& out) {
  out << "# Trainium2 pilot request: " << cell(report.scan.root) << "\n\n";
  out << "**Verdict:** " << cell(plan::verdict_text(report)) << "\n\n";
  if (!report.training_entries.empty()) {
    out << "**Training entry points:**";
    for (const auto& e : report.training_entries) out << " " << code(e.name);
    out << "\n\n";
  }
  fields(report, out);
  out << "## Fall back to GPU when\n\n";
  for (const auto& c : plan::fallback_conditions(report)) out << "- " << cell(c) << "\n";
  out << "\n";
  steps(report, out);
  burden(report.pilot.burden, out);
  checks(report, out);
  record(report, out);
}

}  // namespace tr2audit::report
