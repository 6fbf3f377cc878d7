// rules/op_usage: looks every torch call of a file up in the Neuron operator table. Resolved calls
// match by qualified name (aliases and nn module constructors included); bare method calls on
// unknown receivers match Tensor methods by name only when the name is unambiguous (lower
// confidence). Resolved torch names missing from the table are counted as unknown, never as supported.
#pragma once
#include <string>
#include <vector>

#include "tr2audit/core/location.hpp"
#include "tr2audit/core/severity.hpp"
#include "tr2audit/facts/facts.hpp"
#include "tr2audit/report/operators.hpp"
#include "tr2audit/rules/op_table.hpp"

namespace tr2audit::rules {

struct OpUse {
  const OpRow* row = nullptr;  ///< null for an unknown torch name
  std::string name;            ///< the row's name, or the unknown qualified name
  std::string path;
  Span at;
  bool method_only = false;  ///< matched by bare method name
  bool in_test = false;
};

/// Every operator use in one file (calls, plus imports of libraries the table lists).
std::vector<OpUse> collect_op_uses(const facts::FileFacts& file, const OpTable& table);

/// Aggregates uses (in any order) into the report summary for one profile; test code is left out.
report::OperatorSummary summarize_operators(const std::vector<OpUse>& uses, const OpTable& table,
                                            TargetProfile profile);

}  // namespace tr2audit::rules
