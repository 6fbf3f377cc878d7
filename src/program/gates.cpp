// Gates that live outside the branch that tests them:
// - CUDA probe functions: a predicate whose body asks for CUDA (`def has_cuda_capability(): return
//   torch.cuda.is_available() and ...`), and predicates that call one (`should_use_grouped_mm()`).
//   A branch on such a call, or on a flag assigned from one (`self.use_grouped_mm =
//   should_use_grouped_mm()`), runs only on CUDA.
// - Named executors/backends a selecting option leaves out by default: a module that registers
//   `OperatorExecutor("unsloth")` while every default of `executors` lists others runs only when a
//   user adds it, so the module, its folder (the plugin) and what only they import are opt-in.
#include <unordered_set>

#include "program/model.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

constexpr int k_max_probe_rounds = 6;

bool named_like_predicate(std::string_view name) {
  const std::string lower = to_lower(name);
  const std::string_view l = lower;
  for (std::string_view prefix : {"is_", "has_", "should_", "can_", "supports_", "use_", "_is_", "_has_", "_should_",
                                  "_can_", "_supports_", "_use_"}) {
    if (starts_with(l, prefix)) return true;
  }
  return ends_with(l, "_available") || ends_with(l, "_supported");
}

bool asks_for_cuda(const facts::CallFact& call) {
  const FactString& d = call.callee.dotted();
  return d == "torch.cuda.is_available" || d == "torch.cuda.get_device_capability" ||
         d == "torch.cuda.get_device_properties" || d == "torch.cuda.device_count";
}

// `OperatorExecutor("unsloth")`, `FusionExecutor("x")`, `register_executor("x")`: the name.
std::string registered_name(const facts::CallFact& call) {
  const std::string callee = last_name(call.callee.empty() ? call.callee_text : call.callee.dotted());
  const bool registers = ends_with(callee, "Executor") || callee == "register_executor";
  if (!registers) return {};
  for (const auto& arg : call.args) {
    if (arg.kind == facts::LiteralKind::string && (arg.keyword.empty() || arg.keyword == "name")) return arg.value;
  }
  return {};
}

bool selects_registered(std::string_view option) {
  // Only executor lists: `backend` options (`backend="nccl"`) select far more than plugins.
  for (std::string_view name : {"executors", "executor"}) {
    if (option == name) return true;
  }
  return false;
}

bool mentions(std::string_view text, const std::string& name) {
  return text.find('"' + name + '"') != std::string_view::npos ||
         text.find('\'' + name + '\'') != std::string_view::npos;
}

// The registering module's folder is the plugin: its kernels and helpers run only when it is chosen.
void gate_package(Program::Impl& impl, std::size_t registering, const std::string& option) {
  const FactString& path = impl.files[registering].path;
  const auto slash = path.rfind('/');
  const std::string folder = slash == std::string::npos ? std::string() : std::string(path.substr(0, slash + 1));
  for (std::size_t f = 0; f < impl.files.size(); ++f) {
    const bool inside = f == registering || (!folder.empty() && starts_with(impl.files[f].path, folder));
    if (!inside || impl.files[f].is_test || !impl.module_gate_option[f].empty()) continue;
    impl.module_gate[f] |= facts::guard_bit(facts::Guard::opt_in);
    impl.module_gate_option[f] = option;
  }
}

}  // namespace

std::string last_name(std::string_view dotted) {
  const auto paren = dotted.find('(');
  if (paren != std::string_view::npos) dotted = dotted.substr(0, paren);
  const auto dot = dotted.rfind('.');
  return std::string(dot == std::string_view::npos ? dotted : dotted.substr(dot + 1));
}

std::optional<FileId> import_target(const Program::Impl& impl, FileId file, std::size_t import_index) {
  if (impl.symbols->origins()[file.value][import_index] != ImportOrigin::local_source) return std::nullopt;
  const auto& fact = impl.files[file.value].imports[import_index];
  std::optional<FileId> target = impl.symbols->module_from(file, fact.target.dotted());
  if (!target) target = impl.symbols->module_from(file, fact.module.dotted());
  if (target && *target == file) return std::nullopt;
  return target;
}

std::optional<FileId> star_import_target(const Program::Impl& impl, FileId file, std::size_t import_index) {
  const auto& fact = impl.files[file.value].imports[import_index];
  if (!fact.star) return std::nullopt;
  const std::optional<FileId> target = impl.symbols->module_from(file, fact.module.dotted());
  if (target && *target == file) return std::nullopt;
  return target;
}

void index_local_imports(Program::Impl& impl) {
  impl.imported_by.assign(impl.files.size(), {});
  impl.star_imported_by.assign(impl.files.size(), {});
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& file = impl.files[f];
    if (file.is_test) continue;
    for (std::size_t i = 0; i < file.imports.size(); ++i) {
      if (file.imports[i].lazy) continue;
      if (const auto star = star_import_target(impl, FileId{f}, i))
        impl.star_imported_by[star->value].push_back(FileId{f});
      if (const auto target = import_target(impl, FileId{f}, i))
        impl.imported_by[target->value].emplace_back(FileId{f}, i);
    }
  }
}

void find_cuda_probes(Program::Impl& impl) {
  auto& probes = impl.cuda_probes;
  for (const auto& file : impl.files) {
    if (file.is_test) continue;
    for (const auto& call : file.calls) {
      if (call.ctx.function < 0 || !asks_for_cuda(call)) continue;
      const auto& fn = file.functions[static_cast<std::size_t>(call.ctx.function)];
      if (named_like_predicate(fn.name)) probes.insert(fn.name);
    }
  }
  for (int round = 0; round < k_max_probe_rounds; ++round) {  // predicates that call a probe
    const std::size_t before = probes.size();
    for (const auto& file : impl.files) {
      if (file.is_test) continue;
      for (const auto& call : file.calls) {
        if (call.ctx.function < 0) continue;
        const auto& fn = file.functions[static_cast<std::size_t>(call.ctx.function)];
        if (named_like_predicate(fn.name) && probes.count(last_name(call.callee_text))) probes.insert(fn.name);
      }
    }
    if (probes.size() == before) break;
  }
}

void find_registered_executors(Program::Impl& impl) {
  // Every default the repo gives a selecting option (`executors=("sdpa", "nvfuser")`).
  std::vector<std::string> defaults;
  for (const auto& file : impl.files) {
    if (file.is_test) continue;
    for (const auto& fn : file.functions) {
      for (const auto& param : fn.param_defaults) {
        if (selects_registered(param.keyword) && param.kind != facts::LiteralKind::null)
          defaults.push_back(param.value);
      }
    }
  }
  impl.module_gate.assign(impl.files.size(), 0);
  impl.module_gate_option.assign(impl.files.size(), {});
  if (defaults.empty()) return;
  for (std::size_t f = 0; f < impl.files.size(); ++f) {
    for (const auto& call : impl.files[f].calls) {
      if (call.ctx.function >= 0 || call.ctx.klass >= 0) continue;
      const std::string name = registered_name(call);
      if (name.empty()) continue;
      bool chosen = false;
      for (const auto& text : defaults) chosen |= mentions(text, name);
      if (chosen) continue;
      gate_package(impl, f, "executors include \"" + name + "\"");
    }
  }
}

}  // namespace tr2audit::program
