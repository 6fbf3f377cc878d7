#include "tr2audit/gate/baseline.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

namespace tr2audit::gate {
namespace {

using Json = nlohmann::ordered_json;

bool entry_less(const BaselineEntry& a, const BaselineEntry& b) {
  return std::tie(a.path, a.line, a.rule_id, a.fingerprint, a.message) <
         std::tie(b.path, b.line, b.rule_id, b.fingerprint, b.message);
}

std::optional<BaselineEntry> entry_from_json(const nlohmann::json& j, std::string& error, std::size_t index) {
  const std::string where = "findings[" + std::to_string(index) + "]";
  if (!j.is_object() || !j.contains("fingerprint") || !j["fingerprint"].is_string() || !j.contains("rule_id") ||
      !j["rule_id"].is_string()) {
    error = where + ": needs string fields fingerprint and rule_id";
    return std::nullopt;
  }
  BaselineEntry e;
  e.fingerprint = j["fingerprint"].get<std::string>();
  e.rule_id = j["rule_id"].get<std::string>();
  if (j.contains("path") && j["path"].is_string()) e.path = j["path"].get<std::string>();
  if (j.contains("line") && j["line"].is_number_unsigned()) e.line = j["line"].get<std::uint32_t>();
  if (j.contains("message") && j["message"].is_string()) e.message = j["message"].get<std::string>();
  return e;
}

}  // namespace

Baseline make_baseline(const report::Report& report) {
  Baseline baseline;
  baseline.tool_version = report.run.tool_version;
  baseline.target = std::string(to_string(report.target));
  for (const auto& f : report.findings) {
    if (f.suppressed) continue;
    baseline.entries.push_back(BaselineEntry{f.fingerprint, f.rule_id, f.path, f.at.line, f.message});
  }
  std::sort(baseline.entries.begin(), baseline.entries.end(), entry_less);
  return baseline;
}

std::string baseline_to_json(const Baseline& baseline) {
  Json findings = Json::array();
  for (const auto& e : baseline.entries) {
    findings.push_back(Json{{"fingerprint", e.fingerprint},
                            {"rule_id", e.rule_id},
                            {"path", e.path},
                            {"line", e.line},
                            {"message", e.message}});
  }
  const Json document{{"schema_version", baseline.schema_version},
                      {"tool", {{"name", "tr2audit"}, {"version", baseline.tool_version}}},
                      {"target", baseline.target},
                      {"findings", findings}};
  return document.dump(2) + "\n";
}

std::optional<Baseline> parse_baseline(std::string_view json_text, std::string& error) {
  const nlohmann::json j = nlohmann::json::parse(json_text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    error = "not a JSON object (is this a tr2audit baseline written by --write-baseline?)";
    return std::nullopt;
  }
  if (!j.contains("schema_version") || !j["schema_version"].is_number_integer() ||
      j["schema_version"].get<int>() != k_baseline_schema_version) {
    error = "unsupported baseline schema_version (expected " + std::to_string(k_baseline_schema_version) + ")";
    return std::nullopt;
  }
  if (!j.contains("findings") || !j["findings"].is_array()) {
    error = "missing the findings array";
    return std::nullopt;
  }
  Baseline baseline;
  if (j.contains("tool") && j["tool"].is_object() && j["tool"].contains("version") && j["tool"]["version"].is_string())
    baseline.tool_version = j["tool"]["version"].get<std::string>();
  if (j.contains("target") && j["target"].is_string()) baseline.target = j["target"].get<std::string>();
  for (std::size_t i = 0; i < j["findings"].size(); ++i) {
    auto entry = entry_from_json(j["findings"][i], error, i);
    if (!entry) return std::nullopt;
    baseline.entries.push_back(std::move(*entry));
  }
  std::sort(baseline.entries.begin(), baseline.entries.end(), entry_less);
  return baseline;
}

report::BaselineSummary compare_with_baseline(report::Report& report, const Baseline& baseline) {
  std::map<std::string, std::vector<const BaselineEntry*>> remaining;
  for (const auto& e : baseline.entries) remaining[e.fingerprint].push_back(&e);
  report::BaselineSummary out;
  for (auto& f : report.findings) {
    f.gate.baseline = BaselineState::none;
    if (f.suppressed) continue;
    auto it = remaining.find(f.fingerprint);
    if (it != remaining.end() && !it->second.empty()) {
      it->second.erase(it->second.begin());
      f.gate.baseline = BaselineState::unchanged;
      ++out.unchanged_count;
    } else {
      f.gate.baseline = BaselineState::new_finding;
      ++out.new_count;
    }
  }
  // Suppressed findings are not debt (they count neither way), but SARIF states every result's
  // baselineState: one whose fingerprint the baseline still holds is unchanged, else new.
  for (auto& f : report.findings) {
    if (!f.suppressed) continue;
    const auto it = remaining.find(f.fingerprint);
    f.gate.baseline =
        it != remaining.end() && !it->second.empty() ? BaselineState::unchanged : BaselineState::new_finding;
  }
  for (const auto& [fingerprint, entries] : remaining) {
    for (const BaselineEntry* e : entries) out.fixed.push_back(*e);
  }
  std::sort(out.fixed.begin(), out.fixed.end(), entry_less);
  return out;
}

}  // namespace tr2audit::gate
