// rules/finding: one rule hit, self-contained (it owns its strings) so reports never reach back
// into facts or rules. Produced by rules::match, consumed by score and report.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tr2audit/core/location.hpp"
#include "tr2audit/core/severity.hpp"

namespace tr2audit::rules {

struct Suppression {
  std::string reason;
  std::string until;  ///< YYYY-MM-DD or empty
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
  std::string region;                   ///< facts::to_string(Region)
  std::vector<std::string> guarded_by;  ///< "cuda-available", "import-error-fallback", ...
  bool in_error_region = false;
  std::string snippet;               ///< the source line (trimmed, capped)
  std::uint32_t snippet_column = 0;  ///< 1-based code-point column of `at.column` inside `snippet`; 0 = unknown
  std::string subject;               ///< what matched: the callee, method, module, device string, ...
  std::string fingerprint;           ///< rule id + normalised snippet + enclosing symbol, hashed
  std::optional<Suppression> suppressed;
};

}  // namespace tr2audit::rules
