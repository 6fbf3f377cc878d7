// report/operators: which torch operators the scanned code uses and how the target Neuron stack
// supports them (from rules/neuron-ops.yaml), aggregated over the repo (test code excluded).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tr2audit::report {

struct OperatorUse {
  std::string name;    ///< the table row's name ("torch.nonzero") or the unknown qualified name
  std::string status;  ///< "supported", "caveat", "replace", "unsupported", "unknown"
  std::string note;    ///< the row's note for the target profile
  std::string alternative;
  std::string source;
  bool inferred = false;     ///< the status rests on reasoning (see the table)
  bool method_only = false;  ///< every use was a bare method call matched by name (lower confidence)
  std::uint32_t calls = 0;
  std::string first_location;  ///< "path:line"
};

struct OperatorSummary {
  std::string table_version, neuron_sdk, checked;  ///< the table's header
  std::uint32_t distinct = 0, supported = 0, caveat = 0, replace = 0, unsupported = 0, unknown = 0;
  std::vector<OperatorUse> ops;  ///< every distinct op, sorted by (status severity desc, name)
};

}  // namespace tr2audit::report
