#include "tr2audit/program/program.hpp"

#include <algorithm>
#include <array>

#include "program/call_graph_support.hpp"
#include "program/model.hpp"
#include "program/passed_options.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/facts/region.hpp"

namespace tr2audit::program {
namespace {

constexpr std::array<std::string_view, k_role_count> k_role_names{
    "training-forward", "training-step", "training-eval", "data", "setup", "inference", "export", "tooling", "test"};

constexpr std::size_t k_max_chain = 8;

// `@torch.no_grad()` on the function itself (a matcher or label assigner a training forward calls): its
// code runs every step without gradients, as part of the forward, unlike a `with torch.no_grad():` block.
bool no_grad_helper(const Program::Impl& impl, FileId id, std::int32_t function) {
  if (function < 0 || !impl.at(FunctionId{id, function}).called_in_training) return false;
  const auto& file = impl.files[id.value];
  const auto& fn = file.functions[static_cast<std::size_t>(function)];
  if (facts::named_like_evaluation(fn.name)) return false;
  return std::any_of(fn.decorators.begin(), fn.decorators.end(),
                     [](const QualifiedName& d) { return d.dotted() == "torch.no_grad"; });
}

// Loop `loop` holds a call under no_grad, in its own body or in a loop nested in it.
bool evaluates_without_grad(const facts::FileFacts& file, std::int32_t loop) {
  return std::any_of(file.calls.begin(), file.calls.end(), [&](const facts::CallFact& call) {
    if (!call.ctx.has(facts::Guard::no_grad)) return false;
    for (std::int32_t at = call.ctx.loop; at >= 0; at = file.loops[static_cast<std::size_t>(at)].parent) {
      if (at == loop) return true;
    }
    return false;
  });
}

// `with torch.no_grad(): for _ in range(valid_batches): ... loss.item()` in the epoch loop, beside the loop that
// trains: a validation pass each epoch. The no-grad loop runs no backward, and the loop around it runs backward only
// inside another of its loops (not in its own body, as a step loop's no-grad EMA update would sit).
// So is the loop when only its forward is under no_grad (`model.eval()`, then `for batch in eval_dataloader:` with
// `with torch.no_grad(): outputs = model(**batch)` and the predictions decoded after it): the pass's other code is
// evaluation too, not the training step.
bool validation_pass(const Program::Impl& impl, FileId id, const facts::Context& ctx) {
  if (ctx.loop < 0) return false;
  const auto& file = impl.files[id.value];
  std::int32_t child = ctx.loop;
  if (trains_in_loop(impl, id, child)) return false;
  for (std::int32_t up = file.loops[static_cast<std::size_t>(child)].parent; up >= 0;
       child = up, up = file.loops[static_cast<std::size_t>(up)].parent) {
    if (!trains_in_loop(impl, id, up)) continue;
    if (steps_in_body(impl, id, up)) return false;
    if (!ctx.has(facts::Guard::no_grad) && !evaluates_without_grad(file, child)) return false;
    return std::none_of(file.calls.begin(), file.calls.end(),
                        [&](const facts::CallFact& call) { return call.ctx.loop == up && runs_backward(call); });
  }
  return false;
}

// A file in an evaluation place (`m4/evaluation/`, `evaluation_*.py`) of a repo that trains elsewhere.
bool evaluation_place_of_training_repo(const Program::Impl& impl, const facts::FileFacts& file) {
  return impl.trains_outside_evaluation && in_evaluation_place(file.path);
}

}  // namespace

// `def test_correctness():` (or a bare `def test():`, the self-test a module's `__main__` block runs) in a
// library module, which no training, serving or tooling run calls: a test kept beside the code.
bool is_test_helper(const facts::FileFacts& file, std::int32_t function) {
  for (std::int32_t fn = function; fn >= 0; fn = file.functions[static_cast<std::size_t>(fn)].parent) {
    const auto& info = file.functions[static_cast<std::size_t>(fn)];
    if (info.parent < 0) return info.klass < 0 && (info.name == "test" || info.name.rfind("test_", 0) == 0);
  }
  return false;
}

std::string_view to_string(Role role) {
  return k_role_names[static_cast<std::size_t>(role)];
}

std::optional<Role> parse_role(std::string_view text) {
  for (std::size_t i = 0; i < k_role_count; ++i) {
    if (k_role_names[i] == text) return static_cast<Role>(i);
  }
  return std::nullopt;
}

const std::vector<std::string_view>& role_names() {
  static const std::vector<std::string_view> k_names(k_role_names.begin(), k_role_names.end());
  return k_names;
}

RoleSet training_roles() {
  RoleSet out;
  for (Role r : {Role::training_forward, Role::training_step, Role::training_eval, Role::data, Role::setup})
    out.set(static_cast<std::size_t>(r));
  return out;
}

std::vector<std::string> role_names(RoleSet roles) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < k_role_count; ++i) {
    if (roles.test(i)) out.emplace_back(k_role_names[i]);
  }
  return out;
}

Program::Program(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
Program::Program(Program&&) noexcept = default;
Program& Program::operator=(Program&&) noexcept = default;
Program::~Program() = default;

const std::vector<PassTime>& Program::pass_times() const {
  return m_impl->pass_times;
}

bool Program::pattern_refuted(FileId file, std::uint32_t pattern) const {
  if (file.value >= m_impl->refuted_patterns.size()) return false;
  const auto& refuted = m_impl->refuted_patterns[file.value];
  return std::binary_search(refuted.begin(), refuted.end(), pattern);
}

bool Program::reads_scalar_only(FileId file, std::uint32_t call) const {
  if (file.value >= m_impl->scalar_reads.size()) return false;
  const auto& reads = m_impl->scalar_reads[file.value];
  return std::binary_search(reads.begin(), reads.end(), call);
}

bool Program::loads_compiled_code() const {
  return m_impl->loads_compiled_code;
}

const std::vector<facts::FileFacts>& Program::files() const {
  return m_impl->files;
}

const facts::FileFacts& Program::file(FileId id) const {
  return m_impl->files[id.value];
}

ImportOrigin Program::origin(FileId file, std::size_t import_index) const {
  const auto& origins = m_impl->symbols->origins()[file.value];
  return import_index < origins.size() ? origins[import_index] : ImportOrigin::external;
}

bool Program::imports_callable(FileId file, std::size_t import_index) const {
  return m_impl->symbols->imports_callable(file, import_index);
}

ImportOrigin Program::call_origin(const QualifiedName& callee) const {
  if (m_impl->symbols->is_local_root(callee.first_segment())) return ImportOrigin::local_source;
  // `torch.ops.torchprobe.log` of an op the repo defines with `@torch.library.custom_op("torchprobe::log")`.
  if (portable_python_op_called(*m_impl, callee.dotted())) return ImportOrigin::local_source;
  return ImportOrigin::external;
}

std::string_view Program::library_name(std::string_view dotted) const {
  return m_impl->symbols->library_name(dotted);
}

RoleSet Program::roles(FunctionId function) const {
  return m_impl->at(function).roles;
}

namespace {
std::optional<FileId> file_at(const std::vector<facts::FileFacts>& files, std::string_view path) {
  for (std::uint32_t i = 0; i < files.size(); ++i) {
    if (files[i].path == path) return FileId{i};
  }
  return std::nullopt;
}

/// Roles of the code at a context, given every function's roles (`of`): the innermost enclosing
/// function that has some, else the module body's for module-level code.
template <class RolesOf>
RoleSet roles_at_context(const facts::FileFacts& facts, FileId file, const facts::Context& ctx, RolesOf&& of) {
  for (std::int32_t fn = ctx.function; fn >= 0; fn = facts.functions[static_cast<std::size_t>(fn)].parent) {
    const RoleSet roles = of(FunctionId{file, fn});
    if (roles.any()) return roles;
  }
  // Module-level code, and functions no entry point reaches, take the module body's roles only when
  // the code is at module level.
  return ctx.function < 0 ? of(FunctionId{file, -1}) : RoleSet{};
}
}  // namespace

RoleSet Program::roles_at(FileId file, const facts::Context& ctx) const {
  // A self-test `__main__` block (Impl::main_block_self_test): importing the module never runs it.
  if (ctx.function < 0 && ctx.has(facts::Guard::main_block) && m_impl->main_block_self_test[file.value] != 0)
    return RoleSet{}.set(static_cast<std::size_t>(Role::test));
  return roles_at_context(m_impl->files[file.value], file, ctx, [&](FunctionId id) { return m_impl->at(id).roles; });
}

CodeRoles::CodeRoles(Program&& program) {
  const std::unique_ptr<Program::Impl> impl = std::move(program.m_impl);
  m_roles.resize(impl->state.size());
  for (std::size_t f = 0; f < impl->state.size(); ++f) {
    m_roles[f].reserve(impl->state[f].size());
    for (const FunctionState& state : impl->state[f]) m_roles[f].push_back(state.roles);
  }
  m_files = std::move(impl->files);
}  // the rest of the model goes here

RoleSet CodeRoles::roles(FunctionId function) const {
  const auto& of_file = m_roles[function.file.value];
  const std::size_t slot =
      function.index < 0 ? m_files[function.file.value].functions.size() : static_cast<std::size_t>(function.index);
  return slot < of_file.size() ? of_file[slot] : RoleSet{};
}

RoleSet CodeRoles::roles_at(FileId file, const facts::Context& ctx) const {
  return roles_at_context(m_files[file.value], file, ctx, [&](FunctionId id) { return roles(id); });
}

std::optional<FileId> CodeRoles::find_file(std::string_view path) const {
  return file_at(m_files, path);
}

namespace {
/// The function whose roles the code at a context takes (as roles_at), or nullopt.
std::optional<FunctionId> role_owner(const Program::Impl& impl, FileId file, const facts::Context& ctx) {
  const auto& facts = impl.files[file.value];
  for (std::int32_t fn = ctx.function; fn >= 0; fn = facts.functions[static_cast<std::size_t>(fn)].parent) {
    if (impl.at(FunctionId{file, fn}).roles.any()) return FunctionId{file, fn};
  }
  if (ctx.function < 0) return FunctionId{file, -1};
  return std::nullopt;
}
}  // namespace

bool Program::runs_without_accelerator(FileId file, const facts::Context& ctx) const {
  const auto& code = m_impl->cpu_actor_code;
  if (ctx.function < 0 || file.value >= code.size()) return false;
  return code[file.value][static_cast<std::size_t>(ctx.function)] != 0;
}

bool Program::generation_input(FileId file, std::uint32_t line) const {
  if (file.value >= m_impl->generation_inputs.size()) return false;
  const auto& lines = m_impl->generation_inputs[file.value];
  auto it = std::upper_bound(lines.begin(), lines.end(), std::pair{line, UINT32_MAX});
  return it != lines.begin() && (--it)->first <= line && line <= it->second;
}

bool Program::script_without_training(FileId file) const {
  return file.value < m_impl->script_without_training.size() && m_impl->script_without_training[file.value];
}

bool Program::runs_as_program(FileId file) const {
  return program::runs_as_program(m_impl->files[file.value]);
}

bool Program::vendored(FileId file) const {
  return file.value < m_impl->vendored.size() && m_impl->vendored[file.value];
}

bool Program::defines_method(std::string_view name) const {
  return m_impl->symbols && m_impl->symbols->defines_method(name);
}

bool Program::project_without_training(FileId file) const {
  return file.value < m_impl->project_without_training.size() && m_impl->project_without_training[file.value];
}

bool Program::in_project_without_training(FileId file) const {
  return file.value < m_impl->in_project_without_training.size() && m_impl->in_project_without_training[file.value];
}

bool Program::unreached(FileId file, const facts::Context& ctx) const {
  if (ctx.function < 0 || m_impl->files[file.value].is_test || !has_training_entry() || roles_at(file, ctx).any())
    return false;
  const auto& functions = m_impl->files[file.value].functions;
  const auto& selected = m_impl->config_selected[file.value];
  for (std::int32_t fn = ctx.function; fn >= 0; fn = functions[static_cast<std::size_t>(fn)].parent) {
    const auto& info = functions[static_cast<std::size_t>(fn)];
    if ((static_cast<std::size_t>(fn) < selected.size() && selected[static_cast<std::size_t>(fn)]) ||
        m_impl->named_as_value.count(std::string(info.name.view())))
      return false;
    if (info.klass < 0) continue;
    for (std::size_t m = 0; m < functions.size(); ++m) {
      if (functions[m].klass == info.klass && roles(FunctionId{file, static_cast<std::int32_t>(m)}).any()) return false;
    }
  }
  return true;
}

bool Program::unreached_evaluation(FileId file, const facts::Context& ctx) const {
  const auto& facts = m_impl->files[file.value];
  if (facts.is_test || !evaluation_place_of_training_repo(*m_impl, facts)) return false;
  RoleSet roles = roles_at(file, ctx);
  roles.reset(static_cast<std::size_t>(Role::test));
  return roles.none();
}

DeadCode Program::dead_code(FileId file, const facts::Context& ctx) const {
  const auto& dead = m_impl->dead_function;
  // (A class nothing builds, in a module nothing imports, is dead whatever its own training hooks reach: that
  // reason before the module's, which holds only where no training run reaches the code.)
  const DeadCode own = ctx.function >= 0 && file.value < dead.size()
                           ? dead[file.value][static_cast<std::size_t>(ctx.function)]
                           : DeadCode::live;
  if (own == DeadCode::unused_class) return own;
  if (file.value < m_impl->dead_module.size() && m_impl->dead_module[file.value] != DeadCode::live)
    return m_impl->dead_module[file.value];
  return own;
}

bool Program::training_reached(FileId file, const facts::Context& ctx) const {
  const auto owner = role_owner(*m_impl, file, ctx);
  return owner && m_impl->at(*owner).training_reached;
}

bool Program::runs_once(FileId file, const facts::Context& ctx) const {
  if (ctx.loop >= 0 || m_impl->files[file.value].is_test) return false;
  const auto owner = role_owner(*m_impl, file, ctx);
  if (!owner) return false;
  const FunctionState& st = m_impl->at(*owner);
  RoleSet roles = st.roles;
  roles.reset(static_cast<std::size_t>(Role::test));
  return roles.any() && !st.repeats;
}

bool Program::always_passed(FileId file, std::int32_t function, std::string_view name) const {
  return m_impl->call_sites->always_passed(FunctionId{file, function}, name);
}

bool Program::in_training_loop(FileId file, const facts::Context& ctx) const {
  return program::in_training_loop(*m_impl, file, ctx);
}

const std::vector<std::uint32_t>& Program::entries_at(FileId file, const facts::Context& ctx) const {
  static const std::vector<std::uint32_t> none;
  const auto owner = role_owner(*m_impl, file, ctx);
  return owner ? m_impl->at(*owner).entries : none;
}

facts::Region Program::region_at(FileId file, const facts::Context& ctx, std::uint32_t line) const {
  const auto& facts = m_impl->files[file.value];
  if (facts.is_test) return facts::Region::test;
  if (ctx.has(facts::Guard::not_training)) return facts::Region::inference;  // eval-mode or decoding branch
  const facts::Region syntactic = facts::region_of(facts, ctx);
  RoleSet roles = roles_at(file, ctx);
  roles.reset(static_cast<std::size_t>(Role::test));  // library code the tests exercise keeps its own place
  if (roles.none()) {
    if (is_test_helper(facts, ctx.function)) return facts::Region::test;
    // The `__main__` block of a module other modules import checks that module: a self-test.
    if (ctx.function < 0 && ctx.has(facts::Guard::main_block) &&
        (!m_impl->imported_by[file.value].empty() || m_impl->main_block_self_test[file.value] != 0))
      return facts::Region::test;
    // A function no entry point reaches that is named for inference (`Qwen3Attention_fast_forward_inference`,
    // the KV-cache decode path a model's generate runs, `forward_inference`): inference, as a call of it from
    // training code would be (program/roles).
    if (syntactic == facts::Region::evaluation) {
      for (std::int32_t fn = ctx.function; fn >= 0; fn = facts.functions[static_cast<std::size_t>(fn)].parent) {
        if (to_lower(facts.functions[static_cast<std::size_t>(fn)].name).find("inference") != std::string::npos)
          return facts::Region::inference;
      }
    }
    // Code no entry point reaches, with no role of its own (not a forward, a step or data code), in a file
    // its path files under inference, export or tooling (`prompt_guard/inference.py`): the path breaks the tie.
    if (syntactic == facts::Region::other || syntactic == facts::Region::setup ||
        syntactic == facts::Region::evaluation) {
      if (const auto by_path = role_by_path(facts.path)) {
        if (*by_path == Role::inference) return facts::Region::inference;
        if (*by_path == Role::export_) return facts::Region::export_;
        if (*by_path == Role::tooling) return facts::Region::tooling;
      }
      // ... or under evaluation (`m4/evaluation/evaluators/`, `evaluation_open_ended_vqa.py`) in a repo that
      // trains elsewhere.
      if (evaluation_place_of_training_repo(*m_impl, facts)) return facts::Region::evaluation;
    }
    return syntactic;
  }
  const auto has = [&](Role r) { return roles.test(static_cast<std::size_t>(r)); };
  if (has(Role::training_forward))
    return ctx.has(facts::Guard::no_grad) && syntactic == facts::Region::evaluation &&
                   !no_grad_helper(*m_impl, file, ctx.function)
               ? syntactic
               : facts::Region::forward;
  // A callback defined inside the training function and handed to the trainer (`on_evaluate` of a
  // TrainerCallback) is reached by no call: its evaluation or logging hook keeps its own place.
  if (ctx.function >= 0 && m_impl->at(FunctionId{file, ctx.function}).roles.none() &&
      syntactic == facts::Region::evaluation &&
      facts::named_like_evaluation(facts.functions[static_cast<std::size_t>(ctx.function)].name))
    return syntactic;
  if (has(Role::training_step)) {
    if (once_per_epoch(*m_impl, file, ctx)) return facts::Region::setup;
    if (validation_pass(*m_impl, file, ctx) || facts::in_periodic_evaluation(facts, ctx, line))
      return facts::Region::evaluation;
    if (program::in_training_loop(*m_impl, file, ctx)) return facts::Region::training_step;
    if (drives_training_loop(*m_impl, file, ctx.function)) return facts::Region::setup;
    // (Outside the epoch loop of a function whose loop runs `train_epoch(...)`: the run's setup, once.)
    if (ctx.loop < 0 && drives_epoch_loop(*m_impl, file, ctx.function)) return facts::Region::setup;
    if (outside_trainer_run(trainer_run(facts, ctx.function), line)) return facts::Region::setup;
    if (ctx.has(facts::Guard::no_grad) && syntactic == facts::Region::evaluation) return facts::Region::training_step;
    return syntactic == facts::Region::setup && ctx.function >= 0 ? facts::Region::setup : facts::Region::training_step;
  }
  if (has(Role::data)) return facts::Region::data_pipeline;
  // A helper both setup and an evaluation inside the loop call (`parse_devices`) runs in every run's
  // setup; evaluation runs only when the run evaluates.
  if (has(Role::training_eval) && (!has(Role::setup) || syntactic == facts::Region::evaluation))
    return facts::Region::evaluation;
  if (has(Role::setup))
    return syntactic == facts::Region::forward || syntactic == facts::Region::data_pipeline ||
                   syntactic == facts::Region::evaluation
               ? syntactic
               : facts::Region::setup;
  // An evaluation a training run does once, after training (`evaluate(model, test_loader)` after
  // `trainer.fit`), is off the training path but keeps its place: it runs on the same device in the same job.
  if (has(Role::inference))
    return syntactic == facts::Region::evaluation && training_reached(file, ctx) ? syntactic : facts::Region::inference;
  if (has(Role::export_)) return facts::Region::export_;
  return facts::Region::tooling;
}

std::string Program::describe(FunctionId function) const {
  const auto& facts = m_impl->files[function.file.value];
  if (facts.kind == discover::FileKind::cuda_source)
    return facts.path;  // a kernel source, reached through its extension
  return facts.path + ":" +
         (function.index >= 0 ? facts.functions[static_cast<std::size_t>(function.index)].qualname
                              : std::string("<module>"));
}

std::string Program::reached_from(FileId file, const facts::Context& ctx) const {
  const auto& facts = m_impl->files[file.value];
  FunctionId at{file, ctx.function};
  const auto run_roles = [&](FunctionId id) {  // tests reaching library code say nothing of a run
    RoleSet roles = m_impl->at(id).roles;
    if (!facts.is_test) roles.reset(static_cast<std::size_t>(Role::test));
    return roles;
  };
  for (std::int32_t fn = ctx.function; fn >= 0; fn = facts.functions[static_cast<std::size_t>(fn)].parent) {
    at = FunctionId{file, fn};
    if (run_roles(at).any()) break;
  }
  if (run_roles(at).none()) return {};
  std::vector<FunctionId> chain{at};
  while (chain.size() < k_max_chain && m_impl->at(chain.back()).has_via) {
    const FunctionId next = m_impl->at(chain.back()).via;
    if (std::find(chain.begin(), chain.end(), next) != chain.end()) break;
    // A test is no entry point of a run: the chain of library code stops where a test would begin it.
    if (!facts.is_test && m_impl->files[next.file.value].is_test) break;
    chain.push_back(next);
  }
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (!out.empty()) out += " → ";
    const bool first = it == chain.rbegin();
    const bool new_file = !first && (it - 1)->file.value != it->file.value;
    out += first || new_file
               ? describe(*it)
               : (it->index >= 0 ? m_impl->files[it->file.value].functions[static_cast<std::size_t>(it->index)].qualname
                                 : std::string("<module>"));
  }
  return out;
}

std::uint16_t guards_at(const Program::Impl& impl, FileId file, const facts::Context& ctx) {
  std::uint16_t guards = ctx.guards | impl.inherited_guards[file.value][impl.slot(FunctionId{file, ctx.function})];
  const auto& facts = impl.files[file.value];
  for (std::int32_t fn = ctx.function; fn >= 0; fn = facts.functions[static_cast<std::size_t>(fn)].parent)
    guards |= impl.inherited_guards[file.value][static_cast<std::size_t>(fn)];
  // A module that only runs behind a gate (imported only under it) runs its functions behind it too.
  guards |= impl.inherited_guards[file.value][impl.slot(FunctionId{file, -1})];
  const auto& extra = impl.branch_guards[file.value];
  const auto& branches = impl.files[file.value].branches;
  for (std::int32_t b = ctx.branch; b >= 0; b = branches[static_cast<std::size_t>(b)].parent)
    guards |= extra[static_cast<std::size_t>(b)];
  return guards;
}

std::string opt_in_option(const Program::Impl& impl, FileId file, const facts::Context& ctx) {
  const auto& options = impl.branch_option[file.value];
  const auto& facts = impl.files[file.value];
  const auto& branches = facts.branches;
  for (std::int32_t b = ctx.branch; b >= 0; b = branches[static_cast<std::size_t>(b)].parent) {
    if (const std::string& option = options.at(b); !option.empty()) return option;
  }
  for (std::int32_t fn = ctx.function;; fn = facts.functions[static_cast<std::size_t>(fn)].parent) {
    const std::string& inherited = impl.inherited_option[file.value][impl.slot(FunctionId{file, fn})];
    if (!inherited.empty()) return inherited;
    if (fn < 0) break;
  }
  return {};
}

std::uint16_t Program::guards_at(FileId file, const facts::Context& ctx) const {
  return program::guards_at(*m_impl, file, ctx);
}

std::string Program::opt_in_option(FileId file, const facts::Context& ctx) const {
  return program::opt_in_option(*m_impl, file, ctx);
}

const std::vector<facts::PatternFact>& Program::patterns(FileId file) const {
  return m_impl->derived[file.value];
}

bool Program::is_lockin(FunctionId function) const {
  return m_impl->lockin[function.file.value][m_impl->slot(function)].lockin;
}

std::string Program::lockin_chain(FunctionId function) const {
  const LockinState& state = m_impl->lockin[function.file.value][m_impl->slot(function)];
  if (!state.lockin) return {};
  if (!state.has_next) return describe(function) + " → " + m_impl->lockin_seeds[state.seed];
  return program::lockin_chain(*m_impl, function, state.next);
}

std::vector<std::string> Program::type_notes(FileId file) const {
  const auto& impl = *m_impl;
  const auto class_name = [&](ClassId c) {
    return impl.files[c.file.value].classes[static_cast<std::size_t>(c.index)].qualname;
  };
  std::vector<std::string> out;
  for (const auto& [name, registry] : impl.types.registries) {
    for (const ClassId& c : registry.classes) {
      if (c.file == file) out.push_back(name + ".register: " + class_name(c));
    }
    for (const FunctionId& fn : registry.functions) {
      if (fn.file == file)
        out.push_back(name +
                      ".register: " + impl.files[file.value].functions[static_cast<std::size_t>(fn.index)].qualname);
    }
  }
  for (const auto& [key, classes] : impl.types.attributes) {
    if (std::get<0>(key) != file.value) continue;
    std::string line = impl.files[file.value].classes[static_cast<std::size_t>(std::get<1>(key))].qualname + "." +
                       std::get<2>(key) + ":";
    for (const ClassId& c : classes) line += " " + class_name(c);
    out.push_back(std::move(line));
  }
  for (const auto& [function, chain] : impl.wrappers[file.value])
    out.push_back(impl.files[file.value].functions[static_cast<std::size_t>(function)].qualname + " wraps " + chain);
  std::sort(out.begin(), out.end());
  return out;
}

bool Program::neuron_stack() const {
  return m_impl->neuron_stack;
}

std::uint64_t Program::training_lines() const {
  std::uint64_t lines = 0;
  for (std::uint32_t f = 0; f < m_impl->files.size(); ++f) {
    const auto& file = m_impl->files[f];
    // The training path's Python: a kernel source the path calls into is porting work, not its size.
    if (file.is_test || file.kind == discover::FileKind::cuda_source) continue;
    if (m_impl->at(FunctionId{FileId{f}, -1}).training_reached) {
      lines += file.lines;
      continue;
    }
    for (std::size_t i = 0; i < file.functions.size(); ++i) {
      const auto& fn = file.functions[i];
      const bool outer = fn.parent < 0 || !m_impl->at(FunctionId{FileId{f}, fn.parent}).training_reached;
      if (outer && m_impl->at(FunctionId{FileId{f}, static_cast<std::int32_t>(i)}).training_reached)
        lines += fn.at.end_line >= fn.at.line ? fn.at.end_line - fn.at.line + 1 : 1;
    }
  }
  return lines;
}

std::uint64_t Program::entry_lines(std::size_t entry) const {
  return entry < m_impl->entry_lines.size() ? m_impl->entry_lines[entry] : 0;
}

const std::vector<EntryPoint>& Program::entry_points() const {
  return m_impl->entries;
}

bool Program::has_training_entry() const {
  return std::any_of(m_impl->entries.begin(), m_impl->entries.end(),
                     [](const EntryPoint& e) { return training_roles().test(static_cast<std::size_t>(e.role)); });
}

std::optional<FileId> Program::find_file(std::string_view path) const {
  return file_at(m_impl->files, path);
}

// Why a finding's code never runs, for its message (pipeline/scan appends it), beside the DeadCode kinds it names.
std::string dead_code_note(DeadCode why) {
  switch (why) {
    case DeadCode::unused_private_helper:
      return " (dead code: no repo code outside tests calls or names this private helper)";
    case DeadCode::unused_class:
      return " (dead code: no repo code outside tests builds, subclasses, imports or names this class, and no string "
             "or config names it; the package holding it trains through other code)";
    case DeadCode::shadowed:
      return " (dead code: a later definition of the same name in this scope replaces it, so no call runs it)";
    case DeadCode::unreferenced_nested:
      return " (dead code: a nested function its enclosing function never calls, passes or names, so nothing can "
             "run it)";
    case DeadCode::used_only_by_dead_code:
      return " (dead code: the only repo code outside tests that launches or names this kernel is itself dead)";
    case DeadCode::unused_actor_method:
      return " (dead code: a Ray actor's method runs only through its handles, and no repo code outside tests names "
             "it)";
    case DeadCode::unimported_module:
      return " (dead code: no repo code imports or names this patch module, so its patch is never applied)";
    case DeadCode::test_only_module:
      return " (test code: only the repo's tests import this module)";
    case DeadCode::unexported_module:
      return " (dead code: no repo code imports or names this module, and its package's __init__ imports its "
             "siblings but not it)";
    case DeadCode::orphan_model_copy:
      return " (dead code: no repo code imports or names this copy of a model's modeling file; the repo's models "
             "come from elsewhere)";
    case DeadCode::unused_module:
      return " (dead code: no repo code imports or names this module, and the package holding it trains through "
             "other modules)";
    case DeadCode::outside_import_closure:
      return " (dead code: only modules that never run import this one: no script, entry point or module the repo "
             "runs imports it, directly or through others)";
    case DeadCode::unbuilt_source:
      return " (not built: the repo's builds name the CUDA sources they compile, and none names this file)";
    case DeadCode::live:
      break;
  }
  return {};
}

}  // namespace tr2audit::program
