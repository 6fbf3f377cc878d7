// rules/op_usage: looks every torch call of a file up in the Neuron operator table. Resolved calls
// match by qualified name (aliases and nn module constructors included); bare method calls on
// unknown receivers match Tensor methods by name only when the name is unambiguous (lower
// confidence). Resolved torch names missing from the table are counted as unknown, never as supported.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
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

/// True for names the table is looked up for: torch, torch_xla, torch_neuronx and torchvision.ops.
bool is_op_table_name(const QualifiedName& name);

/// The row of a call: its resolved name (torchvision.ops.<submodule>.<op> as torchvision.ops.<op>), or a
/// Tensor method on a torch or unknown receiver (`method_only` when matched by the bare method name).
/// Null for anything else, including calls on numpy-like or `self` receivers.
/// The methods the repo's own classes define (program::Program::defines_method): a call by such a bare method name
/// on a receiver of unknown type is not counted as the tensor method (`posterior.mode()`). May be empty.
using RepoMethods = std::function<bool(std::string_view)>;
const OpRow* find_call_row(const facts::CallFact& call, const OpTable& table, bool& method_only,
                           const RepoMethods& repo_method = {});

/// Every operator use in one file (calls, plus imports of libraries the table lists).
std::vector<OpUse> collect_op_uses(const facts::FileFacts& file, const OpTable& table,
                                   const RepoMethods& repo_method = {});

/// Uses folded by operator name: what the report's summary needs, in memory that grows with the
/// distinct operators rather than with the uses (a scan folds each file's uses as soon as they are
/// collected, then merges the files' tallies in file order). Test code is left out.
class OperatorTally {
 public:
  void add(const std::vector<OpUse>& uses);
  void merge(const OperatorTally& other);
  report::OperatorSummary summarize(const OpTable& table, TargetProfile profile) const;

 private:
  struct Entry {
    const OpRow* row = nullptr;  ///< of the first use folded in
    std::uint32_t calls = 0;
    bool method_only = true;  ///< every use was a bare method call
    std::string path;         ///< the earliest use by (path, line)
    std::uint32_t line = 0;
  };
  /// Adds one use (calls = 1) or another tally's entry for name.
  void fold(const std::string& name, const Entry& more);

  std::map<std::string, Entry, std::less<>> m_ops;
};

/// Aggregates uses (in any order) into the report summary for one profile; test code is left out.
report::OperatorSummary summarize_operators(const std::vector<OpUse>& uses, const OpTable& table,
                                            TargetProfile profile);

}  // namespace tr2audit::rules
