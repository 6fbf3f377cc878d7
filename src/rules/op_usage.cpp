#include "tr2audit/rules/op_usage.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "tr2audit/core/text.hpp"

namespace tr2audit::rules {
namespace {

bool is_numpy_like(const QualifiedName& name) {
  const auto first = name.first_segment();
  return first == "numpy" || first == "math" || first == "pandas" || first == "random";
}

// `posterior.mode()`, `vae.encode(x).latent_dist.mode()`: a receiver named for a probability distribution (a VAE's
// posterior, a `torch.distributions` object) holds one; its `mode()` or `sample()` is the distribution's method,
// not the tensor op of that name.
bool distribution_method(const facts::CallFact& call) {
  const std::string_view method = call.method.view();
  if (method != "mode" && method != "sample" && method != "rsample" && method != "entropy" && method != "log_prob")
    return false;
  std::string_view receiver = call.receiver_text.view();
  const std::size_t dot = receiver.rfind('.');
  if (dot != std::string_view::npos) receiver = receiver.substr(dot + 1);
  const std::string last = to_lower(receiver);
  return last.find("posterior") != std::string::npos || last.find("distribution") != std::string::npos ||
         last == "dist" || ends_with(last, "_dist");
}

// torch.Tensor methods reached through a resolved receiver are still tensor methods:
// torch.zeros(3).nonzero() -> receiver_callee torch.zeros, method nonzero.
// A bare method name that a repo class defines (`posterior.mode()`, `DiagonalGaussianDistribution.mode`) is that
// class's method on a receiver of unknown type, not the tensor method.
const OpRow* lookup_method(const facts::CallFact& call, const OpTable& table, bool& method_only,
                           const RepoMethods& repo_method) {
  if (call.method.empty() || !call.callee.empty()) return nullptr;
  if (!call.receiver_callee.empty() && is_numpy_like(call.receiver_callee)) return nullptr;
  // (Nor a method of a value that lives on the host: a numpy array, a pandas frame's `df["loss"].median()`, a tensor
  // built from Python values. It runs on the CPU, not through Neuron.)
  if (call.host_value) return nullptr;
  if (call.receiver_is_self || distribution_method(call)) return nullptr;
  if (call.receiver_callee.first_segment() == "torch") {
    if (const OpRow* row = table.find("torch.Tensor." + call.method)) return row;
  }
  if (repo_method && repo_method(call.method)) return nullptr;
  method_only = true;
  return table.find_tensor_method(call.method);
}

int status_rank(std::string_view status) {
  if (status == "unsupported") return 0;
  if (status == "replace") return 1;
  if (status == "caveat") return 2;
  if (status == "unknown") return 3;
  return 4;
}

}  // namespace

bool is_op_table_name(const QualifiedName& name) {
  const auto first = name.first_segment();
  return first == "torch" || first == "torch_xla" || first == "torch_neuronx" ||
         starts_with(name.dotted(), "torchvision.ops.");
}

const OpRow* find_call_row(const facts::CallFact& call, const OpTable& table, bool& method_only,
                           const RepoMethods& repo_method) {
  method_only = false;
  if (call.callee.empty()) return lookup_method(call, table, method_only, repo_method);
  if (!is_op_table_name(call.callee)) return nullptr;
  const FactString& name = call.callee.dotted();
  if (const OpRow* row = table.find(name)) return row;
  // torchvision.ops.boxes.batched_nms, torchvision.ops.roi_align.roi_align: the op's public name.
  constexpr std::string_view k_tv = "torchvision.ops.";
  if (starts_with(name, k_tv) && name.find('.', k_tv.size()) != std::string::npos) {
    return table.find(std::string(k_tv) + std::string(name.substr(name.rfind('.') + 1)));
  }
  return nullptr;
}

std::vector<OpUse> collect_op_uses(const facts::FileFacts& file, const OpTable& table, const RepoMethods& repo_method) {
  std::vector<OpUse> uses;
  for (const auto& call : file.calls) {
    OpUse use{nullptr, {}, file.path, call.at, false, file.is_test};
    use.row = find_call_row(call, table, use.method_only, repo_method);
    if (!use.row && (call.callee.empty() || !is_op_table_name(call.callee))) continue;
    use.name = use.row ? use.row->name : call.callee.dotted();
    uses.push_back(std::move(use));
  }
  for (const auto& import : file.imports) {
    for (QualifiedName name = import.module; !name.empty();) {
      const OpRow* row = table.find(name.dotted());
      if (row && row->kind == OpKind::library) {
        uses.push_back(OpUse{row, row->name, file.path, import.at, false, file.is_test});
        break;
      }
      const auto dot = name.dotted().rfind('.');
      name = dot == std::string::npos ? QualifiedName{} : QualifiedName::from_dotted(name.dotted().substr(0, dot));
    }
  }
  return uses;
}

void OperatorTally::fold(const std::string& name, const Entry& more) {
  auto [it, inserted] = m_ops.try_emplace(name, more);
  if (inserted) return;
  Entry& entry = it->second;  // keeps the row of the first use folded in
  if (std::tie(more.path, more.line) < std::tie(entry.path, entry.line)) {
    entry.path = more.path;
    entry.line = more.line;
  }
  entry.calls += more.calls;
  entry.method_only = entry.method_only && more.method_only;
}

void OperatorTally::add(const std::vector<OpUse>& uses) {
  for (const auto& use : uses) {
    if (!use.in_test) fold(use.name, Entry{use.row, 1, use.method_only, use.path, use.at.line});
  }
}

void OperatorTally::merge(const OperatorTally& other) {
  for (const auto& [name, theirs] : other.m_ops) fold(name, theirs);
}

report::OperatorSummary OperatorTally::summarize(const OpTable& table, TargetProfile profile) const {
  report::OperatorSummary summary;
  summary.table_version = table.info().version;
  summary.neuron_sdk = table.info().neuron_sdk;
  summary.checked = table.info().checked;
  for (const auto& [name, entry] : m_ops) {
    report::OperatorUse op;
    op.name = name;
    if (entry.row) {
      const auto& status = entry.row->for_profile(profile);
      op.status = std::string(to_string(status.status));
      op.note = status.note;
      op.alternative = entry.row->alternative;
      op.source = entry.row->source;
      op.inferred = starts_with(status.note, "inferred:");
    } else {
      op.status = "unknown";
    }
    op.calls = entry.calls;
    op.method_only = entry.method_only;
    op.first_location = entry.path + ":" + std::to_string(entry.line);
    ++summary.distinct;
    if (op.status == "supported")
      ++summary.supported;
    else if (op.status == "caveat")
      ++summary.caveat;
    else if (op.status == "replace")
      ++summary.replace;
    else if (op.status == "unsupported")
      ++summary.unsupported;
    else
      ++summary.unknown;
    summary.ops.push_back(std::move(op));
  }
  std::stable_sort(summary.ops.begin(), summary.ops.end(), [](const auto& a, const auto& b) {
    return std::make_tuple(status_rank(a.status), a.name) < std::make_tuple(status_rank(b.status), b.name);
  });
  return summary;
}

report::OperatorSummary summarize_operators(const std::vector<OpUse>& uses, const OpTable& table,
                                            TargetProfile profile) {
  OperatorTally tally;
  tally.add(uses);
  return tally.summarize(table, profile);
}

}  // namespace tr2audit::rules
