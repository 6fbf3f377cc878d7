// Guards that callers impose: a function every one of whose call sites sits under the same gate (an
// opt-in option, a CUDA-availability check, an ImportError fallback, an eval-only branch) runs only
// behind that gate, and so does a module whose every import sits behind one. Computed as the greatest
// fixpoint over the call graph (and local imports), so chains of helpers inherit it; test code's
// calls do not count (tests call everything).
#include <algorithm>
#include <map>
#include <set>
#include <string_view>

#include "program/call_graph_support.hpp"
#include "program/model.hpp"
#include "program/symbols.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

constexpr std::uint16_t k_inherited =
    facts::guard_bit(facts::Guard::cuda_available) | facts::guard_bit(facts::Guard::device_branch) |
    facts::guard_bit(facts::Guard::import_error_fallback) | facts::guard_bit(facts::Guard::opt_in) |
    facts::guard_bit(facts::Guard::not_training) | facts::guard_bit(facts::Guard::periodic);
constexpr std::uint16_t k_periodic = facts::guard_bit(facts::Guard::periodic);
constexpr int k_max_rounds = 12;
constexpr int k_class_passes = 3;

struct Site {
  FunctionId caller;
  std::uint16_t guards;  ///< the site's own guards plus its branches' repo-wide guards
  std::string option;
};

// `KVCache`, `RingKVCache`, `Kv_Cache`: a cache of keys and values exists only while decoding.
bool decoding_cache(const facts::FileFacts& file, std::int32_t klass) {
  if (klass < 0) return false;
  std::string name = to_lower(file.classes[static_cast<std::size_t>(klass)].name);
  std::erase(name, '_');
  return name.find("kvcache") != std::string::npos;
}

std::uint16_t first_gate(std::uint16_t guards) {
  for (const facts::Guard g : {facts::Guard::opt_in, facts::Guard::cuda_available, facts::Guard::device_branch,
                               facts::Guard::import_error_fallback}) {
    if (guards & facts::guard_bit(g)) return facts::guard_bit(g);
  }
  return 0;
}

class Inheritance {
 public:
  explicit Inheritance(Program::Impl& impl) : m_impl(impl) {}

  void run() {
    const std::size_t files = m_impl.files.size();
    m_sites.resize(files);
    for (std::size_t f = 0; f < files; ++f) m_sites[f].resize(m_impl.files[f].functions.size() + 1);
    m_entry.resize(files);
    for (std::size_t f = 0; f < files; ++f) m_entry[f].assign(m_sites[f].size(), false);
    for (const EntryPoint& entry : m_impl.entries) {
      // Training entries only: a serving or export entry is often called under an option
      // (`if args.use_vllm: synthesize(...)`), and that gate is worth keeping.
      if (!m_impl.files[entry.function.file.value].is_test &&
          training_roles().test(static_cast<std::size_t>(entry.role)))
        m_entry[entry.function.file.value][m_impl.slot(entry.function)] = true;
    }
    collect_value_classes();
    collect_templated_imports();
    collect_calls();
    collect_imports();
    collect_imported_functions();
    mark_rooted();
    find_gateable_classes();
    auto& inherited = m_impl.inherited_guards;
    auto& option = m_impl.inherited_option;
    inherited.assign(files, {});
    option.assign(files, {});
    for (std::size_t f = 0; f < files; ++f) {
      inherited[f].assign(m_sites[f].size(), 0);
      option[f].assign(m_sites[f].size(), {});
      for (std::size_t s = 0; s < m_sites[f].size(); ++s)
        inherited[f][s] = m_sites[f][s].empty() || !m_rooted[f][s] || starts_run(f, s) ? 0 : k_inherited;
      inherited[f].back() |= m_impl.module_gate[f];  // the module body's own gate (program/gates)
      option[f].back() = m_impl.module_gate_option[f];
      for (std::size_t s = 0; s + 1 < m_sites[f].size(); ++s) {  // a function's own gate (program/variants)
        inherited[f][s] |= m_impl.function_gate[f][s];
        option[f][s] = m_impl.function_gate_option[f][s];
      }
    }
    // Code on the training path runs behind the gates of its training callers: an inference helper
    // calling it ungated (`load_model(quantization)`) does not ungate the training run's `if
    // train_config.quantization:`. Which slots take only their training callers' sites, found once.
    std::vector<std::vector<char>> training_only(files);
    for (std::size_t f = 0; f < files; ++f) {
      training_only[f].resize(m_sites[f].size());
      for (std::size_t s = 0; s < m_sites[f].size(); ++s) training_only[f][s] = training_callers(f, s);
    }
    // First the callers' gates alone (a greatest fixpoint over the rooted code); then each class's gate is
    // taken from those settled values, never from an optimistic guess (a class whose own methods build
    // it would otherwise keep every gate), and the callers' gates settle again with the classes' gates
    // as constants, a few times, so that a class built only by a gated class's methods is gated too.
    settle(training_only);
    for (int pass = 0; pass < k_class_passes && compute_class_gates(); ++pass) settle(training_only);
    // A KV cache's methods run only while decoding, however its module is reached.
    for (std::size_t f = 0; f < files; ++f) {
      const auto& file = m_impl.files[f];
      for (std::size_t i = 0; i < file.functions.size(); ++i) {
        if (decoding_cache(file, file.functions[i].klass))
          inherited[f][i] |= facts::guard_bit(facts::Guard::not_training);
      }
    }
  }

 private:
  void settle(const std::vector<std::vector<char>>& training_only) {
    const std::size_t files = m_impl.files.size();
    auto& inherited = m_impl.inherited_guards;
    auto& option = m_impl.inherited_option;
    for (int round = 0; round < k_max_rounds; ++round) {
      bool changed = false;
      for (std::size_t f = 0; f < files; ++f) {
        for (std::size_t s = 0; s < m_sites[f].size(); ++s) {
          if (starts_run(f, s)) continue;
          // No caller's gate is known where nothing calls it or no root reaches it: only its class's.
          const bool known_callers = !m_sites[f][s].empty() && m_rooted[f][s];
          const ClassGate* gate = class_gate(f, s);
          if (!known_callers && !gate) continue;
          std::uint16_t all = known_callers ? k_inherited : 0;
          // Sites behind different gates (`if is_bnb_available():` at one, an opt-in at another): the code
          // still runs only behind one of them, so it takes one: an option first (it names what turns the
          // code on), then a CUDA check, a device branch, an ImportError fallback. Not-training holds only
          // where every site has it: an evaluation caller does not take the code off a training run that
          // reaches it behind an option.
          std::uint16_t any = 0;
          bool every_site_gated = known_callers;
          std::string first;
          for (const Site& site : m_sites[f][s]) {
            if (!known_callers) break;
            if (training_only[f][s] && !on_training_path(site.caller)) continue;
            const std::uint16_t here = site.guards | caller_gates(site.caller);
            all &= here;
            any |= here & ~facts::guard_bit(facts::Guard::not_training);
            // (Periodic is no gate: code called every N steps from one site and behind an option at another still
            // runs in a default run; it is periodic only where every site is.)
            every_site_gated = every_site_gated && (here & ~k_periodic) != 0;
            prefer_option(first, site);
          }
          if (every_site_gated && (all & ~k_periodic) == 0)
            all = static_cast<std::uint16_t>((all & k_periodic) | first_gate(any));
          const bool body = s + 1 == m_sites[f].size();
          if (body) all |= m_impl.module_gate[f];
          if (body && !m_impl.module_gate_option[f].empty()) first = m_impl.module_gate_option[f];
          if (!body) all |= m_impl.function_gate[f][s];
          if (!body && !m_impl.function_gate_option[f][s].empty()) first = m_impl.function_gate_option[f][s];
          if (gate) {
            if ((gate->guards & facts::guard_bit(facts::Guard::opt_in)) &&
                !(all & facts::guard_bit(facts::Guard::opt_in)))
              first = gate->option;
            all |= gate->guards;
          }
          if (all != inherited[f][s]) {
            inherited[f][s] = all;
            changed = true;
          }
          option[f][s] = (all & facts::guard_bit(facts::Guard::opt_in)) ? first : std::string();
        }
      }
      if (!changed) break;
    }
  }

  /// The option a gate takes from its sites: the first site's (its own branch's, or its caller's), but a real
  /// option before unreachable code (`if opt.plms: raise ...; PLMSSampler(model)` in one script, `elif opt.plms:
  /// sampler = PLMSSampler(model)` in another); unreachable code is named with its file, as it is elsewhere.
  void prefer_option(std::string& chosen, const Site& site) const {
    if (!chosen.empty() && !starts_with(chosen, facts::k_unreachable_prefix)) return;
    std::string option = site.option;
    if (const auto at = option.rfind("(line ");
        starts_with(option, facts::k_unreachable_prefix) && at != std::string::npos)
      option = option.substr(0, at + 1) + m_impl.files[site.caller.file.value].path.str() + " " + option.substr(at + 1);
    if (option.empty()) option = caller_option(site.caller);
    if (!option.empty() && (chosen.empty() || !starts_with(option, facts::k_unreachable_prefix)))
      chosen = std::move(option);
  }

  // Selected by a shipped config (program/variants): a caller the call graph cannot see runs it ungated.
  // A training entry point starts a run: its callers' gates are not its own, and a call edge leading back into it
  // (litgpt's training loop hands its `setup` to `save_hyperparameters`, closing setup → main → fit →
  // setup) must not let a cycle of optimistic guesses gate the whole run.
  bool starts_run(std::size_t f, std::size_t s) const {
    if (s < m_impl.config_selected[f].size() && m_impl.config_selected[f][s]) return true;
    return s < m_entry[f].size() && m_entry[f][s];
  }

  bool on_training_path(FunctionId fn) const { return (m_impl.at(fn).roles & training_roles()).any(); }

  // The slot is on the training path and some training code calls (or imports) it.
  bool training_callers(std::size_t f, std::size_t s) const {
    const FunctionId self{FileId{static_cast<std::uint32_t>(f)},
                          s + 1 == m_sites[f].size() ? -1 : static_cast<std::int32_t>(s)};
    if (!on_training_path(self)) return false;
    return std::any_of(m_sites[f][s].begin(), m_sites[f][s].end(),
                       [&](const Site& site) { return on_training_path(site.caller); });
  }

  std::uint16_t branch_guards(FileId file, std::int32_t branch, std::string& option) const {
    std::uint16_t guards = 0;
    const auto& branches = m_impl.files[file.value].branches;
    for (std::int32_t b = branch; b >= 0; b = branches[static_cast<std::size_t>(b)].parent) {
      guards |= m_impl.branch_guards[file.value][static_cast<std::size_t>(b)];
      if (option.empty()) option = m_impl.branch_option[file.value].at(b);
    }
    return guards;
  }

  // A call inside a dispatch-table entry no config selects (`"ring": lambda *a: ring_attn()(*a)`).
  std::uint16_t dispatch_gate(std::uint32_t f, const Span& at, std::string& option) const {
    for (const auto& [value, gate] : m_impl.dispatch_gates[f]) {
      if (at.start_byte < value.start_byte || at.end_byte > value.end_byte) continue;
      if (option.empty()) option = gate;
      return facts::guard_bit(facts::Guard::opt_in);
    }
    return 0;
  }

  // Repo classes named as values outside tests (a dict entry, an argument, a returned name, an attribute
  // reference), not only called, and where each such use sits: whoever builds the class got it from one of
  // them (`ffn_cls = FusedFeedForward if backend == "dist_gemm" else FeedForward; ffn_cls(dim)`).
  void collect_value_classes() {
    const Symbols& symbols = *m_impl.symbols;
    // The site (its branch's guards and option) is worked out only for a name that is a repo class.
    const auto note_at = [&](const Symbol& symbol, const auto& make_site) {
      if (symbol.kind != Symbol::Kind::klass) return;
      m_value_sites[{symbol.klass.file.value, symbol.klass.index}].push_back(make_site());
    };
    const auto site_at = [&](std::uint32_t f, const facts::Context& ctx) {
      std::string option;
      const auto guards =
          static_cast<std::uint16_t>((ctx.guards | branch_guards(FileId{f}, ctx.branch, option)) & k_inherited);
      return Site{FunctionId{FileId{f}, ctx.function}, guards, std::move(option)};
    };
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      if (file.is_test) continue;
      // `super(ModulatedDeformConv, self)` and `isinstance(x, T)` name a class without handing it on.
      std::vector<const Span*> only_named;
      for (const auto& call : file.calls) {
        if (call.callee_text == "super" || call.callee_text == "isinstance" || call.callee_text == "issubclass")
          only_named.push_back(&call.at);
      }
      const auto inside_only_named = [&](const Span& at) {
        return std::any_of(only_named.begin(), only_named.end(), [&](const Span* call) {
          return at.start_byte >= call->start_byte && at.end_byte <= call->end_byte;
        });
      };
      for (const auto& reference : file.references) {
        if (!inside_only_named(reference.at))
          note_at(symbols.lookup_from(FileId{f}, reference.name.dotted()), [&] { return site_at(f, reference.ctx); });
      }
      for (const auto& value : file.values) {
        if (!value.name.empty() && !inside_only_named(value.value))
          note_at(symbols.lookup_in_file(FileId{f}, value.name), [&] { return site_at(f, value.ctx); });
      }
      // `if deform_modulated: deform_conv_op = ModulatedDeformConv`: a class bound to a name under a branch.
      for (const auto& assign : file.assigns) {
        if (assign.value.kind != facts::LiteralKind::name) continue;
        note_at(assign.value.resolved.empty() ? symbols.lookup_in_file(FileId{f}, assign.value.value)
                                              : symbols.lookup_from(FileId{f}, assign.value.resolved.dotted()),
                [&] { return site_at(f, assign.ctx); });
      }
      // The file's imports by the name they bind, for the branch-imported classes below.
      std::vector<const facts::ImportFact*> by_bound_name;
      for (const auto& import : file.imports) {
        if (!import.bound_name.empty()) by_bound_name.push_back(&import);
      }
      const auto bound_before = [](const facts::ImportFact* a, const facts::ImportFact* b) {
        return a->bound_name.view() < b->bound_name.view();
      };
      std::stable_sort(by_bound_name.begin(), by_bound_name.end(), bound_before);
      // `{"eager": InternLM2Attention, "flash_attention_2": InternLM2FlashAttention2}`: a class of the table whose
      // methods call an optional library's functions (bound in a try that falls back when the import fails)
      // is picked only where that library imports; another entry of the table is the fallback.
      for (const auto& entry : file.dispatch_entries) {
        if (entry.name.empty()) continue;
        const Symbol symbol = symbols.lookup_in_file(FileId{f}, entry.name);
        const bool alternatives =
            std::count_if(file.dispatch_entries.begin(), file.dispatch_entries.end(),
                          [&](const facts::DispatchEntry& other) { return other.table == entry.table; }) >= 2;
        const std::uint16_t guards =
            symbol.kind == Symbol::Kind::klass && alternatives && calls_optional_library(m_impl, symbol.klass)
                ? facts::guard_bit(facts::Guard::import_error_fallback)
                : 0;
        note_at(symbol, [&] { return Site{FunctionId{FileId{f}, -1}, guards, {}}; });
      }
      for (const auto& call : file.calls) {
        if (call.callee_text == "super" || call.callee_text == "isinstance" || call.callee_text == "issubclass")
          continue;
        for (const auto& arg : call.args) {
          if (arg.kind != facts::LiteralKind::name) continue;
          std::optional<Site> site;
          const auto call_site = [&] {
            if (!site) {
              site = site_at(f, call.ctx);
              site->guards |= dispatch_gate(f, call.at, site->option);
            }
            return *site;
          };
          note_at(arg.resolved.empty() ? symbols.lookup_in_file(FileId{f}, arg.value)
                                       : symbols.lookup_from(FileId{f}, arg.resolved.dotted()),
                  call_site);
          // `if strategy == "fsdp": from .fsdp_workers import Worker` / `elif ...: from .megatron_workers import
          // Worker`, then `ray.remote(Worker)`: the name is whichever class the branch imported, so each is handed on.
          const std::string_view name = arg.value;
          auto it =
              std::lower_bound(by_bound_name.begin(), by_bound_name.end(), name,
                               [](const facts::ImportFact* a, std::string_view n) { return a->bound_name.view() < n; });
          for (; it != by_bound_name.end() && (*it)->bound_name.view() == name; ++it) {
            const facts::ImportFact& import = **it;
            if (import.ctx.function == call.ctx.function && import.target.dotted() != arg.resolved.dotted() &&
                import.at.line < call.at.line)
              note_at(symbols.lookup_from(FileId{f}, import.target.dotted()), call_site);
          }
        }
      }
    }
  }

  void collect_calls() {
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      if (m_impl.files[f].is_test) continue;
      const auto& slots = m_impl.edges[f];
      for (std::size_t s = 0; s < slots.size(); ++s) {
        const std::int32_t index = s == m_impl.files[f].functions.size() ? -1 : static_cast<std::int32_t>(s);
        for (const Edge& edge : slots[s]) {
          if (edge.target.index < -1 && !edge.constructs) continue;
          std::string option;
          std::uint16_t guards =
              static_cast<std::uint16_t>((edge.guards | branch_guards(FileId{f}, edge.branch, option)) & k_inherited);
          if (edge.call >= 0)
            guards |= dispatch_gate(f, m_impl.files[f].calls[static_cast<std::size_t>(edge.call)].at, option);
          const Site site{FunctionId{FileId{f}, index}, guards, option};
          if (edge.target.index >= -1) m_sites[edge.target.file.value][m_impl.slot(edge.target)].push_back(site);
          if (edge.constructs) m_constructions[{edge.klass.file.value, edge.klass.index}].push_back(site);
          // Building a module runs its forward (a callable's __call__) where the object is used, which
          // the call graph often cannot see: a module built only under `if args.masks:` runs only then.
          // A class also handed around as a value (a registry's `{"alora": ALoraLinearVariant}`) may be
          // built where no edge shows, so its visible constructions say nothing.
          if (!edge.constructs || m_value_sites.contains({edge.klass.file.value, edge.klass.index})) continue;
          for (const std::string_view name : {"forward", "__call__"}) {
            if (const auto method = m_impl.symbols->method(edge.klass, name))
              m_sites[method->file.value][m_impl.slot(*method)].push_back(site);
          }
        }
      }
    }
  }

  // `importlib.import_module(f"verl.models.{name}.megatron.modeling_{name}_megatron")` then `getattr(module,
  // cls_name)`: a loader that picks a module of the repo by a computed path (facts: a dynamic import whose target
  // is a template) runs that module where it is called, and hands its classes on from there. Each module the
  // template matches gets the call as an import site, and each of its top-level classes the call as a value site,
  // so a loader only an opt-in backend calls (TinyZero's Megatron workers) gates the models it loads.
  void collect_templated_imports() {
    std::unordered_map<std::string_view, std::uint32_t> by_module;
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) by_module.emplace(m_impl.files[f].module_name.view(), f);
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      if (file.is_test) continue;
      for (const auto& fact : file.imports) {
        const std::string_view pattern = fact.target.dotted().view();
        if (!fact.dynamic || pattern.find('*') == std::string_view::npos) continue;
        std::string option;
        const auto guards = static_cast<std::uint16_t>(
            (fact.ctx.guards | branch_guards(FileId{f}, fact.ctx.branch, option)) & k_inherited);
        const Site site{FunctionId{FileId{f}, fact.ctx.function}, guards, option};
        for (const auto& [module, target] : by_module) {
          if (target == f || m_impl.files[target].is_test || !module_matches(pattern, module)) continue;
          m_templated.insert(f);
          const auto& loaded = m_impl.files[target];
          m_sites[target][loaded.functions.size()].push_back(site);
          for (std::int32_t c = 0; c < static_cast<std::int32_t>(loaded.classes.size()); ++c) {
            if (loaded.classes[static_cast<std::size_t>(c)].parent_function < 0 &&
                loaded.classes[static_cast<std::size_t>(c)].qualname.view().find('.') == std::string_view::npos)
              m_value_sites[{target, c}].push_back(site);
          }
        }
      }
    }
  }

  /// A module template's `*` stands for one or more characters of one dotted segment.
  static bool module_matches(std::string_view pattern, std::string_view module) {
    std::size_t p = 0, m = 0, star = std::string_view::npos, resume = 0;
    while (m < module.size()) {
      if (p < pattern.size() && pattern[p] == '*') {
        star = p++;
        resume = ++m;  // at least one character
        if (module[m - 1] == '.') return false;
      } else if (p < pattern.size() && pattern[p] == module[m]) {
        ++p;
        ++m;
      } else if (star != std::string_view::npos && module[resume - 1] != '.' && resume < module.size() &&
                 module[resume] != '.') {
        p = star + 1;
        m = ++resume;
      } else {
        return false;
      }
    }
    return p == pattern.size();
  }

  void collect_imports() {
    for (std::uint32_t target = 0; target < m_impl.files.size(); ++target) {
      for (const auto& [importer, index] : m_impl.imported_by[target]) {
        // (A module only tests import, or one nothing imports, runs nothing: its imports are no sites.)
        const DeadCode dead = m_impl.dead_module[importer.value];
        if (dead == DeadCode::test_only_module || dead == DeadCode::unimported_module ||
            dead == DeadCode::unexported_module || dead == DeadCode::orphan_model_copy ||
            dead == DeadCode::unused_module || dead == DeadCode::outside_import_closure)
          continue;
        const auto& fact = m_impl.files[importer.value].imports[index];
        std::string option;
        const std::uint16_t guards = static_cast<std::uint16_t>(
            (fact.ctx.guards | branch_guards(importer, fact.ctx.branch, option)) & k_inherited);
        m_sites[target][m_impl.files[target].functions.size()].push_back(
            Site{FunctionId{importer, fact.ctx.function}, guards, option});
      }
    }
  }

  // A function no call edge reaches but that code imports by name (`from .fused_attn import
  // patch_gemma4_unified_fused_attn as patch_fused_attn` in one branch, the same alias bound to another
  // module's function in the else branch: the call resolves to the last binding only) is called where it
  // is imported: its function-local import sites, under their gates, are its call sites.
  void collect_imported_functions() {
    const Symbols& symbols = *m_impl.symbols;
    std::vector<std::pair<FunctionId, Site>> found;
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      if (file.is_test) continue;
      for (const auto& fact : file.imports) {
        // (Function-local imports only: a module-level one is often a package's re-export, and its module
        // body may sit in an import cycle that would unroot the function.)
        if (fact.ctx.function < 0 || fact.star || fact.dynamic || fact.bound_name.empty()) continue;
        const Symbol symbol = symbols.lookup_from(FileId{f}, fact.target.dotted());
        if (symbol.kind != Symbol::Kind::function || symbol.function.index < 0) continue;
        if (!m_sites[symbol.function.file.value][m_impl.slot(symbol.function)].empty()) continue;
        std::string option;
        const auto guards = static_cast<std::uint16_t>(
            (fact.ctx.guards | branch_guards(FileId{f}, fact.ctx.branch, option)) & k_inherited);
        found.emplace_back(symbol.function, Site{FunctionId{FileId{f}, fact.ctx.function}, guards, std::move(option)});
      }
    }
    for (auto& [function, site] : found) m_sites[function.file.value][m_impl.slot(function)].push_back(std::move(site));
  }

  // Code reached from a root (a function or module nobody in the repo calls or imports) through
  // sites. The rest sits only in cycles (a package loaded by name from a config, whose modules import
  // each other): no path through a gate is known, so it inherits nothing.
  void mark_rooted() {
    m_rooted.resize(m_sites.size());
    std::vector<std::vector<std::vector<FunctionId>>> callees(m_sites.size());
    std::vector<FunctionId> work;
    for (std::uint32_t f = 0; f < m_sites.size(); ++f) {
      m_rooted[f].assign(m_sites[f].size(), false);
      callees[f].resize(m_sites[f].size());
    }
    for (std::uint32_t f = 0; f < m_sites.size(); ++f) {
      for (std::size_t s = 0; s < m_sites[f].size(); ++s) {
        const std::int32_t index = s + 1 == m_sites[f].size() ? -1 : static_cast<std::int32_t>(s);
        for (const Site& site : m_sites[f][s])
          callees[site.caller.file.value][m_impl.slot(site.caller)].push_back(FunctionId{FileId{f}, index});
        if (m_sites[f][s].empty()) {
          m_rooted[f][s] = true;
          work.push_back(FunctionId{FileId{f}, index});
        }
      }
    }
    // An entry point starts a run even when a call edge leads back into it: what it reaches is rooted.
    for (std::uint32_t f = 0; f < m_sites.size(); ++f) {
      for (std::size_t s = 0; s < m_sites[f].size(); ++s) {
        if (!m_entry[f][s] || m_rooted[f][s]) continue;
        m_rooted[f][s] = true;
        work.push_back(FunctionId{FileId{f}, s + 1 == m_sites[f].size() ? -1 : static_cast<std::int32_t>(s)});
      }
    }
    while (!work.empty()) {
      const FunctionId at = work.back();
      work.pop_back();
      for (const FunctionId& next : callees[at.file.value][m_impl.slot(at)]) {
        auto&& seen = m_rooted[next.file.value][m_impl.slot(next)];
        if (seen) continue;
        seen = true;
        work.push_back(next);
      }
    }
  }

  // A method runs only on an instance: a class every visible construction of which (its subclasses'
  // included) sits behind one gate runs its methods behind it too, however they are called
  // (`self.dispatcher.dispatch(x)` on a dispatcher only an opt-in backend builds). A class handed around
  // as a value counts each use as a site (what builds it got it there); not a class named by a string (a
  // registry or a config may build it where no edge shows).
  void find_gateable_classes() {
    std::set<std::string_view> named;  // (a test's config override names a class for that test only)
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      // (The names a templated loader's registry lists, `_MODELS = {"LlamaForCausalLM": ("llama",
      // ("ParallelLlamaForCausalLMRmPadPP", ...))}`, are what it fetches from the modules it imports, whose classes
      // got the loader's call as a site: collect_templated_imports.)
      if (file.is_test || m_templated.contains(f)) continue;
      for (const auto& name : file.name_strings) {
        const std::string_view text = name.view();
        named.insert(text.substr(text.rfind('.') == std::string_view::npos ? 0 : text.rfind('.') + 1));
      }
    }
    // `return cls(**config)` in a factory classmethod (`NeoXArgs.from_ymls(...)`): a class built wherever the
    // factory is called, which no construction edge shows.
    std::set<std::pair<std::uint32_t, std::int32_t>> factory_built;
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      for (const auto& call : m_impl.files[f].calls) {
        if (call.callee_text == "cls" && call.ctx.klass >= 0) factory_built.emplace(f, call.ctx.klass);
      }
    }
    const SubclassIndex subclasses = index_subclasses(m_impl);
    m_class_gates.resize(m_impl.files.size());
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      m_class_gates[f].resize(file.classes.size());
      if (file.is_test) continue;
      for (std::int32_t c = 0; c < static_cast<std::int32_t>(file.classes.size()); ++c) {
        std::vector<ClassId> family{ClassId{FileId{f}, c}};
        bool visible = true;
        for (std::size_t next = 0; next < family.size() && visible && family.size() < 256; ++next) {
          const ClassId k = family[next];
          const auto& info = m_impl.files[k.file.value].classes[static_cast<std::size_t>(k.index)];
          if (named.contains(info.name.view()) || factory_built.contains({k.file.value, k.index})) visible = false;
          if (const auto it = subclasses.find({k.file.value, k.index}); it != subclasses.end()) {
            for (const ClassId& sub : it->second) {
              if (std::find(family.begin(), family.end(), sub) == family.end()) family.push_back(sub);
            }
          }
        }
        if (!visible || family.size() >= 256) continue;
        std::vector<const Site*> sites;
        for (const ClassId& k : family) {
          if (const auto it = m_constructions.find({k.file.value, k.index}); it != m_constructions.end()) {
            for (const Site& site : it->second) sites.push_back(&site);
          }
          if (const auto it = m_value_sites.find({k.file.value, k.index}); it != m_value_sites.end()) {
            for (const Site& site : it->second) sites.push_back(&site);
          }
        }
        if (!sites.empty()) m_class_sites[{f, c}] = std::move(sites);
      }
    }
  }

  struct ClassGate {
    std::uint16_t guards = 0;
    std::string option;
  };

  /// Each gateable class's gate from the current (settled) gates of its construction sites; true when one
  /// changed.
  bool compute_class_gates() {
    bool changed = false;
    for (const auto& [klass, sites] : m_class_sites) {
      ClassGate gate{k_inherited, {}};
      for (const Site* site : sites) {
        gate.guards &= static_cast<std::uint16_t>(site->guards | caller_gates(site->caller));
        prefer_option(gate.option, *site);
      }
      if (!(gate.guards & facts::guard_bit(facts::Guard::opt_in))) gate.option.clear();
      ClassGate& slot = m_class_gates[klass.first][static_cast<std::size_t>(klass.second)];
      changed = changed || slot.guards != gate.guards;
      slot = std::move(gate);
    }
    return changed;
  }

  /// The gates a call site inherits from where it sits: its function's, the functions that enclose it
  /// (a nested helper runs only when they do), and its module's (a module imported only behind a gate
  /// runs all of its code behind it, so what it imports or calls does too), as Program::guards_at reads them.
  std::uint16_t caller_gates(FunctionId caller) const {
    const auto& inherited = m_impl.inherited_guards[caller.file.value];
    const auto& functions = m_impl.files[caller.file.value].functions;
    std::uint16_t out = inherited[m_impl.slot(caller)] | inherited.back();
    for (std::int32_t fn = caller.index; fn >= 0; fn = functions[static_cast<std::size_t>(fn)].parent)
      out |= inherited[static_cast<std::size_t>(fn)];
    return out;
  }

  /// The option that turns the caller on: its function's, an enclosing function's or its module's.
  const std::string& caller_option(FunctionId caller) const {
    const auto& options = m_impl.inherited_option[caller.file.value];
    const auto& functions = m_impl.files[caller.file.value].functions;
    for (std::int32_t fn = caller.index; fn >= 0; fn = functions[static_cast<std::size_t>(fn)].parent) {
      if (!options[static_cast<std::size_t>(fn)].empty()) return options[static_cast<std::size_t>(fn)];
    }
    return options.back();
  }

  /// The gate of the class a function slot is a method of, if it has one.
  const ClassGate* class_gate(std::size_t f, std::size_t s) const {
    const auto& functions = m_impl.files[f].functions;
    if (s >= functions.size() || functions[s].klass < 0) return nullptr;
    const ClassGate& gate = m_class_gates[f][static_cast<std::size_t>(functions[s].klass)];
    return gate.guards == 0 ? nullptr : &gate;
  }

  Program::Impl& m_impl;
  std::map<std::pair<std::uint32_t, std::int32_t>, std::vector<Site>> m_constructions;       // per class: its sites
  std::map<std::pair<std::uint32_t, std::int32_t>, std::vector<const Site*>> m_class_sites;  // gateable classes
  std::vector<std::vector<ClassGate>> m_class_gates;    // per file, per class: none (guards 0) until computed
  std::vector<std::vector<bool>> m_entry;               // per file, per slot: a training entry point
  std::vector<std::vector<bool>> m_rooted;              // per file, per slot: reached from a root through sites
  std::vector<std::vector<std::vector<Site>>> m_sites;  // per file, per slot: where it is called or imported
  // Per class named as a value outside tests (collect_value_classes): where each such use sits.
  std::map<std::pair<std::uint32_t, std::int32_t>, std::vector<Site>> m_value_sites;
  std::set<std::uint32_t> m_templated;  ///< files whose templated dynamic import matched a module (their names feed it)
};

}  // namespace

void inherit_guards(Program::Impl& impl) {
  Inheritance(impl).run();
}

}  // namespace tr2audit::program
