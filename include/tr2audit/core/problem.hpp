// core/problem: a named, non-fatal problem with one input (a file, a rule file, a config file).
// Problems are data: they travel in the report and never stop the scan.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace tr2audit {

enum class ProblemKind {
  unreadable,
  not_utf8,
  binary,
  too_large,
  symlink_loop,
  outside_root,
  syntax_errors,
  parse_timeout,
  too_deep,
  invalid_notebook,
  invalid_rule,
  invalid_op_table,
  invalid_config,
  limit_reached,
  internal,
};

struct Problem {
  ProblemKind kind = ProblemKind::internal;
  std::string path;        ///< repo-relative path with '/' separators (or the rule/config file path)
  std::uint32_t line = 0;  ///< 1-based; 0 when the problem is about the whole file
  std::uint32_t column = 0;
  std::string message;

  auto operator<=>(const Problem&) const = default;
};

/// The stable, kebab-case name used in reports ("not-utf8").
std::string_view to_string(ProblemKind kind);

/// "path:line:col: message" (line and column left out when unknown).
std::string format_problem(const Problem& problem);

}  // namespace tr2audit
