// rules/fixture: `tr2audit rules test`. Each rule has an annotated fixture (tests/rules/<category>/
// <name>.py or a folder of files); the runner extracts facts from it through an injected
// FactsProvider, runs only that rule and compares the exact set of lines hit with the annotations.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tr2audit/core/severity.hpp"
#include "tr2audit/facts/facts.hpp"
#include "tr2audit/program/program.hpp"
#include "tr2audit/rules/rule_set.hpp"

namespace tr2audit::rules {

class OpTable;

enum class AnnotationKind { expect, ok, todo_expect };

/// One `# expect: ID` / `# ok: ID` / `# todo-expect: ID` naming one rule (a comma list gives several).
struct Annotation {
  AnnotationKind kind = AnnotationKind::expect;
  std::string rule_id;
  std::uint32_t line = 0;            ///< the annotation's own line (1-based)
  std::uint32_t target_line = 0;     ///< the next non-blank, non-comment line; 0 when there is none
  std::optional<Severity> severity;  ///< `expect-low:` / `expect-info:`: the finding must also have this severity
};

/// A malformed annotation.
struct AnnotationError {
  std::uint32_t line = 0;
  std::string message;
};

/// What parse_annotations found in one fixture file.
struct FixtureAnnotations {
  std::vector<Annotation> annotations;
  std::optional<TargetProfile> target;  ///< `# target: xla` in the leading comment block
  std::vector<AnnotationError> errors;
};

/// The comment leader of a fixture file: "//" for C/C++/CUDA sources, "#" otherwise.
std::string_view comment_leader(const std::filesystem::path& file);

/// Parses the annotations and the target line of a fixture's text.
FixtureAnnotations parse_annotations(std::string_view text, std::string_view leader);

/// One file of a fixture, as handed to the FactsProvider.
struct FixtureInput {
  std::filesystem::path fixture;  ///< the fixture: a single file, or the fixture folder
  std::filesystem::path file;     ///< the file to extract
  std::string rel_path;           ///< its path inside the fixture: the file name, or relative to the folder
};

/// The repository model of a fixture and the file of it to match (no file: tr2audit does not read it).
struct FixtureFacts {
  std::shared_ptr<const program::Program> program;
  std::optional<program::FileId> file;
};

/// Facts of one fixture file, inside the program of its whole fixture (so roles and origins are what a
/// scan of the fixture would see). The CLI wires the real extractor; tests pass hand-built facts.
using FactsProvider = std::function<FixtureFacts(const FixtureInput& input)>;

struct FixtureOptions {
  std::filesystem::path fixtures_root;  ///< empty: <rule's rules folder>/../tests/rules
  std::string only_rule;                ///< empty: every rule
  const OpTable* op_table = nullptr;    ///< for `op` rules (without one they never fire)
};

/// The outcome for one rule.
struct FixtureResult {
  std::string rule_id;
  std::size_t expects = 0;
  std::size_t oks = 0;
  std::vector<std::string> failures;  ///< "file:line: reason" (line 0 left out)
  bool passed() const { return failures.empty(); }
};

/// Runs every rule (or options.only_rule) over its fixture; results are in rule id order.
std::vector<FixtureResult> run_fixtures(const RuleSet& rules, const FixtureOptions& options,
                                        const FactsProvider& provider);

/// "PASS id (n expect, m ok)" / "FAIL id: file:line: reason" lines, then "N passed, M failed".
std::string format_fixture_results(const std::vector<FixtureResult>& results);

}  // namespace tr2audit::rules
