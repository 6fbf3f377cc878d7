#include "facts/canonical_names.hpp"

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tr2audit::facts {
namespace {

/// Implementation modules whose public names are re-exported by their parent package: a name
/// `<module>.<Name>` is `<package>.<Name>`. Each row: the module path, its public package.
constexpr std::array<std::pair<std::string_view, std::string_view>, 11> k_reexporting_modules{{
    {"torch.utils.data.dataloader", "torch.utils.data"},
    {"torch.utils.data.dataset", "torch.utils.data"},
    {"torch.utils.data.sampler", "torch.utils.data"},
    {"torch.nn.parallel.distributed", "torch.nn.parallel"},
    {"torch.nn.parallel.data_parallel", "torch.nn.parallel"},
    {"torch.cuda.amp.autocast_mode", "torch.cuda.amp"},
    {"torch.cuda.amp.grad_scaler", "torch.cuda.amp"},
    {"torch.amp.autocast_mode", "torch.amp"},
    {"torch.amp.grad_scaler", "torch.amp"},
    {"torch.distributed.distributed_c10d", "torch.distributed"},
    {"torch.profiler.profiler", "torch.profiler"},
}};

bool is_public_class_name(std::string_view name) {
  return !name.empty() && name.front() >= 'A' && name.front() <= 'Z';
}

/// `torch.nn.modules.<module>.<Name>` and `torch.nn.modules.<Name>` are `torch.nn.<Name>`.
std::string torch_nn_modules(const std::vector<std::string_view>& segments) {
  if (segments.size() < 4 || segments[0] != "torch" || segments[1] != "nn" || segments[2] != "modules") return {};
  const std::size_t tail = segments.size() == 4 ? 3 : 4;
  std::string out = "torch.nn";
  for (std::size_t i = tail; i < segments.size(); ++i) out += "." + std::string(segments[i]);
  return out;
}

/// `transformers.<lower-case modules>.<Class>[.<member>]`: transformers re-exports its public classes at
/// the top level (`transformers.trainer.Trainer`, `transformers.data.data_collator.DataCollatorWithPadding`,
/// `transformers.utils.quantization_config.BitsAndBytesConfig`).
std::string transformers_class(const std::vector<std::string_view>& segments) {
  if (segments.size() < 3 || segments[0] != "transformers") return {};
  for (std::size_t i = 1; i < segments.size(); ++i) {
    if (!is_public_class_name(segments[i])) continue;
    if (i == 1) return {};
    std::string out = "transformers";
    for (std::size_t j = i; j < segments.size(); ++j) out += "." + std::string(segments[j]);
    return out;
  }
  return {};
}

}  // namespace

QualifiedName canonical_name(QualifiedName name) {
  const FactString& dotted = name.dotted();
  if (dotted.size() < 12) return name;
  for (const auto& [module, package] : k_reexporting_modules) {
    if (!name.starts_with(module) || dotted.size() == module.size()) continue;
    const std::string_view member = std::string_view(dotted).substr(module.size() + 1);
    return QualifiedName::from_dotted(std::string(package) + "." + std::string(member));
  }
  const auto segments = name.segments();
  if (std::string nn = torch_nn_modules(segments); !nn.empty()) return QualifiedName::from_dotted(nn);
  if (std::string hf = transformers_class(segments); !hf.empty()) return QualifiedName::from_dotted(hf);
  return name;
}

}  // namespace tr2audit::facts
