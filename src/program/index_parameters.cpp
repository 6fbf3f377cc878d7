// Index tensors handed to parameters named like masks. The boolean-mask-index detector reads a parameter
// called `mask`, `*_mask` or `mask_*` as a boolean mask (a dataset's `data.train_mask`), since one file
// cannot see what its callers pass. The call graph can: when every call site of the function passes, for
// that parameter, a name that says it holds indices (`train_iter(..., idx_train, ...)` with `idx_train =
// idx[1600:]` of a `torch.randperm`), `output[mask_train]` is a gather of a fixed number of rows, whose
// shape is static, and the pattern is refuted.
#include <algorithm>
#include <map>
#include <utility>

#include "program/model.hpp"
#include "program/option_values.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

bool named_like_mask(std::string_view name) {
  return name == "mask" || ends_with(name, "_mask") || starts_with(name, "mask_");
}

// `idx_train`, `train_idx`, `indices`, `perm`, `node_index`: a name that says it holds integer indices.
bool named_like_index(std::string_view name) {
  const std::string lower = to_lower(name);
  if (lower.find("mask") != std::string::npos) return false;
  return lower == "idx" || starts_with(lower, "idx_") || ends_with(lower, "_idx") || ends_with(lower, "idxs") ||
         lower.find("index") != std::string::npos || lower.find("indices") != std::string::npos ||
         starts_with(lower, "perm");
}

// The parameter a subscript pattern's detail (`output[mask_train]`) indexes with, when it is a plain name.
std::string_view index_name(std::string_view detail) {
  if (!ends_with(detail, "]")) return {};
  const auto open = detail.rfind('[');
  if (open == std::string_view::npos) return {};
  const std::string_view name = detail.substr(open + 1, detail.size() - open - 2);
  const bool identifier = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
  return identifier ? name : std::string_view{};
}

struct Use {
  std::uint32_t pattern;
  std::string_view param;
  std::optional<std::size_t> position;  ///< among the arguments a call passes positionally
  bool refuted = true;                  ///< every call site seen so far passes an index
  bool seen = false;                    ///< at least one call site
};

// The argument a call passes for the parameter: by keyword, else by position; null when not passed or
// not knowable (a splat).
const facts::Argument* passed(const facts::CallFact& call, const Use& use) {
  const facts::Argument* out = nullptr;
  std::size_t positional = 0;
  for (const auto& arg : call.args) {
    if (arg.is_splat) return nullptr;
    if (arg.keyword.empty()) {
      if (use.position && positional == *use.position) out = &arg;
      ++positional;
    } else if (arg.keyword == use.param) {
      out = &arg;
    }
  }
  return out;
}

}  // namespace

void find_index_parameters(Program::Impl& impl) {
  impl.refuted_patterns.assign(impl.files.size(), {});
  // The mask-named parameters that patterns index with, by function.
  std::map<std::pair<std::uint32_t, std::int32_t>, std::vector<Use>> uses;
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& file = impl.files[f];
    for (std::uint32_t p = 0; p < file.patterns.size(); ++p) {
      const auto& pattern = file.patterns[p];
      if (pattern.kind != "boolean-mask-index" || pattern.ctx.function < 0) continue;
      const std::string_view name = index_name(pattern.detail);
      if (name.empty() || !named_like_mask(name)) continue;
      const auto& info = file.functions[static_cast<std::size_t>(pattern.ctx.function)];
      if (!option_values::is_parameter(info, name)) continue;
      uses[{f, pattern.ctx.function}].push_back(Use{p, name, option_values::positional_index(info, name)});
    }
  }
  if (uses.empty()) return;
  for (std::uint32_t f = 0; f < impl.edges.size(); ++f) {
    for (const auto& slot : impl.edges[f]) {
      for (const Edge& edge : slot) {
        if (edge.call < 0 || edge.target.index < 0) continue;
        const auto it = uses.find({edge.target.file.value, edge.target.index});
        if (it == uses.end()) continue;
        const auto& call = impl.files[f].calls[static_cast<std::size_t>(edge.call)];
        for (Use& use : it->second) {
          const facts::Argument* arg = passed(call, use);
          use.seen = true;
          use.refuted = use.refuted && arg != nullptr && arg->kind == facts::LiteralKind::name &&
                        arg->value.find('.') == std::string::npos && named_like_index(arg->value);
        }
      }
    }
  }
  for (const auto& [where, list] : uses) {
    for (const Use& use : list) {
      if (use.seen && use.refuted) impl.refuted_patterns[where.first].push_back(use.pattern);
    }
  }
  for (auto& refuted : impl.refuted_patterns) std::sort(refuted.begin(), refuted.end());
}

}  // namespace tr2audit::program
