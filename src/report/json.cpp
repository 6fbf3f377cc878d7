// The JSON report: architecture.md §11, schema docs/report.schema.json. Keys are written in a fixed
// order (ordered_json) so the same report is always the same bytes; new keys are only ever added.
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "renderers.hpp"
#include "tr2audit/report/report.hpp"
#include "tr2audit/rules/match.hpp"

namespace tr2audit::report {
namespace {

using Json = nlohmann::ordered_json;

Json null_if_empty(const std::string& text) {
  return text.empty() ? Json(nullptr) : Json(text);
}

Json scan_json(const ScanInfo& scan, const RunInfo& run) {
  Json git = nullptr;
  if (scan.git) git = Json{{"commit", scan.git->commit}, {"branch", scan.git->branch}};
  Json kinds = Json::object();
  for (const auto& [kind, count] : scan.files_by_kind) kinds[kind] = count;
  return Json{{"root", scan.root},
              {"git", git},
              {"started_at", run.started_at},
              {"duration_ms", run.duration_ms},
              {"files",
               {{"scanned", scan.files_scanned},
                {"skipped", scan.files_skipped},
                {"with_syntax_errors", scan.files_with_syntax_errors},
                {"by_kind", kinds}}},
              {"lines", scan.lines},
              {"training_lines", scan.training_lines}};
}

Json assessment_json(const score::Assessment& a, bool with_project) {
  Json reasons = Json::array();
  for (const auto& r : a.reasons) reasons.push_back(Json{{"text", r.text}, {"finding_ids", r.finding_ids}});
  Json plan = Json::array();
  for (const auto& s : a.plan) {
    plan.push_back(Json{{"step", s.step},
                        {"why", s.why},
                        {"finding_ids", s.finding_ids},
                        {"locations", s.locations},
                        {"probes", s.probes}});
  }
  Json categories = Json::array();
  for (const auto& c : a.categories) {
    categories.push_back(Json{{"category", std::string(to_string(c.category))},
                              {"score", c.score},
                              {"findings", c.findings},
                              {"effort", std::string(score::to_string(c.effort))},
                              {"engineer_days", c.engineer_days}});
  }
  Json out = Json::object();
  if (with_project) out["project"] = a.project;
  out["verdict"] = std::string(score::to_string(a.verdict));
  out["readiness"] = a.readiness;
  out["confidence"] = std::string(to_string(a.confidence));
  out["reasons"] = reasons;
  out["flip"] = a.flip;
  out["plan"] = plan;
  out["categories"] = categories;
  out["effort_assumptions"] = a.effort_assumptions;
  Json drivers = Json::array();
  for (const auto& d : a.drivers) {
    drivers.push_back(Json{{"rule_id", d.rule_id},
                           {"category", std::string(to_string(d.category))},
                           {"severity", std::string(to_string(d.severity))},
                           {"decides", d.decides},
                           {"penalty", std::round(d.penalty * 10) / 10},
                           {"problems", d.problems},
                           {"finding_ids", d.finding_ids},
                           {"locations", d.locations},
                           {"code", d.code},
                           {"entry", d.entry.empty() ? Json(nullptr) : Json(d.entry)}});
  }
  out["drivers"] = drivers;
  return out;
}

Json operators_json(const OperatorSummary& ops) {
  Json rows = Json::array();
  for (const auto& op : ops.ops) {
    rows.push_back(Json{{"name", op.name},
                        {"status", op.status},
                        {"note", op.note},
                        {"alternative", op.alternative},
                        {"source", op.source},
                        {"inferred", op.inferred},
                        {"method_only", op.method_only},
                        {"calls", op.calls},
                        {"first_location", op.first_location}});
  }
  return Json{{"table_version", ops.table_version},
              {"neuron_sdk", ops.neuron_sdk},
              {"checked", ops.checked},
              {"distinct", ops.distinct},
              {"supported", ops.supported},
              {"caveat", ops.caveat},
              {"replace", ops.replace},
              {"unsupported", ops.unsupported},
              {"unknown", ops.unknown},
              {"ops", rows}};
}

Json setup_facts_json(const std::vector<SetupFact>& facts) {
  Json out = Json::array();
  for (const auto& fact : facts) out.push_back(Json{{"value", fact.value}, {"evidence", fact.evidence}});
  return out;
}

Json setup_json(const TrainingSetup& setup) {
  return Json{
      {"fine_tuning", setup_facts_json(setup.fine_tuning)},     {"model_family", setup_facts_json(setup.model_family)},
      {"precision", setup_facts_json(setup.precision)},         {"parallelism", setup_facts_json(setup.parallelism)},
      {"checkpointing", setup_facts_json(setup.checkpointing)}, {"frameworks", setup_facts_json(setup.frameworks)}};
}

Json finding_base_json(const rules::Finding& f) {
  Json location{{"path", f.path},
                {"line", f.at.line},
                {"column", f.at.column},
                {"end_line", f.at.end_line},
                {"end_column", f.at.end_column},
                {"cell", f.cell.cell ? Json(f.cell.cell) : Json(nullptr)}};
  if (f.cell.cell) location["cell_line"] = f.cell.line;
  Json suppressed = nullptr;
  if (f.suppressed) suppressed = Json{{"reason", f.suppressed->reason}, {"until", null_if_empty(f.suppressed->until)}};
  return Json{{"id", f.id},
              {"rule_id", f.rule_id},
              {"category", std::string(to_string(f.category))},
              {"severity", std::string(to_string(f.severity))},
              {"confidence", std::string(to_string(f.confidence))},
              {"message", f.message},
              {"subject", f.subject},
              {"location", location},
              {"snippet", f.snippet},
              {"context",
               {{"function", null_if_empty(f.function)},
                {"class", null_if_empty(f.klass)},
                {"region", f.region ? std::string(facts::to_string(*f.region)) : std::string()},
                {"roles", program::role_names(f.roles)},
                {"reached_from", null_if_empty(f.reached_from)},
                {"training_reached", f.training_reached},
                {"guarded_by", rules::guard_names(f.guards)},
                {"opt_in", null_if_empty(f.opt_in)},
                {"in_syntax_error", f.in_error_region}}},
              {"off_training_path", f.off_training_path},
              {"fingerprint", f.fingerprint},
              {"suppressed", suppressed}};
}

Json rule_json(const RuleInfo& rule) {
  return Json{{"id", rule.id},
              {"title", rule.title},
              {"category", rule.category},
              {"severity", rule.severity},
              {"confidence", rule.confidence},
              {"why", rule.why},
              {"fix", rule.fix},
              {"sources", rule.sources}};
}

Json recorded_json(const RecordedFinding& e) {
  return Json{{"fingerprint", e.fingerprint},
              {"rule_id", e.rule_id},
              {"path", e.path},
              {"line", e.line},
              {"message", e.message}};
}

Json by_severity_json(const std::map<Severity, std::uint32_t>& counts) {
  Json out = Json::object();
  for (Severity s : k_all_severities) out[std::string(to_string(s))] = counts.count(s) ? counts.at(s) : 0;
  return out;
}

Json diff_json(const DiffSummary& d, const Report& report) {
  Json removed = Json::array();
  for (const auto& e : d.removed_findings) removed.push_back(recorded_json(e));
  Json readiness = nullptr;
  if (d.base_verdict && report.recommendation) {
    readiness = Json{{"base", d.base_readiness},
                     {"head", report.recommendation->readiness},
                     {"base_verdict", std::string(score::to_string(*d.base_verdict))},
                     {"head_verdict", std::string(score::to_string(report.recommendation->verdict))}};
  }
  return Json{{"base", d.ref},
              {"merge_base", d.merge_base},
              {"changed_files", d.changed_files},
              {"added", by_severity_json(d.added)},
              {"removed", by_severity_json(d.removed)},
              {"removed_findings", removed},
              {"readiness", readiness}};
}

/// The gate's top-level keys (additive: present only when a gate, baseline or diff was asked for).
void add_gate_json(const Report& report, Json& document) {
  if (!report.gate) return;
  const GateSummary& g = *report.gate;
  if (g.baseline) {
    Json fixed = Json::array();
    for (const auto& e : g.baseline->fixed) fixed.push_back(recorded_json(e));
    document["baseline"] = Json{{"file", g.baseline->file},
                                {"new", g.baseline->new_count},
                                {"fixed", fixed},
                                {"unchanged", g.baseline->unchanged_count}};
  }
  if (g.diff) document["diff"] = diff_json(*g.diff, report);
  const auto gated = std::count_if(report.findings.begin(), report.findings.end(), is_gated);
  document["gate"] =
      Json{{"status", std::string(to_string(g.status))}, {"gated_findings", gated}, {"reasons", g.reasons}};
}

Json tool_json(const Report& report) {
  const OperatorSummary& ops = report.operators;
  return Json{{"name", "tr2audit"},
              {"version", report.run.tool_version},
              {"rules_version", report.run.rules_version},
              {"op_table", {{"version", ops.table_version}, {"neuron_sdk", ops.neuron_sdk}, {"checked", ops.checked}}}};
}

}  // namespace

Json finding_json(const Report& report, const rules::Finding& finding) {
  Json out = finding_base_json(finding);
  if (!report.gate) return out;
  if (report.gate->baseline) {
    const std::string_view state = to_string(finding.gate.baseline);
    out["baseline"] = state.empty() || finding.suppressed ? Json(nullptr) : Json(std::string(state));
  }
  if (finding.gate.in_diff) out["in_diff"] = *finding.gate.in_diff;
  std::string why;
  const GateState state = gate_state(&*report.gate, finding, &why);
  out["gate"] = Json{{"state", std::string(to_string(state))}, {"why", why}};
  return out;
}

void render_json(const Report& report, const RenderOptions& /*options*/, std::ostream& out) {
  Json findings = Json::array();
  for (const auto& finding : report.findings) findings.push_back(finding_json(report, finding));
  Json problems = Json::array();
  for (const auto& p : report.problems) {
    problems.push_back(Json{{"kind", std::string(to_string(p.kind))},
                            {"path", p.path},
                            {"line", p.line ? Json(p.line) : Json(nullptr)},
                            {"message", p.message}});
  }
  Json rules = Json::array();
  for (const auto& rule : report.rules) rules.push_back(rule_json(rule));
  Json projects = Json::array();
  for (const auto& project : report.projects) projects.push_back(assessment_json(project, true));
  Json entries = Json::array();
  for (const auto& e : report.entry_verdicts) {
    entries.push_back(Json{{"entry", e.entry},
                           {"verdict", std::string(score::to_string(e.verdict))},
                           {"readiness", e.readiness},
                           {"reason", e.reason},
                           {"findings", e.findings}});
  }
  const Json summary{{"findings", report.findings.size()},
                     {"by_category", count_by_category(report)},
                     {"by_severity", count_by_severity(report)},
                     {"operators", operators_json(report.operators)}};
  Json document{
      {"schema_version", k_schema_version},
      {"tool", tool_json(report)},
      {"target", {{"profile", std::string(to_string(report.target))}}},
      {"scan", scan_json(report.scan, report.run)},
      {"recommendation", report.recommendation ? assessment_json(*report.recommendation, false) : Json(nullptr)},
      {"projects", projects},
      {"entry_points", entries},
      {"summary", summary},
      {"setup", setup_json(report.setup)},
      {"findings", findings},
      {"problems", problems},
      {"rules", rules}};
  if (report.scan.findings_capped > 0 || report.scan.files_over_facts_budget > 0) {
    // additive keys, present only when a cap of pipeline/limits was hit
    document["scan"]["findings_capped"] = report.scan.findings_capped;
    document["scan"]["files_over_facts_budget"] = report.scan.files_over_facts_budget;
  }
  add_gate_json(report, document);
  out << document.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

}  // namespace tr2audit::report
