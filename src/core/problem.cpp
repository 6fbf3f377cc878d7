#include "tr2audit/core/problem.hpp"

namespace tr2audit {

std::string_view to_string(ProblemKind kind) {
  switch (kind) {
    case ProblemKind::unreadable:
      return "unreadable";
    case ProblemKind::not_utf8:
      return "not-utf8";
    case ProblemKind::binary:
      return "binary";
    case ProblemKind::too_large:
      return "too-large";
    case ProblemKind::symlink_loop:
      return "symlink-loop";
    case ProblemKind::outside_root:
      return "outside-root";
    case ProblemKind::syntax_errors:
      return "syntax-errors";
    case ProblemKind::parse_timeout:
      return "parse-timeout";
    case ProblemKind::too_deep:
      return "too-deep";
    case ProblemKind::invalid_notebook:
      return "invalid-notebook";
    case ProblemKind::invalid_rule:
      return "invalid-rule";
    case ProblemKind::invalid_op_table:
      return "invalid-op-table";
    case ProblemKind::invalid_config:
      return "invalid-config";
    case ProblemKind::limit_reached:
      return "limit-reached";
    case ProblemKind::internal:
      return "internal";
  }
  return "internal";
}

std::string format_problem(const Problem& problem) {
  std::string out = problem.path;
  if (problem.line > 0) {
    out += ':' + std::to_string(problem.line);
    if (problem.column > 0) out += ':' + std::to_string(problem.column);
  }
  out += ": ";
  out += problem.message;
  return out;
}

}  // namespace tr2audit
