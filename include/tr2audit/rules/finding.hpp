// rules/finding: one rule hit, self-contained (it owns its strings) so reports never reach back
// into facts or rules. Produced by rules::match, consumed by score and report.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tr2audit/core/location.hpp"
#include "tr2audit/core/severity.hpp"
#include "tr2audit/facts/region.hpp"
#include "tr2audit/program/program.hpp"

namespace tr2audit::rules {

struct Suppression {
  std::string reason;
  std::string until;  ///< YYYY-MM-DD or empty
};

/// A finding against --baseline: not compared (no baseline), new, or recorded in the baseline.
enum class BaselineState : std::uint8_t { none, new_finding, unchanged };

/// What the gate found out about one finding (gate/ fills it after the scan; every renderer reads it).
/// Whether the gate looks at the finding follows from these and `suppressed` (report::is_gated).
struct GateMarks {
  BaselineState baseline = BaselineState::none;  ///< none without --baseline
  std::optional<bool> in_diff;                   ///< on a line changed since --diff-base; nullopt without one
};

struct Finding {
  std::string id;  ///< stable within a report: "F0001" in report order (assigned after sorting)
  std::string rule_id;
  Category category = Category::cuda_api;
  Severity severity = Severity::info;
  Confidence confidence = Confidence::medium;
  std::string message;  ///< the rule's message with {placeholders} filled
  std::string path;     ///< repo-relative, '/' separated
  Span at;
  CellLocation cell;     ///< notebooks only (cell == 0 otherwise)
  std::string function;  ///< "Trainer.train_step" or ""
  std::string klass;
  std::optional<facts::Region>
      region;                ///< where the code runs; nullopt for file-level findings (a manifest, a .cu file)
  std::uint16_t guards = 0;  ///< facts::Guard bits, as the program stage sees them
  program::RoleSet roles;    ///< the roles reachability gives the enclosing code (empty: not reached)
  std::string reached_from;  ///< "train.py:main → Trainer.train → compute_loss", or ""
  std::string opt_in;        ///< the off-by-default option that turns this code on ("config.use_fp8"), or ""
  /// A call of a repo wrapper of an op (program::k_wrapped_op_call): the qualified name of the wrapper whose
  /// body holds the op ("get_cumulative_document_lengths"); else "".
  std::string wrapper;
  /// A training entry point reaches the code (not only a library module's own role, tests or nothing).
  /// True for every finding of a scan that found no training entry point: a library is judged by its code.
  bool training_reached = false;
  std::vector<std::uint32_t> entries;  ///< the training entry points that reach it (Report::training_entries)
  bool meta = false;                   ///< about tr2audit's own directives (an unused suppression): never scored
  bool off_training_path =
      false;  ///< only inference/export/tooling/test code reaches it: not part of the training verdict
  /// No entry point reaches it, in a script or notebook that does not train
  /// (program::Program::script_without_training): off the training path too.
  bool in_script_without_training = false;
  /// Lowered from medium because no entry point reaches its function (rules/match): a use that still counts
  /// as medium when an import or a manifest pin is weighed by its uses.
  bool unreached = false;
  /// Declared by a manifest whose project holds no training code (program::Program::project_without_training).
  bool in_project_without_training = false;
  /// In a vendored project (program::Program::vendored) and off the training path: nothing of the repo
  /// itself reaches it.
  bool in_vendored_project = false;
  /// In code that never runs, and why (program::Program::dead_code); `live` for nearly every finding.
  program::DeadCode dead_code = program::DeadCode::live;

  /// The region's name, or "file" for file-level findings.
  std::string_view region_name() const { return region ? facts::to_string(*region) : std::string_view("file"); }
  bool in_error_region = false;
  std::string snippet;               ///< the source line (trimmed, capped)
  std::uint32_t snippet_column = 0;  ///< 1-based code-point column of `at.column` inside `snippet`; 0 = unknown
  std::string subject;               ///< what matched: the callee, method, module, device string, ...
  std::string fingerprint;           ///< rule id + normalised snippet + enclosing symbol, hashed
  std::optional<Suppression> suppressed;
  GateMarks gate;
};

}  // namespace tr2audit::rules
