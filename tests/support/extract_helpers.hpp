// Test support: extract facts from Python text held in the test, and look facts up by line.
#pragma once
#include <string>
#include <string_view>

#include "tr2audit/discover/source_file.hpp"
#include "tr2audit/facts/extract.hpp"
#include "tr2audit/facts/facts.hpp"
#include "tr2audit/program/program.hpp"
#include "tr2audit/rules/match.hpp"

namespace tr2audit::testing {

/// Extracts facts from code as if it were the repo file `rel_path`.
inline facts::FileFacts facts_of(std::string_view code, std::string rel_path = "train.py", bool is_test = false) {
  discover::SourceFile file;
  file.rel_path = std::move(rel_path);
  file.is_test = is_test;
  discover::LoadedSource source;
  source.text = std::string(code);
  facts::Extractor extractor;
  return extractor.extract(file, source);
}

/// Matches one file as a repo of its own (the program built around a copy of its facts).
inline std::vector<rules::Finding> match_one(const facts::FileFacts& file, const rules::RuleSet& rules,
                                             TargetProfile profile) {
  std::vector<facts::FileFacts> files{file};
  const program::Program model = program::Program::build(std::move(files));
  return rules::match(program::FileView{model, program::FileId{0}}, rules, profile);
}

/// A program over several files' facts.
inline program::Program program_of(std::vector<facts::FileFacts> files) {
  return program::Program::build(std::move(files));
}

/// The first call on a line (1-based), or nullptr.
inline const facts::CallFact* call_at(const facts::FileFacts& f, std::uint32_t line, std::string_view method = {}) {
  for (const auto& call : f.calls) {
    if (call.at.line == line && (method.empty() || call.method == method || call.callee.dotted() == method))
      return &call;
  }
  return nullptr;
}

/// The resolved callee of the first call on a line whose text starts the call ("" when none).
inline std::string callee_at(const facts::FileFacts& f, std::uint32_t line) {
  const auto* call = call_at(f, line);
  return call ? call->callee.dotted() : std::string("<no call>");
}

}  // namespace tr2audit::testing
