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
#include "tr2audit/pipeline/fact_cache.hpp"
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

std::string utc_timestamp() {
  return utc_now("%Y-%m-%dT%H:%M:%SZ");
}

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
  options.suppress_today = request.today;  // directives are facts: applied inside the scan, scored once
  const auto started = std::chrono::steady_clock::now();
  report::Report out = pipeline::scan(options, pipeline::Knowledge{*request.rules, request.op_table, request.policy});
  out.run.tool_version = TR2AUDIT_VERSION;
  out.run.rules_version = TR2AUDIT_VERSION;
  out.run.started_at = utc_now("%Y-%m-%dT%H:%M:%SZ");
  out.run.duration_ms = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count());
  return out;
}

namespace {

bool inside(const std::filesystem::path& dir, const std::filesystem::path& root) {
  std::error_code ec;
  const std::filesystem::path d = std::filesystem::weakly_canonical(dir, ec);
  std::filesystem::path r = std::filesystem::weakly_canonical(root, ec);
  if (std::filesystem::is_regular_file(r, ec)) r = r.parent_path();
  const auto [end, ignored] = std::mismatch(r.begin(), r.end(), d.begin(), d.end());
  return end == r.end();
}

bool under_ci() {
  const char* ci = std::getenv("CI");
  if (!ci || !*ci) return false;
  const std::string value(ci);
  return value != "false" && value != "0";
}

}  // namespace

std::filesystem::path resolve_cache_dir(bool no_cache, const std::string& flag, const std::filesystem::path& root) {
  if (no_cache) return {};
  if (!flag.empty()) return flag;
  if (const char* env = std::getenv("TR2AUDIT_CACHE_DIR"); env && *env) return env;
  if (under_ci()) return {};  // a gate's result must not depend on what an earlier job left behind
  std::filesystem::path dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/') {
    dir = std::filesystem::path(xdg) / "tr2audit";
  } else if (const char* home = std::getenv("HOME"); home && *home == '/') {
    dir = std::filesystem::path(home) / ".cache" / "tr2audit";
  }
  if (dir.empty() || inside(dir, root)) return {};  // never write inside the scanned folder
  return dir;
}

std::string knowledge_digest(const std::vector<std::filesystem::path>& folders) {
  pipeline::Hasher hasher;
  for (const auto& folder : folders) {
    hasher.add(folder.generic_string());
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(folder, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_regular_file(ec)) files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      hasher.add(std::filesystem::relative(file, folder, ec).generic_string());
      hasher.add(read_file(file).value_or(std::string()));
    }
  }
  return pipeline::to_hex(hasher.finish());
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
  ScanRequest base_request = request;
  base_request.options.stats = nullptr;  // --stats describes the scan of the head
  const report::Report base = scan_with_suppressions(tree, base_request);
  if (!head.gate) head.gate.emplace();
  head.gate->diff = gate::diff_delta(head, base, diff);
  return true;
}

}  // namespace tr2audit::cli
