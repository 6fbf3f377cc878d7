// SARIF 2.1.0 for GitHub code scanning and other SARIF viewers: one run, the rules that fired as
// tool.driver.rules (help links into docs/rules.md), one result per finding with a repo-relative
// URI under %SRCROOT%, code-point columns, the tr2audit fingerprint as a partial fingerprint and
// suppressions (every result says whether it is suppressed), the gate's baselineState (new/unchanged)
// and state per result. Problems become tool execution notifications.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "renderers.hpp"
#include "tr2audit/rules/match.hpp"

namespace tr2audit::report {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view k_information_uri = "https://github.com/tr2audit/tr2audit";
constexpr std::string_view k_rules_doc_uri = "https://github.com/tr2audit/tr2audit/blob/main/docs/rules.md#";
constexpr std::string_view k_schema_uri =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
constexpr std::string_view k_fingerprint_key = "tr2auditFingerprint/v1";

/// GitHub's heading anchor for "### `<rule id>`" in docs/rules.md: lower case, punctuation other
/// than '-' and '_' dropped.
std::string rules_doc_anchor(std::string_view id) {
  std::string out;
  for (char c : id) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_') out += c;
    if (c >= 'A' && c <= 'Z') out += static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

/// "cuda-api.cuda-device-literal" -> "CudaDeviceLiteral" (SARIF's rule `name` is an identifier).
std::string rule_name(std::string_view id) {
  const std::size_t dot = id.find('.');
  const std::string_view tail = dot == std::string_view::npos ? id : id.substr(dot + 1);
  std::string out;
  bool upper = true;
  for (char c : tail) {
    if (c == '-' || c == '_') {
      upper = true;
      continue;
    }
    out += upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    upper = false;
  }
  return out;
}

/// A repo-relative path as a URI reference: RFC 3986 unreserved characters and '/' stay, every
/// other byte (spaces, '%', '#', non-ASCII UTF-8) is percent-encoded.
std::string uri_reference(std::string_view path) {
  static constexpr char k_hex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    const bool keep = (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9') ||
                      byte == '-' || byte == '.' || byte == '_' || byte == '~' || byte == '/';
    if (keep) {
      out += c;
    } else {
      out += '%';
      out += k_hex[byte >> 4];
      out += k_hex[byte & 0xF];
    }
  }
  return out;
}

std::string_view level_of(Severity severity) {
  switch (severity) {
    case Severity::blocker:
    case Severity::high:
      return "error";
    case Severity::medium:
      return "warning";
    case Severity::low:
    case Severity::info:
      return "note";
  }
  return "note";
}

std::string_view level_of(std::string_view severity_name) {
  const auto severity = parse_severity(severity_name);
  return severity ? level_of(*severity) : "note";
}

/// GitHub's problem.severity for non-security rules.
std::string_view problem_severity(std::string_view severity_name) {
  const std::string_view level = level_of(severity_name);
  return level == "note" ? "recommendation" : level;
}

std::string with_period(std::string text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n')) text.pop_back();
  if (!text.empty() && text.back() != '.' && text.back() != '!' && text.back() != '?') text += '.';
  return text;
}

Json rule_json(const RuleInfo& rule) {
  std::string markdown = "**Why.** " + rule.why + "\n\n**Fix.** " + rule.fix;
  if (!rule.sources.empty()) {
    markdown += "\n\n**Sources.**";
    for (const auto& source : rule.sources) markdown += "\n- <" + source + ">";
  }
  const std::string help_text = "Why: " + rule.why + "\n\nFix: " + rule.fix;
  return Json{{"id", rule.id},
              {"name", rule_name(rule.id)},
              {"shortDescription", {{"text", with_period(rule.title)}}},
              {"fullDescription", {{"text", with_period(rule.why.empty() ? rule.title : rule.why)}}},
              {"help", {{"text", help_text}, {"markdown", markdown}}},
              {"helpUri", std::string(k_rules_doc_uri) + rules_doc_anchor(rule.id)},
              {"defaultConfiguration", {{"level", level_of(rule.severity)}}},
              {"properties",
               {{"tags", {rule.category, "trainium2"}},
                {"precision", rule.confidence},
                {"problem.severity", problem_severity(rule.severity)}}}};
}

/// The rules of the run: the report's (sorted by id) plus a bare entry for any finding whose rule
/// the report does not describe, so that every result has a valid ruleIndex.
std::vector<RuleInfo> run_rules(const Report& report) {
  std::vector<RuleInfo> out = report.rules;
  for (const auto& finding : report.findings) {
    const bool known = std::any_of(out.begin(), out.end(), [&](const RuleInfo& r) { return r.id == finding.rule_id; });
    if (known) continue;
    out.push_back(RuleInfo{finding.rule_id,
                           finding.rule_id,
                           std::string(to_string(finding.category)),
                           std::string(to_string(finding.severity)),
                           std::string(to_string(finding.confidence)),
                           "",
                           "",
                           {}});
  }
  return out;
}

Json physical_location(const std::string& path, std::uint32_t line, std::uint32_t column, std::uint32_t end_line,
                       std::uint32_t end_column) {
  Json location{{"artifactLocation", {{"uri", uri_reference(path)}, {"uriBaseId", "%SRCROOT%"}}}};
  if (line > 0) {
    Json region{{"startLine", line}};
    if (column > 0) region["startColumn"] = column;
    const std::uint32_t last_line = std::max(end_line, line);
    region["endLine"] = last_line;
    if (column > 0 && end_column > 0 && (last_line > line || end_column > column)) region["endColumn"] = end_column;
    location["region"] = region;
  }
  return Json{{"physicalLocation", location}};
}

/// The SARIF suppressions of a finding: [] when it is not suppressed (tr2audit supports suppressions,
/// so absence would mean "unknown"), one accepted in-source suppression with its reason otherwise.
Json suppressions_json(const rules::Finding& f) {
  Json out = Json::array();
  if (!f.suppressed) return out;
  std::string justification = f.suppressed->reason;
  if (!f.suppressed->until.empty()) justification += " (until " + f.suppressed->until + ")";
  out.push_back(Json{{"kind", "inSource"}, {"status", "accepted"}, {"justification", justification}});
  return out;
}

Json result_json(const Report& report, const rules::Finding& f, std::size_t rule_index) {
  Json result{
      {"ruleId", f.rule_id},
      {"ruleIndex", rule_index},
      {"level", level_of(f.severity)},
      {"message", {{"text", with_period(f.message)}}},
      {"locations", Json::array({physical_location(f.path, f.at.line, f.at.column, f.at.end_line, f.at.end_column)})},
      {"partialFingerprints", {{k_fingerprint_key, f.fingerprint}}},
      {"suppressions", suppressions_json(f)}};
  if (report.gate && report.gate->baseline && f.gate.baseline != rules::BaselineState::none)
    result["baselineState"] = f.gate.baseline == rules::BaselineState::unchanged ? "unchanged" : "new";
  Json properties{{"findingId", f.id},
                  {"severity", std::string(to_string(f.severity))},
                  {"precision", std::string(to_string(f.confidence))},
                  {"tags", {std::string(to_string(f.category))}}};
  if (f.region) properties["region"] = std::string(facts::to_string(*f.region));
  if (f.roles.any()) properties["roles"] = program::role_names(f.roles);
  if (!f.reached_from.empty()) properties["reachedFrom"] = f.reached_from;
  if (!f.opt_in.empty()) properties["optIn"] = f.opt_in;
  if (f.off_training_path) properties["offTrainingPath"] = true;
  if (!f.function.empty()) properties["function"] = f.function;
  if (report.gate) {
    std::string why;
    properties["gateState"] = std::string(to_string(gate_state(&*report.gate, f, &why)));
    if (!why.empty()) properties["gateReason"] = why;
    if (f.gate.in_diff) properties["inDiff"] = *f.gate.in_diff;
  }
  result["properties"] = properties;
  return result;
}

/// The run's gate properties: the decision and the baseline and diff counts.
Json gate_properties(const GateSummary& g) {
  Json out{{"status", std::string(to_string(g.status))}, {"reasons", g.reasons}};
  if (g.baseline) {
    out["baseline"] = Json{{"file", g.baseline->file},
                           {"new", g.baseline->new_count},
                           {"unchanged", g.baseline->unchanged_count},
                           {"fixed", g.baseline->fixed.size()}};
  }
  if (g.diff) out["diff"] = Json{{"base", g.diff->ref}, {"mergeBase", g.diff->merge_base}};
  return out;
}

Json invocation_json(const Report& report) {
  Json notifications = Json::array();
  for (const auto& p : report.problems) {
    Json note{{"level", "warning"},
              {"message", {{"text", with_period(format_problem(p))}}},
              {"descriptor", {{"id", std::string(to_string(p.kind))}}}};
    if (!p.path.empty()) note["locations"] = Json::array({physical_location(p.path, p.line, p.column, p.line, 0)});
    notifications.push_back(note);
  }
  Json invocation{{"executionSuccessful", true}};
  if (!report.run.started_at.empty()) invocation["startTimeUtc"] = report.run.started_at;
  if (!notifications.empty()) invocation["toolExecutionNotifications"] = notifications;
  return invocation;
}

Json original_uri_base_ids(const Report& report) {
  const std::string& root = report.scan.root;
  Json base{{"description", {{"text", with_period("The scanned folder: " + root)}}}};
  if (!root.empty() && root.front() == '/') {
    base["uri"] = "file://" + uri_reference(root) + (root.back() == '/' ? "" : "/");
  }
  return Json{{"%SRCROOT%", base}};
}

}  // namespace

void render_sarif(const Report& report, const RenderOptions& /*options*/, std::ostream& out) {
  const std::vector<RuleInfo> rules = run_rules(report);
  Json rules_json = Json::array();
  for (const auto& rule : rules) rules_json.push_back(rule_json(rule));
  Json results = Json::array();
  for (const auto& finding : report.findings) {
    const auto it =
        std::find_if(rules.begin(), rules.end(), [&](const RuleInfo& r) { return r.id == finding.rule_id; });
    results.push_back(result_json(report, finding, static_cast<std::size_t>(it - rules.begin())));
  }
  Json driver{{"name", "tr2audit"},
              {"version", report.run.tool_version},
              {"semanticVersion", report.run.tool_version},
              {"informationUri", k_information_uri},
              {"rules", rules_json}};
  const std::string profile(to_string(report.target));
  Json run{{"tool", {{"driver", driver}}},
           {"automationDetails", {{"id", "tr2audit/" + profile + "/"}}},
           {"originalUriBaseIds", original_uri_base_ids(report)},
           {"columnKind", "unicodeCodePoints"},
           {"invocations", Json::array({invocation_json(report)})},
           {"results", results}};
  Json properties{{"target", profile}};
  if (report.recommendation) {
    properties["verdict"] = std::string(score::to_string(report.recommendation->verdict));
    properties["readiness"] = report.recommendation->readiness;
    properties["confidence"] = std::string(to_string(report.recommendation->confidence));
  }
  if (report.gate) properties["gate"] = gate_properties(*report.gate);
  run["properties"] = properties;
  const Json document{{"$schema", k_schema_uri}, {"version", "2.1.0"}, {"runs", Json::array({run})}};
  out << document.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

}  // namespace tr2audit::report
