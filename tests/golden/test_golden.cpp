// Golden reports: every examples/<name> scanned in-process with the real rules and operator table,
// rendered in every format of report::formats() with a fixed RunInfo, and compared byte for byte
// with tests/golden/<name>/report.<ext>.approved. A mismatch writes report.<ext>.received beside the
// baseline (git-ignored) and prints the first differing lines; TR2AUDIT_UPDATE_GOLDEN=1 rewrites
// the baselines instead. The second test validates the same reports with the real validators.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tr2audit/pipeline/scan.hpp"
#include "tr2audit/rules/op_table.hpp"
#include "tr2audit/rules/rule_set.hpp"
#include "tr2audit/score/policy.hpp"
#include "unit/report/tool_check.hpp"

namespace fs = std::filesystem;
using namespace tr2audit;

namespace {

const fs::path k_repo = TR2AUDIT_SOURCE_DIR;

std::vector<std::string> example_names() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(k_repo / "examples")) {
    // examples/ci holds CI integration files (workflows), not a training repo to scan.
    if (entry.is_directory() && entry.path().filename() != "ci") names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

/// The report `tr2audit scan examples/<name>` produces, with the run-dependent fields fixed.
report::Report scan_example(const std::string& name) {
  const rules::LoadedRules loaded = rules::load_rules({k_repo / "rules"});
  INFO(loaded.problems.size() << " rule problems");
  REQUIRE(loaded.problems.empty());
  const rules::LoadedOpTable table = rules::OpTable::load(k_repo / "rules" / "neuron-ops.yaml");
  REQUIRE(table.table);
  const score::LoadedPolicy policy = score::load_policy(k_repo / "rules" / "scoring.yaml");
  REQUIRE(policy.policy);
  pipeline::ScanOptions options;
  options.root = k_repo / "examples" / name;
  options.jobs = 2;
  report::Report result = pipeline::scan(options, pipeline::Knowledge{loaded.rules, &*table.table, &*policy.policy});
  result.run = report::RunInfo{"<version>", "<version>", "1970-01-01T00:00:00Z", 0};
  result.scan.root = "examples/" + name;
  result.scan.git.reset();
  return result;
}

std::string render(const report::Format& format, const report::Report& report) {
  std::ostringstream out;
  format.render(report, report::RenderOptions{}, out);
  return out.str();
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// The first differing lines as a unified-diff-like excerpt (3 lines of context, 20 lines each).
std::string first_difference(const std::string& approved, const std::string& received) {
  const auto a = split_lines(approved), b = split_lines(received);
  std::size_t first = 0;
  while (first < a.size() && first < b.size() && a[first] == b[first]) ++first;
  const std::size_t from = first > 3 ? first - 3 : 0;
  std::ostringstream out;
  out << "@@ first difference at line " << first + 1 << " @@\n";
  for (std::size_t i = from; i < first; ++i) out << " " << a[i] << "\n";
  for (std::size_t i = first; i < a.size() && i < first + 20; ++i) out << "-" << a[i] << "\n";
  for (std::size_t i = first; i < b.size() && i < first + 20; ++i) out << "+" << b[i] << "\n";
  return out.str();
}

bool update_requested() {
  const char* value = std::getenv("TR2AUDIT_UPDATE_GOLDEN");
  return value != nullptr && std::string(value) == "1";
}

}  // namespace

TEST_CASE("golden::every example's report matches its approved baseline in every format", "[golden]") {
  const auto names = example_names();
  REQUIRE_FALSE(names.empty());
  for (const auto& name : names) {
    const report::Report result = scan_example(name);
    for (const report::Format& format : report::formats()) {
      const fs::path approved =
          k_repo / "tests" / "golden" / name / ("report." + std::string(format.extension) + ".approved");
      fs::path received = approved;
      received.replace_extension(".received");
      const std::string text = render(format, result);
      INFO("example " << name << ", format " << format.name << ": " << approved.string());
      if (update_requested()) {
        fs::create_directories(approved.parent_path());
        std::ofstream(approved, std::ios::binary) << text;
        fs::remove(received);
        continue;
      }
      if (!fs::exists(approved)) {
        fs::create_directories(approved.parent_path());
        std::ofstream(received, std::ios::binary) << text;
        FAIL_CHECK("no baseline: review " << received.string() << " and approve with TR2AUDIT_UPDATE_GOLDEN=1");
        continue;
      }
      const std::string expected = read_file(approved);
      if (expected == text) {
        fs::remove(received);
        continue;
      }
      std::ofstream(received, std::ios::binary) << text;
      FAIL_CHECK("report differs from the baseline; wrote "
                 << received.string() << "\n"
                 << first_difference(expected, text)
                 << "If the change is intended: TR2AUDIT_UPDATE_GOLDEN=1 ctest -R golden, then review the diff.");
    }
  }
}

TEST_CASE("golden::example reports pass the JSON schema, SARIF and browser validators", "[golden][tools]") {
  const auto dir = report::testing::temp_dir("golden-validate");
  std::vector<std::string> json_files, sarif_files, html_files;
  for (const auto& name : example_names()) {
    const report::Report result = scan_example(name);
    for (const report::Format& format : report::formats()) {
      const fs::path file = dir / (name + "." + std::string(format.extension));
      report::testing::write_file(file, render(format, result));
      if (format.name == "json") json_files.push_back(file.string());
      if (format.name == "sarif") sarif_files.push_back(file.string());
      if (format.name == "html") html_files.push_back(file.string());
    }
  }
  std::vector<std::string> schema_args{(k_repo / "docs" / "report.schema.json").string()};
  schema_args.insert(schema_args.end(), json_files.begin(), json_files.end());
  const auto schema = report::testing::run_tool_script("validate_json.sh", schema_args);
  if (schema.skipped()) {
    WARN("SKIPPED JSON schema validation: ajv is not installed (./.ci/bootstrap): " << schema.output);
  } else {
    INFO(schema.output);
    CHECK(schema.ok());
  }
  const auto sarif = report::testing::run_tool_script("validate_sarif.sh", sarif_files);
  if (sarif.skipped()) {
    WARN("SKIPPED SARIF validation: the SARIF Multitool is not installed (./.ci/bootstrap): " << sarif.output);
  } else {
    INFO(sarif.output);
    CHECK(sarif.ok());
  }
  for (const auto& html : html_files) {
    const auto page = report::testing::run_tool_script("check_html.sh", {html, html + ".out"});
    if (page.skipped()) {
      WARN("SKIPPED HTML check: chromium is not installed (./.ci/bootstrap): " << page.output);
      break;
    }
    INFO(page.output);
    CHECK(page.ok());
  }
  fs::remove_all(dir);
}
