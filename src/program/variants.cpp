// Variants no shipped configuration selects. Two ways of picking code by name are followed:
// - registries: `@ROI_HEADS_REGISTRY.register()` on a class (or a builder function) that the repo looks
//   up by a computed name (`ROI_HEADS_REGISTRY.get(cfg.MODEL.ROI_HEADS.NAME)`);
// - dispatch tables: `ALL_ATTENTION_FUNCTIONS = {"sdpa": sdpa_forward, "ring": lambda ...}` read by a
//   computed key (`ALL_ATTENTION_FUNCTIONS[config.attn]`); the table's own keys select nothing;
// - component paths in config files: `_component_: torchtune.modules.loss.ForwardKLLoss` (also Hydra's
//   `_target_` and jsonargparse's `class_path`). A module one of whose top-level definitions a config
//   names this way is a library of components, and its other top-level definitions are candidates too.
// A candidate is selected when a name-shaped string literal of the repo's code or a config value names
// it (or the name it is registered under), or when code outside every unselected candidate uses it
// (calls, references, bases, decorators, name values). The rest runs only when a user's own config picks
// it: its functions get the `opt-in` gate, which callees inherit (program/inherit). Test code neither
// selects nor is gated.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "program/model.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

bool is_component_key(std::string_view key) {
  const std::string last = last_name(key);
  return last == "_component_" || last == "_target_" || last == "class_path";
}

/// Visits each text the file's code uses a name by, with its context: callees and name arguments
/// (`REG.register(...)` calls skipped when asked: registering is not using), references, names assigned
/// and names returned or put in a dict.
template <class Visit>
void visit_value_uses(const facts::FileFacts& file, Visit&& visit, bool skip_registration) {
  for (const auto& call : file.calls) {
    if (skip_registration && (call.method == "register" || call.method == "register_module")) continue;
    visit(std::string_view(call.callee_text), call.ctx);
    for (const auto& arg : call.args) {
      if (arg.kind == facts::LiteralKind::name) visit(std::string_view(arg.value), call.ctx);
    }
  }
  for (const auto& ref : file.references) visit(std::string_view(ref.text), ref.ctx);
  for (const auto& assign : file.assigns) {
    if (assign.value.kind == facts::LiteralKind::name) visit(std::string_view(assign.value.value), assign.ctx);
  }
  for (const auto& value : file.values) visit(std::string_view(value.name), value.ctx);
}

/// A name code uses; `classes_only`: a use that keeps an unused class alive but selects no variant.
struct Use {
  std::string name;
  bool classes_only = false;
  /// The one candidate the use denotes (an import or call that resolves to that repo class), or -1: any
  /// candidate of the name.
  std::int64_t exact = -1;
};

struct Candidate {
  FileId file;
  std::int32_t klass = -1;     ///< a top-level class, or
  std::int32_t function = -1;  ///< a top-level function
  std::string name;
  std::string registered;  ///< `@REG.register("name")`: the name the registry knows it by
  std::string registry;    ///< the registry's name, when picked through one
  bool selected = false;
  bool named = false;  ///< selected by a string or config value (not only by code the call graph sees)
  /// What an unselected candidate is: dead (a private helper, an unused class), not opt-in.
  DeadCode dead_unless_used = DeadCode::live;
};

class Variants {
 public:
  explicit Variants(Program::Impl& impl) : m_impl(impl) {}

  void run() {
    const std::size_t files = m_impl.files.size();
    m_impl.function_gate.assign(files, {});
    m_impl.function_gate_option.assign(files, {});
    m_impl.config_selected.assign(files, {});
    m_impl.dead_function.assign(files, {});
    m_impl.dispatch_gates.assign(files, {});
    for (std::size_t f = 0; f < files; ++f) {
      m_impl.function_gate[f].assign(m_impl.files[f].functions.size(), 0);
      m_impl.function_gate_option[f].assign(m_impl.files[f].functions.size(), {});
      m_impl.config_selected[f].assign(m_impl.files[f].functions.size(), false);
      m_impl.dead_function[f].assign(m_impl.files[f].functions.size(), DeadCode::live);
    }
    collect_strings();
    registry_candidates();
    component_candidates();
    dispatch_candidates();
    private_candidates();
    class_candidates();
    if (!m_candidates.empty()) {
      for (auto& c : m_candidates) {
        c.named = m_strings.count(c.name) > 0 || (!c.registered.empty() && m_strings.count(c.registered) > 0);
        c.selected = c.named;
        m_by_name[c.name].push_back(&c - m_candidates.data());
      }
      select_by_use();
      gate_unselected();
    }
    mark_shadowed();
    mark_unreferenced_nested();
    mark_dead_patch_modules(m_impl, m_strings);
    mark_test_only_modules(m_impl, m_strings);
    mark_unexported_modules(m_impl, m_strings);
    mark_kernels_of_dead_code();
    mark_unused_actor_methods();
  }

 private:
  // Name strings and config values; and the names code reads by a computed key with `.get(key)`.
  void collect_strings() {
    const bool instance_families = std::any_of(m_impl.types.registries.begin(), m_impl.types.registries.end(),
                                               [](const auto& entry) { return entry.second.by_instance; });
    for (const auto& file : m_impl.files) {
      if (file.is_test) continue;
      for (const auto& call : file.calls) {
        const bool computed = !call.args.empty() && call.args[0].kind != facts::LiteralKind::string;
        if (call.method == "get" && computed) m_got_by_key.insert(last_name(call.receiver_text));
        // `KernelPlugin(name)`: an instance of a family that registers by instance, named at run time.
        if (instance_families && call.method.empty() && computed) {
          const auto it = m_impl.types.registries.find(last_name(call.callee_text));
          if (it != m_impl.types.registries.end() && it->second.by_instance) m_got_by_key.insert(it->first);
        }
      }
      for (const auto& s : file.name_strings) {
        m_strings.insert(s);
        m_strings.insert(last_name(s));
      }
      for (const auto& setting : file.settings) {
        m_strings.insert(setting.value);
        m_strings.insert(last_name(setting.value));
        if (is_component_key(setting.key)) m_component_names.insert(last_name(setting.value));
      }
    }
  }

  // Registries the repo reads by a computed name: `REG.get(name)` with a non-literal argument.
  void registry_candidates() {
    for (const auto& [registry, members] : m_impl.types.registries) {
      if (!m_got_by_key.count(registry)) continue;
      for (std::size_t i = 0; i < members.classes.size(); ++i) {
        const ClassId c = members.classes[i];
        const auto& info = m_impl.files[c.file.value].classes[static_cast<std::size_t>(c.index)];
        add(Candidate{c.file, c.index, -1, info.name, members.class_keys[i], registry});
      }
      for (std::size_t i = 0; i < members.functions.size(); ++i) {
        const FunctionId fn = members.functions[i];
        if (fn.index < 0) continue;
        const auto& info = m_impl.files[fn.file.value].functions[static_cast<std::size_t>(fn.index)];
        add(Candidate{fn.file, -1, fn.index, info.name, members.function_keys[i], registry});
      }
    }
  }

  void component_candidates() {
    if (m_component_names.empty()) return;
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      if (file.is_test || file.kind != discover::FileKind::python) continue;
      bool library = false;
      for (const auto& c : file.classes) library |= top_level(c) && m_component_names.count(c.name) > 0;
      for (const auto& fn : file.functions) library |= top_level(fn) && m_component_names.count(fn.name) > 0;
      if (!library) continue;
      for (std::int32_t i = 0; i < static_cast<std::int32_t>(file.classes.size()); ++i) {
        const auto& c = file.classes[static_cast<std::size_t>(i)];
        if (top_level(c) && !c.name.starts_with('_')) add(Candidate{FileId{f}, i, -1, c.name, {}, {}});
      }
      for (std::int32_t i = 0; i < static_cast<std::int32_t>(file.functions.size()); ++i) {
        const auto& fn = file.functions[static_cast<std::size_t>(i)];
        if (top_level(fn) && !fn.name.starts_with('_')) add(Candidate{FileId{f}, -1, i, fn.name, {}, {}});
      }
    }
  }

  // Entries of dispatch tables the repo reads by a computed key (`ALL_ATTENTION_FUNCTIONS[config.attn]`,
  // `ACT2FN.get(name)`): an entry whose key no string of the code or config value names runs only when a
  // user's config picks it. A plain-name value is a candidate like a registry member (code that uses the
  // function otherwise selects it); the calls inside any other value (a lambda) are gated directly.
  void dispatch_candidates() {
    std::unordered_set<std::string> computed = m_got_by_key;
    for (const auto& file : m_impl.files) {
      if (!file.is_test) computed.insert(file.computed_lookups.begin(), file.computed_lookups.end());
    }
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      if (file.is_test) continue;
      for (const auto& entry : file.dispatch_entries) {
        if (!computed.count(entry.table) || m_strings.count(entry.key)) continue;
        if (entry.name.empty()) {
          m_impl.dispatch_gates[f].emplace_back(entry.value, "config selects " + entry.key);
          continue;
        }
        const Symbol symbol = m_impl.symbols->lookup_in_file(FileId{f}, entry.name);
        if (symbol.kind == Symbol::Kind::function && symbol.function.index >= 0) {
          const auto& fn =
              m_impl.files[symbol.function.file.value].functions[static_cast<std::size_t>(symbol.function.index)];
          add(Candidate{symbol.function.file, -1, symbol.function.index, fn.name, entry.key, entry.table});
        } else if (symbol.kind == Symbol::Kind::klass) {
          const auto& c = m_impl.files[symbol.klass.file.value].classes[static_cast<std::size_t>(symbol.klass.index)];
          add(Candidate{symbol.klass.file, symbol.klass.index, -1, c.name, entry.key, entry.table});
        }
      }
    }
  }

  // Private functions and methods (`def _chunk_scan_fwd_wip(...)`), undecorated: code outside tests
  // that calls, passes or names none of them leaves them dead.
  void private_candidates() {
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      if (file.is_test || file.kind != discover::FileKind::python) continue;
      // A module-level `_helper`, or a `_method` (`_hf_expert_forward_for_debug`) of a class that descends only
      // from repo classes and `nn.Module`, which no framework calls by name either.
      for (std::int32_t i = 0; i < static_cast<std::int32_t>(file.functions.size()); ++i) {
        const auto& fn = file.functions[static_cast<std::size_t>(i)];
        if (fn.parent >= 0 || !fn.name.starts_with('_') || fn.name.starts_with("__") || !fn.decorators.empty())
          continue;
        if (fn.klass >= 0 && (module_private_api(fn.name) || !own_module_class(ClassId{FileId{f}, fn.klass}))) continue;
        Candidate c{FileId{f}, -1, i, fn.name, {}, {}};
        c.dead_unless_used = DeadCode::unused_private_helper;
        add(std::move(c));
      }
    }
  }

  // Public classes of an application's packages (program/application_classes), undecorated or only compiled or made
  // a dataclass: code outside tests that builds, subclasses, imports or names none of them (and no string or config
  // value naming them) leaves them dead. A library's package is API its users build; a module the repo reads by a
  // computed name and a repo that finds classes by reflection give no candidates.
  void class_candidates() {
    if (finds_classes_by_reflection(m_impl)) return;
    const std::unordered_set<std::string_view> packages = application_packages(m_impl);
    if (packages.empty()) return;
    const std::vector<char> by_name = modules_read_by_name(m_impl, m_strings);
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      const std::string_view root = top_folder(file.path);
      if (file.is_test || file.kind != discover::FileKind::python || file.is_package_init || by_name[f] ||
          root.empty() || !packages.contains(root) || mirrors_library(file))
        continue;
      for (std::int32_t i = 0; i < static_cast<std::int32_t>(file.classes.size()); ++i) {
        const auto& c = file.classes[static_cast<std::size_t>(i)];
        if (!top_level(c) || !starts_upper(c.name.view()) || registered_or_wrapped(file, c.name)) continue;
        Candidate candidate{FileId{f}, i, -1, c.name, {}, {}};
        candidate.dead_unless_used = DeadCode::unused_class;
        add(std::move(candidate));
      }
    }
  }

  /// nn.Module's own private methods a subclass overrides for torch to call (`_load_from_state_dict`).
  static bool module_private_api(std::string_view name) {
    static constexpr std::string_view k_api[] = {"_apply",
                                                 "_load_from_state_dict",
                                                 "_save_to_state_dict",
                                                 "_register_state_dict_hook",
                                                 "_call_impl",
                                                 "_slow_forward",
                                                 "_get_name",
                                                 "_named_members",
                                                 "_conv_forward",
                                                 "_check_input_dim",
                                                 "_init_weights",
                                                 "_set_gradient_checkpointing",
                                                 "_replicate_for_data_parallel",
                                                 "_get_backward_hooks",
                                                 "_version"};
    return std::find(std::begin(k_api), std::end(k_api), name) != std::end(k_api);
  }

  /// A class whose bases are, all the way up, repo classes, `torch.nn.Module` or nothing.
  bool own_module_class(ClassId klass) const {
    std::vector<ClassId> work{klass};
    for (std::size_t next = 0; next < work.size(); ++next) {
      if (work.size() > 16) return false;
      const auto& info = m_impl.files[work[next].file.value].classes[static_cast<std::size_t>(work[next].index)];
      for (std::size_t b = 0; b < info.bases.size(); ++b) {
        const std::string base = info.bases[b].dotted();
        if (base == "torch.nn.Module" || base == "object") continue;
        const auto repo = m_impl.symbols->base_class(work[next], b);
        if (!repo) return false;
        work.push_back(*repo);
      }
    }
    return true;
  }

  static bool top_level(const facts::ClassInfo& c) {
    return c.parent_function < 0 && c.qualname.find('.') == std::string::npos;
  }
  static bool top_level(const facts::FunctionInfo& fn) { return fn.klass < 0 && fn.parent < 0; }

  void add(Candidate c) {
    const auto key = std::make_tuple(c.file.value, c.klass, c.function);
    if (!m_seen.insert(key).second) return;
    m_candidates.push_back(std::move(c));
  }

  /// The candidate a fact's code belongs to (its top-level class or function), or -1.
  std::int64_t owner(std::uint32_t f, const facts::Context& ctx) const {
    const auto& file = m_impl.files[f];
    std::int32_t fn = ctx.function;
    std::int32_t klass = ctx.klass;
    while (fn >= 0) {
      const auto& info = file.functions[static_cast<std::size_t>(fn)];
      if (info.parent < 0) {
        if (info.klass >= 0) klass = info.klass;
        break;
      }
      fn = info.parent;
    }
    // (A private method candidate owns its body before its class does.)
    if (klass >= 0 && fn >= 0) {
      const auto method = m_owner.find({f, -1, fn});
      if (method != m_owner.end()) return method->second;
    }
    const auto it = klass >= 0 ? m_owner.find({f, klass, -1}) : m_owner.find({f, -1, fn});
    return it == m_owner.end() ? -1 : it->second;
  }

  /// What an imported dotted name denotes among the candidates: the index of the candidate class it resolves to,
  /// k_other_symbol when it resolves to another repo symbol (a class that is no candidate, a function, a module),
  /// or -1 when the repo does not define it (a library's name, or one the symbol table cannot follow).
  static constexpr std::int64_t k_other_symbol = -2;
  std::int64_t resolved_candidate(FileId from, std::string_view dotted) const {
    return candidate_of(m_impl.symbols->lookup_from(from, dotted));
  }
  /// The same for a bare name as one file binds it at its top level (its own def or class, or its import).
  std::int64_t bound_candidate(FileId file, std::string_view name) const {
    return candidate_of(m_impl.symbols->lookup_in_file(file, name));
  }
  std::int64_t candidate_of(const Symbol& symbol) const {
    if (symbol.kind == Symbol::Kind::none) return -1;
    if (symbol.kind != Symbol::Kind::klass && symbol.kind != Symbol::Kind::function) return k_other_symbol;
    const auto it = symbol.kind == Symbol::Kind::klass
                        ? m_owner.find({symbol.klass.file.value, symbol.klass.index, -1})
                        : m_owner.find({symbol.function.file.value, -1, symbol.function.index});
    return it == m_owner.end() ? k_other_symbol : it->second;
  }

  // A use from code that runs (outside every candidate, or inside a selected one) selects the used
  // candidate: a worklist, since a selected class selects what it uses in turn.
  void select_by_use() {
    for (std::size_t i = 0; i < m_candidates.size(); ++i) {
      const auto& c = m_candidates[i];
      m_owner[{c.file.value, c.klass, c.klass >= 0 ? -1 : c.function}] = static_cast<std::int64_t>(i);
    }
    // (used name, owner candidate) for every use in the repo's non-test code.
    std::vector<std::pair<Use, std::int64_t>> uses;
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      if (file.is_test) continue;
      const auto use = [&](std::string_view text, const facts::Context& ctx, bool classes_only = false) {
        if (text.empty()) return;
        std::string name = last_name(text);
        if (m_by_name.count(name)) {
          // A bare name is the file's own binding: `super(BertForTokenClassification, self)` in one copy of a model
          // file uses that copy's class, not the same-named class of every other copy.
          const std::int64_t exact = text == name ? bound_candidate(FileId{f}, name) : -1;
          if (exact != k_other_symbol) uses.emplace_back(Use{std::move(name), classes_only, exact}, owner(f, ctx));
        }
        // `self.param_server._sync_weights.remote(worker)`: a private name inside a chain is a use too.
        for (std::size_t dot = text.find("._"); dot != std::string_view::npos; dot = text.find("._", dot + 1)) {
          const std::string_view rest = text.substr(dot + 1);
          std::string inner(rest.substr(0, rest.find_first_of(".([ ")));
          if (inner != name && m_by_name.count(inner)) uses.emplace_back(Use{std::move(inner), false}, owner(f, ctx));
        }
      };
      visit_value_uses(file, use, true);
      for (const auto& decorator : file.decorators) {
        const std::string method = last_name(decorator.text);
        if (method == "register" || method == "register_module") continue;
        use(decorator.text, decorator.ctx);
      }
      // (No owner: a use that counts. A capitalised name, `isinstance(m, Block)`, and an import of one, `from .ops
      // import UpSampleLayer`, say only that a class is not dead: neither selects a registered variant, which a
      // package's `__init__` imports to register.)
      for (const auto& name : file.used_names) use(name, facts::Context{}, !name.view().starts_with('_'));
      // `from .modeling import BertForTokenClassification` in a package of its own (DeepSpeedExamples keeps several
      // copies of one BERT model): an import that resolves to a repo class keeps that class alive, not every class
      // of the name.
      for (const auto& fact : file.imports) {
        const std::string name = last_name(fact.target.dotted().view());
        if (fact.star || !starts_upper(name)) continue;
        const std::int64_t exact = resolved_candidate(FileId{f}, fact.target.dotted().view());
        if (exact == k_other_symbol) continue;
        if (m_by_name.count(name)) uses.emplace_back(Use{name, true, exact}, -1);
      }
      for (std::size_t c = 0; c < file.classes.size(); ++c) {
        facts::Context ctx;
        ctx.klass = static_cast<std::int32_t>(c);
        for (const auto& base : file.classes[c].base_texts) use(base, ctx);
      }
      for (std::size_t i = 0; i < file.functions.size(); ++i) {
        facts::Context ctx;
        ctx.function = static_cast<std::int32_t>(i);
        for (const auto& param : file.functions[i].param_defaults) {
          if (param.kind == facts::LiteralKind::name) use(param.value, ctx);
        }
      }
    }
    std::unordered_map<std::int64_t, std::vector<Use>> waiting;  // owner -> names it uses
    std::vector<Use> work;
    for (auto& [name, by] : uses) {
      if (by < 0 || m_candidates[static_cast<std::size_t>(by)].selected)
        work.push_back(std::move(name));
      else
        waiting[by].push_back(std::move(name));
    }
    for (std::size_t i = 0; i < m_candidates.size(); ++i) {
      if (!m_candidates[i].selected) continue;
      const auto it = waiting.find(static_cast<std::int64_t>(i));
      if (it == waiting.end()) continue;
      work.insert(work.end(), it->second.begin(), it->second.end());
      waiting.erase(it);
    }
    while (!work.empty()) {
      const Use next = std::move(work.back());
      work.pop_back();
      for (const std::size_t i : m_by_name[next.name]) {
        if (m_candidates[i].selected || (next.exact >= 0 && static_cast<std::int64_t>(i) != next.exact) ||
            (next.classes_only && m_candidates[i].dead_unless_used != DeadCode::unused_class))
          continue;
        m_candidates[i].selected = true;
        const auto it = waiting.find(static_cast<std::int64_t>(i));
        if (it == waiting.end()) continue;
        work.insert(work.end(), it->second.begin(), it->second.end());
        waiting.erase(it);
      }
    }
  }

  // Unselected candidates' functions get the opt-in gate; named ones are reached from a config, a call
  // the call graph cannot see.
  void gate_unselected() {
    for (const auto& c : m_candidates) {
      if (c.dead_unless_used != DeadCode::live) {
        if (!c.selected) mark_dead(c);
        continue;
      }
      const std::string option = "config selects " + (c.registered.empty() ? c.name : c.registered);
      const auto& file = m_impl.files[c.file.value];
      for (std::size_t i = 0; i < file.functions.size(); ++i) {
        facts::Context ctx;
        ctx.function = static_cast<std::int32_t>(i);
        if (owner(c.file.value, ctx) != &c - m_candidates.data()) continue;
        if (c.selected) {
          // The config builds the class and the model calls it: its constructor and call methods.
          const FactString& name = file.functions[i].name;
          const bool entry = c.klass < 0
                                 ? static_cast<std::int32_t>(i) == c.function
                                 : file.functions[i].parent < 0 && (name == "__init__" || name == "forward" ||
                                                                    name == "__call__" || name == "from_config");
          m_impl.config_selected[c.file.value][i] = c.named && entry;
          continue;
        }
        m_impl.function_gate[c.file.value][i] |= facts::guard_bit(facts::Guard::opt_in);
        if (m_impl.function_gate_option[c.file.value][i].empty()) m_impl.function_gate_option[c.file.value][i] = option;
      }
    }
  }

  void mark_dead(const Candidate& c) {
    const auto& file = m_impl.files[c.file.value];
    for (std::size_t i = 0; i < file.functions.size(); ++i) {
      facts::Context ctx;
      ctx.function = static_cast<std::int32_t>(i);
      if (owner(c.file.value, ctx) == &c - m_candidates.data())
        m_impl.dead_function[c.file.value][i] = c.dead_unless_used;
    }
  }

  // Definitions a later one of the same name replaces (program/symbols: shadowed_definitions).
  void mark_shadowed() {
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      if (m_impl.files[f].is_test) continue;
      auto& dead = m_impl.dead_function[f];
      for (std::size_t i = 0; i < dead.size(); ++i) {
        if (dead[i] == DeadCode::live && m_impl.symbols->shadowed(FunctionId{FileId{f}, static_cast<std::int32_t>(i)}))
          dead[i] = DeadCode::shadowed;
      }
    }
  }

  // Nested functions nothing in their enclosing function names (facts: FunctionInfo::unreferenced_nested), and
  // the functions nested in them (definitions come in document order: a parent before its children).
  void mark_unreferenced_nested() {
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& functions = m_impl.files[f].functions;
      auto& dead = m_impl.dead_function[f];
      for (std::size_t i = 0; i < functions.size(); ++i) {
        const std::int32_t parent = functions[i].parent;
        const bool inside_dead = parent >= 0 && dead[static_cast<std::size_t>(parent)] == DeadCode::unreferenced_nested;
        if ((functions[i].unreferenced_nested || inside_dead) && dead[i] == DeadCode::live)
          dead[i] = DeadCode::unreferenced_nested;
      }
    }
  }

  // A module-level kernel (`@triton.jit def flatten_kernel`) that code outside tests launches or names
  // only from dead code (a shadowed wrapper) never runs either. A kernel nothing names stays live: it
  // may be the library's API.
  void mark_kernels_of_dead_code() {
    if (!m_impl.lockin_knowledge.kernel_decorator) return;
    std::unordered_map<std::string, std::vector<FunctionId>> kernels;  // name -> live module-level kernels
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      if (file.is_test || file.kind != discover::FileKind::python) continue;
      for (std::int32_t i = 0; i < static_cast<std::int32_t>(file.functions.size()); ++i) {
        const auto& fn = file.functions[static_cast<std::size_t>(i)];
        if (!top_level(fn) || m_impl.dead_function[f][static_cast<std::size_t>(i)] != DeadCode::live) continue;
        if (std::any_of(fn.decorators.begin(), fn.decorators.end(), m_impl.lockin_knowledge.kernel_decorator))
          kernels[fn.name].push_back(FunctionId{FileId{f}, i});
      }
    }
    if (kernels.empty()) return;
    std::unordered_map<std::string, std::pair<bool, bool>> named;  // name -> (named by dead code, by live code)
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      if (file.is_test) continue;
      const auto use = [&](std::string_view text, const facts::Context& ctx) {
        if (text.empty()) return;
        const std::string name = last_name(text.substr(0, text.find('[')));
        if (!kernels.count(name)) return;
        const bool dead =
            ctx.function >= 0 && m_impl.dead_function[f][static_cast<std::size_t>(ctx.function)] != DeadCode::live;
        (dead ? named[name].first : named[name].second) = true;
      };
      visit_value_uses(file, use, false);
    }
    for (const auto& [name, ids] : kernels) {
      const auto it = named.find(name);
      if (it == named.end() || !it->second.first || it->second.second) continue;
      for (const FunctionId& id : ids) {
        auto& dead = m_impl.dead_function[id.file.value];
        dead[static_cast<std::size_t>(id.index)] = DeadCode::used_only_by_dead_code;
        // Its nested functions (a Triton kernel rarely has any) die with it.
        const auto& functions = m_impl.files[id.file.value].functions;
        for (std::size_t i = static_cast<std::size_t>(id.index) + 1; i < functions.size(); ++i) {
          const std::int32_t parent = functions[i].parent;
          if (parent >= 0 && dead[static_cast<std::size_t>(parent)] != DeadCode::live && dead[i] == DeadCode::live)
            dead[i] = DeadCode::used_only_by_dead_code;
        }
      }
    }
  }

  // A Ray actor's methods run only through its handles (`ray.get(actor.offload.remote())`), never as a
  // library's API: a method of an actor class (or of a repo base class of one) whose name no code outside
  // tests uses, as a call, an attribute, a value or a string, never runs.
  void mark_unused_actor_methods() {
    if (m_impl.ray_actors.empty()) return;
    std::set<std::pair<std::uint32_t, std::int32_t>> classes;
    std::vector<ClassId> work;
    for (const RayActor& actor : m_impl.ray_actors) work.push_back(actor.klass);
    while (!work.empty() && classes.size() < 256) {
      const ClassId at = work.back();
      work.pop_back();
      if (!classes.emplace(at.file.value, at.index).second) continue;
      const auto& info = m_impl.files[at.file.value].classes[static_cast<std::size_t>(at.index)];
      for (std::size_t b = 0; b < info.bases.size(); ++b) {
        if (const auto base = m_impl.symbols->base_class(at, b)) work.push_back(*base);
      }
    }
    std::unordered_set<std::string_view> used;  // every name segment code outside tests mentions (the facts' text)
    const auto add = [&](std::string_view text) {
      for (std::size_t from = 0; from <= text.size();) {
        const auto end = text.find_first_of(".([", from);
        used.emplace(text.substr(from, end == std::string_view::npos ? std::string_view::npos : end - from));
        if (end == std::string_view::npos) break;
        from = end + 1;
      }
    };
    for (const auto& file : m_impl.files) {
      if (file.is_test) continue;
      for (const auto& call : file.calls) {
        add(call.callee_text.view());
        add(call.receiver_text.view());
        add(call.method.view());
        for (const auto& arg : call.args) add(arg.value.view());
      }
      for (const auto& ref : file.references) add(ref.text.view());
      for (const auto& assign : file.assigns) add(assign.value.value.view());
      for (const auto& value : file.values) add(value.name.view());
      for (const auto& name : file.name_strings) add(name.view());
      for (const auto& name : file.used_names) add(name.view());
    }
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& functions = m_impl.files[f].functions;
      for (std::size_t i = 0; i < functions.size(); ++i) {
        const auto& fn = functions[i];
        if (fn.klass < 0 || fn.parent >= 0 || !classes.count({f, fn.klass}) || starts_with(fn.name.view(), "__") ||
            used.count(fn.name.view()) || m_impl.dead_function[f][i] != DeadCode::live)
          continue;
        m_impl.dead_function[f][i] = DeadCode::unused_actor_method;
        for (std::size_t n = i + 1; n < functions.size() && functions[n].parent >= static_cast<std::int32_t>(i); ++n)
          if (m_impl.dead_function[f][n] == DeadCode::live) m_impl.dead_function[f][n] = DeadCode::unused_actor_method;
      }
    }
  }

  Program::Impl& m_impl;
  std::unordered_set<std::string> m_strings;  ///< name strings and config values (and their last names)
  std::unordered_set<std::string> m_component_names;
  std::unordered_set<std::string> m_got_by_key;  ///< last names of receivers of `.get(key)` with a computed key  ///<
                                                 ///< last names of `_component_`/`_target_` values
  std::vector<Candidate> m_candidates;
  std::set<std::tuple<std::uint32_t, std::int32_t, std::int32_t>> m_seen;
  std::map<std::tuple<std::uint32_t, std::int32_t, std::int32_t>, std::int64_t> m_owner;  ///< (file, class, fn)
  std::unordered_map<std::string, std::vector<std::size_t>> m_by_name;
};

}  // namespace

void find_unselected_variants(Program::Impl& impl) {
  Variants(impl).run();
}

}  // namespace tr2audit::program
