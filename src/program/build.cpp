// Program::build: the repository model's passes, in order, each timed for `--stats`.
#include <algorithm>
#include <chrono>
#include <memory>

#include "program/model.hpp"
#include "program/symbols.hpp"
#include "tr2audit/program/program.hpp"

namespace tr2audit::program {

namespace {

// The passes of Program::build that need more than the model itself, as passes.
void build_symbols(Program::Impl& impl) {
  impl.symbols = std::make_unique<Symbols>(impl.files);
}

// A one-file scan with no entry point of its own is judged as its own training path.
void add_scanned_file_entry(Program::Impl& impl) {
  if (impl.single_file && impl.files.size() == 1 &&
      std::none_of(impl.entries.begin(), impl.entries.end(),
                   [](const EntryPoint& e) { return training_roles().test(static_cast<std::size_t>(e.role)); }))
    impl.entries.push_back(EntryPoint{FunctionId{FileId{0}, -1}, Role::setup, "the scanned file"});
}

void note_compiled_code_loader(Program::Impl& impl) {
  impl.lockin_knowledge = {};  // the rules it refers to need not outlive the lock-in passes above
  impl.loads_compiled_code = find_compiled_code_loader(impl);
}

void collect_named_values(Program::Impl& impl) {
  for (const auto& file : impl.files) {
    if (file.is_test) continue;
    for (const auto& name : file.used_names) impl.named_as_value.emplace(name.view());
    for (const auto& entry : file.dispatch_entries) {
      if (!entry.name.empty()) impl.named_as_value.emplace(entry.name.view());
    }
  }
}

struct Pass {
  std::string_view name;
  void (*run)(Program::Impl&);
};

#define TR2AUDIT_PASS(function) \
  Pass {                        \
#function, &function        \
  }
// In order: each pass reads what the ones before it built.
constexpr Pass k_passes[] = {
    TR2AUDIT_PASS(build_symbols),
    TR2AUDIT_PASS(find_ray_actors),
    TR2AUDIT_PASS(infer_types),
    TR2AUDIT_PASS(index_local_imports),
    TR2AUDIT_PASS(build_call_graph),
    TR2AUDIT_PASS(find_step_loops),
    TR2AUDIT_PASS(find_cpu_actor_code),
    TR2AUDIT_PASS(find_vendored_projects),
    TR2AUDIT_PASS(find_entry_points),
    TR2AUDIT_PASS(find_main_block_self_tests),
    TR2AUDIT_PASS(add_scanned_file_entry),
    TR2AUDIT_PASS(propagate_roles),
    TR2AUDIT_PASS(mark_consumed_generators),
    TR2AUDIT_PASS(attribute_entries),
    TR2AUDIT_PASS(find_cuda_probes),
    TR2AUDIT_PASS(find_registered_executors),
    TR2AUDIT_PASS(find_unselected_variants),
    TR2AUDIT_PASS(gate_modules_loaded_by_name),
    TR2AUDIT_PASS(index_call_sites),
    TR2AUDIT_PASS(compute_branch_guards),
    TR2AUDIT_PASS(inherit_guards),
    TR2AUDIT_PASS(guard_fallback_sources),
    TR2AUDIT_PASS(propagate_lockin),
    TR2AUDIT_PASS(find_nki_kernel_calls),
    TR2AUDIT_PASS(find_op_wrappers),
    TR2AUDIT_PASS(link_compiled_sources),
    TR2AUDIT_PASS(note_compiled_code_loader),
    TR2AUDIT_PASS(collect_option_defaults),
    TR2AUDIT_PASS(find_scripts_without_training),
    TR2AUDIT_PASS(find_generation_inputs),
    TR2AUDIT_PASS(find_index_parameters),
    TR2AUDIT_PASS(find_scalar_only_reads),
    TR2AUDIT_PASS(collect_named_values),
};
#undef TR2AUDIT_PASS

}  // namespace

Program Program::build(std::vector<facts::FileFacts> files, bool single_file, LockinKnowledge lockin, unsigned jobs) {
  auto impl = std::make_unique<Impl>();
  impl->files = std::move(files);
  impl->jobs = jobs;
  impl->single_file = single_file;
  impl->lockin_knowledge = std::move(lockin);
  for (const Pass& pass : k_passes) {  // each one's wall time, for `--stats`
    const auto started = std::chrono::steady_clock::now();
    pass.run(*impl);
    impl->pass_times.push_back(PassTime{pass.name, std::chrono::steady_clock::now() - started});
  }
  return Program(std::move(impl));
}

}  // namespace tr2audit::program
