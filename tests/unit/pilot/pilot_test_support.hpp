// Test support for the pilot stage: a PilotFacts built from Python files and config files held in
// the test, through the real extractor, repository model and training-setup collector.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "discover/classify.hpp"
#include "support/extract_helpers.hpp"
#include "tr2audit/facts/facts.hpp"
#include "tr2audit/pilot/pilot.hpp"
#include "tr2audit/score/setup.hpp"

namespace tr2audit::testing {

struct PilotRepo {
  std::vector<std::pair<std::string, std::string>> python;  ///< path, code
  std::vector<pilot::ConfigText> configs;
  std::vector<facts::FileFacts> manifests;  ///< requirements, Dockerfiles (dependency facts)
  std::vector<rules::Finding> findings;
};

inline pilot::PilotFacts pilot_of(const PilotRepo& repo) {
  std::vector<facts::FileFacts> files;
  report::TrainingSetup setup;
  for (const auto& [path, code] : repo.python) files.push_back(facts_of(code, path, discover::is_test_path(path)));
  for (const auto& manifest : repo.manifests) files.push_back(manifest);
  for (const auto& file : files) score::collect_setup(file, setup);
  score::finalize_setup(setup);
  const program::CodeRoles code(program_of(std::move(files)));  // as the scan hands it: facts and roles only
  return pilot::build(pilot::PilotInput{code, repo.configs, setup, repo.findings});
}

inline const pilot::FieldValue& field(const pilot::PilotFacts& facts, pilot::Field which) {
  return facts.fields.at(static_cast<std::size_t>(which));
}

/// The evidence of a field with this name, or nullptr.
inline const pilot::Evidence* value_named(const pilot::PilotFacts& facts, pilot::Field which, std::string_view name) {
  for (const auto& ev : field(facts, which).found) {
    if (ev.name == name) return &ev;
  }
  return nullptr;
}

inline const pilot::PlatformCheck& check(const pilot::PilotFacts& facts, std::string_view id) {
  for (const auto& c : facts.checks) {
    if (c.id == id) return c;
  }
  throw std::runtime_error("no check " + std::string(id));
}

inline facts::FileFacts manifest(std::string path, discover::FileKind kind, std::string_view text) {
  facts::FileFacts file;
  file.path = FactString(std::move(path));
  file.kind = kind;
  file.dependencies = facts::extract_dependencies(kind, text);
  return file;
}

inline rules::Finding finding(std::string rule_id, std::string path, std::uint32_t line) {
  rules::Finding f;
  f.rule_id = std::move(rule_id);
  f.path = std::move(path);
  f.at.line = line;
  f.region = facts::Region::data_pipeline;
  return f;
}

}  // namespace tr2audit::testing
