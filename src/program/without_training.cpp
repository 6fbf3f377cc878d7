// Code that does not train: scripts and notebooks that run a model without training it, and manifests below the
// root whose folder holds no training code (a serving, benchmark or extraction app beside the training code).
// Read after roles, once a repo is known to train.
#include <algorithm>
#include <string>

#include "program/model.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {

namespace {

// Manifests below the root whose folder's Python code has no training role (called once a repo is known
// to train).
void find_projects_without_training(Program::Impl& impl) {
  const std::size_t files = impl.files.size();
  impl.project_without_training.assign(files, false);
  impl.in_project_without_training.assign(files, false);
  for (std::uint32_t f = 0; f < files; ++f) {
    const auto& manifest = impl.files[f];
    const auto slash = manifest.path.rfind('/');
    if (manifest.dependencies.empty() || manifest.is_test || slash == std::string::npos) continue;
    const std::string folder(manifest.path.substr(0, slash + 1));
    bool python = false;
    bool trains = false;
    for (std::uint32_t g = 0; g < files && !trains; ++g) {
      const auto& file = impl.files[g];
      const bool code = file.kind == discover::FileKind::python || file.kind == discover::FileKind::notebook;
      if (file.is_test || !code || !starts_with(file.path, folder)) continue;
      python = true;
      trains = std::any_of(impl.state[g].begin(), impl.state[g].end(),
                           [](const FunctionState& s) { return (s.roles & training_roles()).any(); });
    }
    impl.project_without_training[f] = python && !trains;
    if (!python || trains) continue;
    for (std::uint32_t g = 0; g < files; ++g) {
      const auto& file = impl.files[g];
      const bool code = file.kind == discover::FileKind::python || file.kind == discover::FileKind::notebook;
      if (code && !file.is_test && starts_with(file.path, folder)) impl.in_project_without_training[g] = true;
    }
  }
}

}  // namespace

bool runs_as_program(const facts::FileFacts& file) {
  if (file.kind == discover::FileKind::notebook) return true;
  if (file.kind != discover::FileKind::python) return false;
  // A `__main__` block, a flat script that parses its command line at the top level (`args =
  // parser.parse_args()` outside any function), or functions a runner calls (Modal's `@app.function`,
  // `@app.local_entrypoint`).
  return std::any_of(file.calls.begin(), file.calls.end(),
                     [](const facts::CallFact& c) {
                       return c.ctx.has(facts::Guard::main_block) ||
                              (c.ctx.function < 0 && c.ctx.klass < 0 && c.method == "parse_args");
                     }) ||
         std::any_of(file.decorators.begin(), file.decorators.end(), [](const facts::DecoratorFact& d) {
           const std::string_view name = d.decorator.last_segment();
           return d.ctx.function < 0 && d.ctx.klass < 0 && (name == "local_entrypoint" || name == "function") &&
                  d.decorator.segments().size() >= 2;
         });
}

void find_scripts_without_training(Program::Impl& impl) {
  const std::size_t files = impl.files.size();
  impl.script_without_training.assign(files, false);
  const bool trains = std::any_of(impl.entries.begin(), impl.entries.end(), [](const EntryPoint& e) {
    return training_roles().test(static_cast<std::size_t>(e.role));
  });
  if (!trains) return;  // a library with no training script is judged by its code
  std::vector<bool> has_entry(files, false);
  // A file whose code calls a training entry point, directly or through the repo's functions (a notebook
  // that calls `train(model, ...)` from the repo's package), drives training: it trains.
  std::vector<std::vector<std::vector<FunctionId>>> callers(files);
  for (std::uint32_t f = 0; f < files; ++f) callers[f].resize(impl.files[f].functions.size() + 1);
  for (std::uint32_t f = 0; f < files; ++f) {
    if (impl.files[f].is_test) continue;
    const auto& slots = impl.edges[f];
    for (std::size_t s = 0; s < slots.size(); ++s) {
      const FunctionId caller{FileId{f}, s == impl.files[f].functions.size() ? -1 : static_cast<std::int32_t>(s)};
      for (const Edge& edge : slots[s]) {
        if (edge.target.index >= -1) callers[edge.target.file.value][impl.slot(edge.target)].push_back(caller);
      }
    }
  }
  std::vector<std::vector<bool>> drives(files);
  for (std::uint32_t f = 0; f < files; ++f) drives[f].assign(impl.files[f].functions.size() + 1, false);
  std::vector<FunctionId> work;
  for (const EntryPoint& e : impl.entries) {
    if (!training_roles().test(static_cast<std::size_t>(e.role))) continue;
    has_entry[e.function.file.value] = true;
    work.push_back(e.function);
  }
  while (!work.empty()) {
    const FunctionId at = work.back();
    work.pop_back();
    for (const FunctionId& caller : callers[at.file.value][impl.slot(at)]) {
      auto&& seen = drives[caller.file.value][impl.slot(caller)];
      if (seen) continue;
      seen = true;
      has_entry[caller.file.value] = true;
      work.push_back(caller);
    }
  }
  // A script that imports what a training entry point's file defines (`from pkg.workers import
  // TrainingWorker`, started as a Ray actor the call graph does not follow) drives that training.
  std::vector<bool> imports_training(files, false);
  for (std::uint32_t f = 0; f < files; ++f) {
    const auto& file = impl.files[f];
    if (file.is_test) continue;
    for (std::size_t i = 0; i < file.imports.size() && !imports_training[f]; ++i) {
      if (impl.symbols->origins()[f][i] != ImportOrigin::local_source) continue;
      const Symbol symbol = impl.symbols->lookup(file.imports[i].target.dotted());
      std::optional<std::uint32_t> defined;
      if (symbol.kind == Symbol::Kind::klass) defined = symbol.klass.file.value;
      if (symbol.kind == Symbol::Kind::function) defined = symbol.function.file.value;
      if (symbol.kind == Symbol::Kind::module) defined = symbol.module.value;
      imports_training[f] = defined && *defined != f && has_entry[*defined];
    }
  }
  for (std::uint32_t f = 0; f < files; ++f) {
    const auto& file = impl.files[f];
    if (file.is_test || !impl.imported_by[f].empty() || has_entry[f] || imports_training[f]) continue;
    // A vendored project's scripts have no entry points here (they may well train); the vendored
    // project is off the training path on its own account.
    if (!runs_as_program(file) || impl.vendored[f]) continue;
    const auto& states = impl.state[f];
    const bool reached =
        std::any_of(states.begin(), states.end(), [](const FunctionState& s) { return s.training_reached; });
    impl.script_without_training[f] = !reached;
  }
  find_projects_without_training(impl);
}

}  // namespace tr2audit::program
