// Replays every kept fuzzer input (tests/fuzz/regressions/) through what the fuzz targets run, in
// the ordinary test binary, so a crash the fuzzers found stays fixed in every build (ASan included).
#include <catch2/catch.hpp>
#include <filesystem>

#include "tr2audit/program/program.hpp"
#include "tr2audit/core/file.hpp"
#include "tr2audit/discover/discover.hpp"
#include "tr2audit/facts/extract.hpp"
#include "tr2audit/rules/match.hpp"
#include "tr2audit/rules/rule_set.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> inputs(const std::string& kind) {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(fs::path(TR2AUDIT_SOURCE_DIR) / "tests/fuzz/regressions" / kind)) {
    out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("fuzz regressions: Python inputs go through parse, facts and match", "[fuzz][hostile]") {
  const auto rules = tr2audit::rules::load_rules({fs::path(TR2AUDIT_SOURCE_DIR) / "rules"});
  REQUIRE(rules.problems.empty());
  tr2audit::facts::Extractor extractor;
  for (const fs::path& path : inputs("python")) {
    INFO(path.string());
    const std::string bytes = tr2audit::read_file(path).value();
    tr2audit::discover::SourceFile file;
    file.rel_path = "fuzz/" + path.filename().string();
    tr2audit::discover::LoadedSource source;
    if (!bytes.empty() && bytes.front() == '{') {
      file.kind = tr2audit::discover::FileKind::notebook;
      auto loaded = tr2audit::discover::notebook_to_python(bytes, file.rel_path);
      if (!loaded.ok) continue;
      source = std::move(loaded.source);
    } else {
      source.text = bytes;
    }
    std::vector<tr2audit::facts::FileFacts> files{extractor.extract(file, source)};
    const auto model = tr2audit::program::Program::build(std::move(files), true);
    const tr2audit::program::FileView view{model, tr2audit::program::FileId{0}};
    for (auto& finding : tr2audit::rules::match(view, rules.rules, tr2audit::TargetProfile::native)) {
      tr2audit::rules::fill_snippet_and_fingerprint(finding, source.text);
    }
    SUCCEED();
  }
}

TEST_CASE("fuzz regressions: rule inputs load (or are refused) without hanging or crashing", "[fuzz][hostile]") {
  for (const fs::path& path : inputs("rule")) {
    INFO(path.string());
    std::vector<tr2audit::Problem> problems;
    const auto rule = tr2audit::rules::load_rule_text(tr2audit::read_file(path).value(), path, problems);
    CHECK((rule.has_value() || !problems.empty()));
  }
}
