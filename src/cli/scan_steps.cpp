#include "cli/scan_steps.hpp"

#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>

#include "tr2audit/core/file.hpp"
#include "tr2audit/discover/discover.hpp"
#include "tr2audit/gate/git.hpp"
#include "tr2audit/gate/suppress.hpp"
#include "tr2audit/score/score.hpp"

namespace tr2audit::cli {
namespace {

std::string utc_now(const char* format) {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, format, &utc);
  return buffer;
}

/// A fresh temp folder removed when this goes out of scope.
class TempFolder {
 public:
  TempFolder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "tr2audit-base-XXXXXX").string();
    if (mkdtemp(pattern.data())) m_path = pattern;
  }
  ~TempFolder() {
    std::error_code ec;
    if (!m_path.empty()) std::filesystem::remove_all(m_path, ec);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  const std::filesystem::path& path() const { return m_path; }

 private:
  std::filesystem::path m_path;
};

}  // namespace

std::optional<std::string> today_date() {
  if (const char* injected = std::getenv("TR2AUDIT_TODAY"); injected && *injected) {
    if (!gate::is_iso_date(injected)) return std::nullopt;
    return std::string(injected);
  }
  return utc_now("%Y-%m-%d");
}

report::Report scan_with_suppressions(const std::filesystem::path& root, const ScanRequest& request) {
  pipeline::ScanOptions options = request.options;
  options.root = root;
  const auto started = std::chrono::steady_clock::now();
  report::Report scanned =
      pipeline::scan(options, pipeline::Knowledge{*request.rules, request.op_table, request.policy});
  scanned.run.tool_version = TR2AUDIT_VERSION;
  scanned.run.rules_version = TR2AUDIT_VERSION;
  scanned.run.started_at = utc_now("%Y-%m-%dT%H:%M:%SZ");
  // The suppression pass reads every scanned file again (it needs the files without findings too,
  // to report stale directives); discovery is cheap next to parsing.
  const discover::DiscoveryResult listed = discover::discover(root, options.discovery);
  std::map<std::string, const discover::SourceFile*> by_path;
  std::vector<std::string> paths;
  for (const auto& file : listed.files) {
    by_path.emplace(file.rel_path, &file);
    paths.push_back(file.rel_path);
  }
  const auto read = [&](const std::string& rel) -> std::optional<discover::LoadedSource> {
    const auto it = by_path.find(rel);
    if (it == by_path.end()) return std::nullopt;
    discover::LoadResult loaded = discover::load_source(*it->second, options.discovery.max_file_size);
    if (!loaded.ok) return std::nullopt;
    return std::move(loaded.source);
  };
  gate::SuppressOptions suppress{request.today, {}};
  for (const auto& rule : request.rules->rules()) suppress.known_rule_ids.push_back(rule.id);
  std::sort(suppress.known_rule_ids.begin(), suppress.known_rule_ids.end());
  report::Report out = gate::apply_suppressions(scanned, paths, read, suppress);
  if (request.policy) pipeline::rescore(out, *request.policy);
  out.run.duration_ms = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count());
  return out;
}

bool load_baseline_file(const std::string& file, report::Report& report, std::string& error) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    error = file + ": cannot read the baseline (write one with --write-baseline)";
    return false;
  }
  std::stringstream text;
  text << in.rdbuf();
  const auto baseline = gate::parse_baseline(text.str(), error);
  if (!baseline) {
    error = file + ": " + error;
    return false;
  }
  if (!report.gate) report.gate.emplace();
  report.gate->baseline = gate::compare_with_baseline(report, *baseline);
  report.gate->baseline->file = file;
  return true;
}

bool write_baseline_file(const std::string& file, const report::Report& report, std::string& error) {
  error = write_file_atomically(file, gate::baseline_to_json(gate::make_baseline(report)));
  return error.empty();
}

bool scan_diff_base(const std::filesystem::path& root, report::Report& head, const ScanRequest& request,
                    const gate::DiffContext& diff, std::string& error) {
  TempFolder temp;
  if (temp.path().empty()) {
    error = "cannot create a temporary folder for the merge base";
    return false;
  }
  const std::filesystem::path tree = temp.path() / "tree";
  error = gate::export_tree(root, diff.merge_base, diff.prefix, tree);
  if (!error.empty()) return false;
  const report::Report base = scan_with_suppressions(tree, request);
  if (!head.gate) head.gate.emplace();
  head.gate->diff = gate::diff_delta(head, base, diff);
  return true;
}

}  // namespace tr2audit::cli
