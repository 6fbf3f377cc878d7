// program/inference_users: a module whose only users run a model without training it (a captioning tool's
// vendored LLaVA, a search engine's reader model loaded with `from_pretrained` and run under
// `torch.inference_mode()`): the forwards it defines are inference by default, not a library's training
// default (Propagation::library_defaults).
#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "program/model.hpp"
#include "tr2audit/facts/region.hpp"

namespace tr2audit::program {
namespace {

bool inference_call(const facts::CallFact& call) {
  const std::string_view callee = call.callee.dotted();
  if (callee == "torch.inference_mode" || callee == "torch.no_grad") return true;
  const std::string_view method = call.method.view();
  return call.callee.empty() && ((method == "eval" && call.args.empty()) || method == "generate");
}

bool inference_decorator(const facts::DecoratorFact& decorator) {
  const std::string_view name = decorator.decorator.dotted();
  return name == "torch.inference_mode" || name == "torch.no_grad";
}

// The importer runs no training and shows it runs a model for inference: a role of inference, export or
// tooling, or `.eval()` / `torch.no_grad()` / `torch.inference_mode()` / `.generate(...)` with no backward
// and no optimizer step anywhere in it.
bool runs_inference_only(const Program::Impl& impl, FileId id) {
  const facts::FileFacts& file = impl.files[id.value];
  const auto& states = impl.state[id.value];
  RoleSet roles;
  for (const FunctionState& st : states) {
    if (st.training_reached) return false;
    roles |= st.roles;
  }
  if ((roles & training_roles()).any()) return false;
  // A forward or step nothing reaches yet is a library's training code by default (Propagation::library_defaults),
  // not inference: `LlamaAttention_fast_forward` beside `LlamaAttention_fast_forward_inference`.
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(file.functions.size()); ++i) {
    const auto own = facts::function_role(file, i);
    if ((own == facts::Region::forward || own == facts::Region::training_step) &&
        states[static_cast<std::size_t>(i)].roles.none())
      return false;
  }
  if (roles.test(static_cast<std::size_t>(Role::inference)) || roles.test(static_cast<std::size_t>(Role::export_)) ||
      roles.test(static_cast<std::size_t>(Role::tooling)))
    return true;
  if (std::any_of(file.functions.begin(), file.functions.end(),
                  [](const facts::FunctionInfo& fn) { return fn.calls_backward || fn.calls_optimizer_step; }))
    return false;
  return std::any_of(file.calls.begin(), file.calls.end(), inference_call) ||
         std::any_of(file.decorators.begin(), file.decorators.end(), inference_decorator);
}

// `@register_model("fastspeech2")`: a registry builds the class by a name from the command line or a config.
bool registers_classes(const facts::FileFacts& file) {
  return std::any_of(file.decorators.begin(), file.decorators.end(), [](const facts::DecoratorFact& decorator) {
    return decorator.decorator.dotted().view().find("register") != std::string_view::npos ||
           decorator.text.view().find("register") != std::string_view::npos;
  });
}

}  // namespace

std::vector<bool> inference_only_modules(const Program::Impl& impl) {
  const std::size_t n = impl.files.size();
  // A repo that imports its modules by computed name (fairseq's `models/__init__.py` importing every file of its
  // folder, then building models by registry name) has users no import edge shows.
  if (loads_modules_by_name(impl)) return std::vector<bool>(n, false);
  // Per file: the non-test, non-`__init__` files that import it, through package `__init__`s.
  std::vector<std::vector<std::uint32_t>> users(n);
  for (std::uint32_t f = 0; f < n; ++f) {
    if (impl.files[f].is_test || impl.files[f].is_package_init || impl.imported_by[f].empty()) continue;
    std::vector<std::uint32_t> work{f};
    for (std::size_t next = 0; next < work.size() && work.size() <= 64; ++next) {
      std::vector<FileId> importers = impl.star_imported_by[work[next]];  // star imports too
      for (const auto& [importer, index] : impl.imported_by[work[next]]) importers.push_back(importer);
      for (const FileId importer : importers) {
        const facts::FileFacts& user = impl.files[importer.value];
        if (user.is_test || importer.value == f) continue;
        std::vector<std::uint32_t>& into = user.is_package_init ? work : users[f];
        if (std::find(into.begin(), into.end(), importer.value) == into.end()) into.push_back(importer.value);
      }
    }
  }
  // Files that call or name a class of the module (`from llava.model import *` then
  // `LlavaLlamaForCausalLM.from_pretrained(...)` in train.py; an import by a path the repo does not hold): users
  // no import edge shows.
  std::unordered_map<std::string_view, std::vector<std::uint32_t>> defined_in;
  for (std::uint32_t f = 0; f < n; ++f) {
    if (users[f].empty()) continue;
    for (const facts::ClassInfo& klass : impl.files[f].classes) defined_in[klass.name.view()].push_back(f);
  }
  for (std::uint32_t g = 0; g < n && !defined_in.empty(); ++g) {
    if (impl.files[g].is_test || impl.files[g].is_package_init) continue;
    const auto mark = [&](std::string_view text) {
      const auto it = defined_in.find(text.substr(0, text.find('.')));
      if (it == defined_in.end()) return;
      for (const std::uint32_t f : it->second) {
        if (f != g && std::find(users[f].begin(), users[f].end(), g) == users[f].end()) users[f].push_back(g);
      }
    };
    for (const facts::CallFact& call : impl.files[g].calls) mark(call.callee_text.view());
    for (const facts::ReferenceFact& reference : impl.files[g].references) mark(reference.text.view());
  }
  // A module with training code of its own (a training script a generation tool imports for its model class).
  std::vector<bool> trains(n, false);
  for (std::uint32_t f = 0; f < n; ++f) {
    const auto& states = impl.state[f];
    trains[f] = std::any_of(states.begin(), states.end(), [](const FunctionState& st) {
      return st.training_reached || (st.roles & training_roles()).any();
    });
  }
  for (const EntryPoint& entry : impl.entries) trains[entry.function.file.value] = true;
  std::vector<bool> inference_user(n, false);
  for (std::uint32_t f = 0; f < n; ++f) inference_user[f] = runs_inference_only(impl, FileId{f});
  // A module imported only by such users, or by modules that only such users import (the vendored VLM's own
  // attention module, imported by its model file), to a fixed point.
  std::vector<bool> only(n, false);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t f = 0; f < n; ++f) {
      if (only[f] || users[f].empty() || trains[f] || registers_classes(impl.files[f])) continue;
      if (std::all_of(users[f].begin(), users[f].end(),
                      [&](std::uint32_t u) { return inference_user[u] || only[u]; })) {
        only[f] = true;
        changed = true;
      }
    }
  }
  return only;
}

}  // namespace tr2audit::program
