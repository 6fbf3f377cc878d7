// The call graph over the repo's own functions. Edges come from calls (resolved imports, bare names,
// self.method through repo base classes, constructors of repo classes, method names only one repo class
// defines), from functions passed as values (collate_fn=, loss_fn=, callbacks, register_*_hook(f)) and
// from repo classes and functions named by dotted strings (`worker_extension_cls="pkg.mod.Cls"`).
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "program/call_graph_support.hpp"
#include "program/model.hpp"
#include "tr2audit/core/parallel.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/facts/region.hpp"

namespace tr2audit::program {
namespace {

constexpr std::size_t k_max_overrides = 32;     // overrides a `self.method()` call may dispatch to
constexpr std::size_t k_max_actor_methods = 8;  // Ray actor methods a `handle.method.remote()` may run

/// Adds the edges of one file's calls. Reads the whole model, writes only `impl.edges[file]`, so the
/// files of a repo are done in parallel, one builder per worker.
class GraphBuilder {
 public:
  /// Edges a file's calls hand over to a function of any file (hand_over), per source file: a builder
  /// writes only the slot of the file it is doing, and build_call_graph adds them after all files.
  using HandedEdges = std::vector<std::vector<std::pair<FunctionId, Edge>>>;

  GraphBuilder(Program::Impl& impl, const SubclassIndex& subclasses, const ScriptIndex& scripts,
               const DispatchTableIndex& tables, HandedEdges& handed)
      : m_impl(impl),
        m_symbols(*impl.symbols),
        m_subclasses(subclasses),
        m_scripts(scripts),
        m_tables(tables),
        m_handed(handed) {}

  void run(FileId id) {
    m_file = id;
    const auto& file = m_impl.files[id.value];
    m_impl.edges[id.value].resize(file.functions.size() + 1);
    collect_metrics_arguments(file);
    collect_instances(id);
    for (std::size_t c = 0; c < file.calls.size(); ++c) {
      m_call = static_cast<std::int32_t>(c);
      add_call_edges(id, file.calls[c]);
    }
    add_patches(id);
    finish_instances(id);
  }

  // A monkey patch (`LlamaAttention.forward = forward`, `LlamaModel._prepare_decoder_attention_mask =
  // _prepare_mask`): a repo function assigned over an attribute of an imported class or module runs
  // wherever the library calls that attribute, from the moment the patching code has run.
  void add_patches(FileId id) {
    const auto& file = m_impl.files[id.value];
    m_call = -1;
    for (const auto& assign : file.assigns) {
      if (!assign.target_is_import || assign.value.kind != facts::LiteralKind::name) continue;
      const Symbol s = value_symbol(id, assign.ctx, assign.value);
      if (s.kind != Symbol::Kind::function) continue;
      Edge edge{s.function};
      edge.patches = true;
      add(id, assign.ctx, edge);
    }
  }

 private:
  void add(FileId file, const facts::Context& ctx, Edge edge, bool by_name = false) {
    m_impl.edges[file.value][m_impl.slot(function_at(file, ctx))].push_back(complete(file, ctx, edge, by_name));
  }

  Edge complete(FileId file, const facts::Context& ctx, Edge edge, bool by_name = false) const {
    const auto& facts = m_impl.files[file.value];
    edge.call = m_call;
    edge.by_name = by_name || m_remote;
    edge.remote = m_remote;
    edge.dispatch = edge.dispatch || m_dispatch;
    edge.in_training_loop = in_training_loop(m_impl, file, ctx);
    edge.periodic = ctx.has(facts::Guard::periodic) || once_per_epoch(m_impl, file, ctx);
    edge.guards = ctx.guards;
    if (m_call >= 0 && calls_kv_cache(facts.calls[static_cast<std::size_t>(m_call)]))
      edge.guards |= facts::guard_bit(facts::Guard::not_training);
    edge.branch = ctx.branch;
    if (!edge.fixed_role) edge.fixed_role = command_branch_role(facts, ctx.branch);
    // `Trainer(..., compute_metrics=ComputeAccuracy(tokenizer))`: what the argument builds runs when the trainer
    // evaluates.
    if (!edge.fixed_role && m_call >= 0 && in_metrics_argument(facts.calls[static_cast<std::size_t>(m_call)].at))
      edge.fixed_role = Role::training_eval;
    return edge;
  }

  // A Hugging Face trainer calls its `compute_metrics` and `preprocess_logits_for_metrics` only when it evaluates.
  static bool metrics_keyword(std::string_view keyword) {
    return keyword == "compute_metrics" || keyword == "preprocess_logits_for_metrics";
  }

  // Also a dict entry handed to the trainer as keywords (LLaMA-Factory's `metric_module["compute_metrics"] =
  // ComputeAccuracy()`, then `Trainer(**metric_module)`).
  void collect_metrics_arguments(const facts::FileFacts& file) {
    m_metrics_arguments.clear();
    for (const auto& call : file.calls) {
      for (const auto& arg : call.args) {
        if (metrics_keyword(arg.keyword) && arg.kind != facts::LiteralKind::name) m_metrics_arguments.push_back(arg.at);
      }
    }
    for (const auto& value : file.values) {
      if (value.sink == facts::ValueSink::dict_entry && metrics_keyword(value.key) && value.name.empty())
        m_metrics_arguments.push_back(value.value);
    }
  }

  bool in_metrics_argument(const Span& at) const {
    return std::any_of(m_metrics_arguments.begin(), m_metrics_arguments.end(),
                       [&](const Span& arg) { return at.start_byte >= arg.start_byte && at.end_byte <= arg.end_byte; });
  }

  void add_symbol(FileId file, const facts::Context& ctx, const Symbol& symbol) {
    if (symbol.kind == Symbol::Kind::function && symbol.autograd_apply) {
      add_apply(file, ctx, symbol.klass);
    } else if (symbol.kind == Symbol::Kind::function) {
      add(file, ctx, Edge{symbol.function}, true);
    } else if (symbol.kind == Symbol::Kind::klass) {
      add_construction(file, ctx, symbol.klass);
    }
  }

  void add_construction(FileId file, const facts::Context& ctx, ClassId klass, bool deferred = false) {
    Edge edge;
    edge.constructs = true;
    edge.deferred = deferred;
    edge.klass = klass;
    const auto init = m_symbols.method(klass, "__init__");
    edge.target = init ? *init : FunctionId{klass.file, -2};
    add(file, ctx, edge);
  }

  // `DeepEPTokenDispatcher.Config(...)`: a component's own nested Config, whose `build()` makes the
  // component later (torchtitan's Configurable). Where the config is made, under its gates, is where the
  // component is chosen: the call builds the owner too.
  void add_config_owner(FileId file, const facts::CallFact& call) {
    if (call.method != "Config" || call.receiver_text.empty()) return;
    Symbol owner;
    if (!call.callee.empty()) {
      const std::string_view dotted = call.callee.dotted();
      owner = m_symbols.lookup_from(file, dotted.substr(0, dotted.size() - std::string_view(".Config").size()));
    } else {
      owner = resolve_bare(file, call.ctx, call.receiver_text);
    }
    if (owner.kind != Symbol::Kind::klass) return;
    const auto& classes = m_impl.files[owner.klass.file.value].classes;
    const std::string nested = classes[static_cast<std::size_t>(owner.klass.index)].qualname.str() + ".Config";
    if (std::none_of(classes.begin(), classes.end(), [&](const facts::ClassInfo& c) { return c.qualname == nested; }))
      return;
    add_construction(file, call.ctx, owner.klass, true);
  }

  // `Fn.apply(...)` runs a torch.autograd.Function's forward (and, in training, its backward).
  void add_apply(FileId file, const facts::Context& ctx, ClassId function_class) {
    for (const char* name : {"forward", "backward"}) {
      if (auto m = m_symbols.method(function_class, name)) add(file, ctx, Edge{*m}, true);
    }
  }

  // What a name used as a value denotes: through the imports, else a bare name of this scope.
  Symbol value_symbol(FileId file, const facts::Context& ctx, const facts::Argument& value) const {
    Symbol s = value.resolved.empty() ? Symbol{} : m_symbols.lookup_from(file, value.resolved.dotted());
    if (s.kind == Symbol::Kind::none && value.value.find('.') == std::string::npos)
      s = resolve_bare(file, ctx, value.value);
    return s;
  }

  // A bare name: a def nested in the caller (or its parents), else the file's top level.
  Symbol resolve_bare(FileId file, const facts::Context& ctx, std::string_view name) const {
    const auto& facts = m_impl.files[file.value];
    for (std::int32_t fn = ctx.function; fn >= 0; fn = facts.functions[static_cast<std::size_t>(fn)].parent) {
      for (std::int32_t i = 0; i < static_cast<std::int32_t>(facts.functions.size()); ++i) {
        const auto& inner = facts.functions[static_cast<std::size_t>(i)];
        if (inner.parent == fn && inner.klass < 0 && inner.name == name) {
          Symbol s;
          s.kind = Symbol::Kind::function;
          s.function = FunctionId{file, i};
          return s;
        }
      }
    }
    return m_symbols.lookup_in_file(file, name);
  }

  // `recipe = Recipe(cfg)` in a function and `self.loss = Loss()` in a class: the repo class an instance
  // name holds, so that `recipe.train()` and `self.loss(x)` reach its methods.
  void collect_instances(FileId file) {
    m_locals.clear();
    m_attributes.clear();
    m_library_locals.clear();
    m_library_attributes.clear();
    m_function_attributes.clear();
    const auto& facts = m_impl.files[file.value];
    for (const auto& assign : facts.assigns) {
      const FactString& text = assign.value.value;
      if (assign.value.kind == facts::LiteralKind::name && assign.ctx.klass >= 0 &&
          assign.target_text.rfind("self.", 0) == 0)  // `self.actor_generate = self.actor.generate`
        m_function_attributes[{assign.ctx.klass, std::string(assign.target_text.substr(5))}].push_back(&assign);
      const auto paren = text.find('(');
      if (assign.value.kind != facts::LiteralKind::other || paren == std::string::npos || paren == 0) continue;
      const std::string_view callee = text.substr(0, paren);
      if (callee.find_first_of(" [") != std::string_view::npos) continue;
      const FactString& target = assign.target_text;
      const bool attribute = target.rfind("self.", 0) == 0 && assign.ctx.klass >= 0;
      const bool local = !attribute && target.find('.') == std::string::npos;
      if (!attribute && !local) continue;
      const Symbol s = callee.find('.') == std::string_view::npos ? resolve_bare(file, assign.ctx, callee) : Symbol{};
      if (s.kind == Symbol::Kind::klass) {  // `recipe = Recipe(cfg)`, `self.loss = Loss()`
        if (attribute)
          m_attributes[{assign.ctx.klass, std::string(target.substr(5))}] = s.klass;
        else
          m_locals[{assign.ctx.function, target}] = s.klass;
      } else if (imported_from_library(file, callee)) {  // `llm = LLM(...)`, `self.llm = vllm.LLM(...)`
        if (attribute)
          m_library_attributes.emplace(assign.ctx.klass, std::string(target.substr(5)));
        else
          m_library_locals.emplace(assign.ctx.function, std::string(target));
      }
    }
  }

  // The first name of a dotted callee is bound by an import of a library (not the repo's own code).
  bool imported_from_library(FileId file, std::string_view callee) const {
    const std::string_view first = callee.substr(0, callee.find('.'));
    const auto& imports = m_impl.files[file.value].imports;
    for (std::size_t i = 0; i < imports.size(); ++i) {
      const auto& fact = imports[i];
      const std::string_view bound = fact.bound_name.empty() ? fact.target.first_segment() : fact.bound_name.view();
      if (bound == first) return m_symbols.origins()[file.value][i] == ImportOrigin::external;
    }
    return false;
  }

  // The receiver holds an instance of a library class in this scope (`llm.generate(...)` after `llm =
  // LLM(...)`): its methods are the library's, never the repo's methods of the same name.
  bool library_instance(const facts::Context& ctx, std::string_view receiver) const {
    if (receiver.rfind("self.", 0) == 0 && ctx.klass >= 0)
      return m_library_attributes.contains({ctx.klass, std::string(receiver.substr(5))});
    return m_library_locals.contains({ctx.function, std::string(receiver)});
  }

  // The repo classes a receiver holds: `self.loss` built in __init__, an attribute program/types typed
  // (constructor parameters, builders, registries, through repo bases), or a local bound to a call.
  std::vector<ClassId> instance_classes(FileId file, const facts::Context& ctx, const std::string& receiver) const {
    std::vector<ClassId> out;
    const auto& facts = m_impl.files[file.value];
    if (receiver.rfind("self.", 0) == 0 && ctx.klass >= 0) {
      const std::string attribute = receiver.substr(5);
      const auto it = m_attributes.find({ctx.klass, attribute});
      if (it != m_attributes.end()) out.push_back(it->second);
      for (const ClassId& c : attribute_classes(m_impl, ClassId{file, ctx.klass}, attribute)) {
        if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
      }
      return out;
    }
    for (std::int32_t fn = ctx.function;; fn = facts.functions[static_cast<std::size_t>(fn)].parent) {
      const auto it = m_locals.find({fn, receiver});
      if (it != m_locals.end()) return {it->second};
      const auto typed = m_impl.types.locals.find({file.value, fn, receiver});
      if (typed != m_impl.types.locals.end()) return typed->second;
      if (fn < 0) break;
    }
    return out;
  }

  // `self.get_transform(x)` in a base class runs the override of whichever repo subclass `self` is: each
  // override (below the calling class, at most k_max_overrides of them) may run.
  void add_overrides(FileId file, const facts::Context& ctx, ClassId klass, const std::string& method) {
    std::vector<ClassId> queue{klass};
    std::vector<FunctionId> overrides;
    for (std::size_t next = 0; next < queue.size() && queue.size() <= k_max_overrides * 4; ++next) {
      const auto it = m_subclasses.find({queue[next].file.value, queue[next].index});
      if (it == m_subclasses.end()) continue;
      for (const ClassId& sub : it->second) {
        if (std::find(queue.begin(), queue.end(), sub) != queue.end()) continue;
        queue.push_back(sub);
        const auto& owner = m_impl.files[sub.file.value];
        for (std::int32_t i = 0; i < static_cast<std::int32_t>(owner.functions.size()); ++i) {
          const auto& fn = owner.functions[static_cast<std::size_t>(i)];
          if (fn.klass == sub.index && fn.parent < 0 && fn.name == method) overrides.push_back(FunctionId{sub.file, i});
        }
      }
    }
    if (overrides.empty() || overrides.size() > k_max_overrides) return;
    m_dispatch = true;
    for (const FunctionId& fn : overrides) add(file, ctx, Edge{fn}, true);
    m_dispatch = false;
  }

  // A module (or callable object) called: its forward, else its __call__.
  void add_run(FileId file, const facts::Context& ctx, ClassId klass) {
    if (auto m = m_symbols.run_method(klass)) add(file, ctx, Edge{*m});
  }

  // `ROI_HEADS_REGISTRY.get(name)(cfg)`, `MODELS.build(cfg)`, `REG[name](...)`, `build_from_cfg(cfg, MODELS)`:
  // every class (and builder function) registered there may be built.
  void add_registry(FileId file, const facts::Context& ctx, const Registry& registry) {
    m_dispatch = registry.classes.size() + registry.functions.size() > 1;
    for (const ClassId& klass : registry.classes) add_symbol(file, ctx, Symbol{Symbol::Kind::klass, {}, klass, {}});
    for (const FunctionId& fn : registry.functions) add(file, ctx, Edge{fn});
    m_dispatch = false;
  }

  // `QuantizationPlugin("bnb")(kwargs)` runs the entry registered as "bnb"; `KernelPlugin(name).apply(model)`
  // runs `apply` of every class registered in that family (only the named one for a literal name).
  bool add_instance_dispatch(FileId file, const facts::CallFact& call) {
    const std::string_view text = call.method.empty() ? std::string_view(call.callee_text) : call.receiver_text;
    if (text.empty() || text.back() != ')') return false;
    const RegistryLookup lookup = registry_instance(m_impl, text);
    if (lookup.registry == nullptr) return false;
    const Registry& registry = *lookup.registry;
    const auto wanted = [&](const std::string& key) { return lookup.key.empty() || key == lookup.key; };
    std::vector<Symbol> targets;
    for (std::size_t i = 0; i < registry.classes.size(); ++i) {
      if (!wanted(registry.class_keys[i])) continue;
      if (call.method.empty()) {
        targets.push_back(Symbol{Symbol::Kind::klass, {}, registry.classes[i], {}});
      } else if (auto m = m_symbols.method(registry.classes[i], call.method)) {
        targets.push_back(Symbol{Symbol::Kind::function, *m, {}, {}});
      }
    }
    for (std::size_t i = 0; i < registry.functions.size() && call.method.empty(); ++i) {
      if (wanted(registry.function_keys[i]))
        targets.push_back(Symbol{Symbol::Kind::function, registry.functions[i], {}, {}});
    }
    m_dispatch = targets.size() > 1;
    for (const Symbol& target : targets) {
      if (target.kind == Symbol::Kind::klass)
        add_symbol(file, call.ctx, target);
      else
        add(file, call.ctx, Edge{target.function});
    }
    m_dispatch = false;
    return true;
  }

  // The backward and setup an op's `register_autograd` names run wherever the op runs (program/custom_ops).
  void add_autograd_registration(FileId file, const facts::CallFact& call) {
    const auto registration = autograd_registration(m_impl, file, call);
    if (!registration) return;
    facts::Context at;
    at.function = registration->op.index;
    const std::int32_t site = std::exchange(m_call, -1);  // the edge is the op's, not this call's
    for (const FunctionId& fn : registration->functions) add(registration->op.file, at, Edge{fn}, true);
    m_call = site;
  }

  // `torch.ops.torchprobe.log(x)` / `torch.ops.torchprobe.log.default(x)` of an op the repo defines in
  // Python runs that function.
  void add_python_op_edge(FileId file, const facts::CallFact& call) {
    if (const auto* op = python_op_called(m_impl, call.callee.dotted())) add(file, call.ctx, Edge{op->function}, true);
  }

  void add_registry_edges(FileId file, const facts::CallFact& call) {
    if (add_instance_dispatch(file, call)) return;
    if (add_table_edges(file, call)) return;
    if ((call.method == "get" || call.method == "build") && !call.receiver_text.empty()) {
      if (const Registry* registry = registry_named(m_impl, call.receiver_text))
        add_registry(file, call.ctx, *registry);
      return;
    }
    const std::string_view name = call.method.empty() ? call.callee.last_segment() : std::string_view(call.method);
    if (name.find("build") == std::string_view::npos && call.callee_text.find("build") == std::string::npos) return;
    for (const auto& arg : call.args) {
      if (arg.kind != facts::LiteralKind::name) continue;
      if (const Registry* registry = registry_named(m_impl, arg.value)) add_registry(file, call.ctx, *registry);
    }
  }

  // `CONFIG_TO_MODEL_CLASS[name](config=...)`: every entry the table holds may be built or run (table_targets).
  bool add_table_edges(FileId file, const facts::CallFact& call) {
    const std::vector<TableTarget> targets = table_targets(m_impl, m_tables, file, call);
    if (targets.empty()) return false;
    m_dispatch = targets.size() > 1;
    for (const TableTarget& target : targets) {
      facts::Context ctx = call.ctx;
      ctx.guards |= target.guards;
      add_symbol(file, ctx, target.symbol);
    }
    m_dispatch = false;
    return true;
  }

  // Ray: `Actor.remote(...)` / `Actor.options(...).remote(...)` creates an actor (its __init__ runs), and
  // `handle.method.remote(...)` runs `method` on one: the edges of `handle.method(...)`, and when the
  // handle's class is unknown, that method of every repo actor that has it (at most k_max_actor_methods).
  // Returns false for other calls.
  bool add_remote_edges(FileId file, const facts::CallFact& call) {
    if (call.method != "remote" || m_impl.ray_actors.empty()) return false;
    if (const auto actor = actor_created(m_impl, file, call)) {
      add_symbol(file, call.ctx, Symbol{Symbol::Kind::klass, {}, *actor, {}});
      return true;
    }
    const std::string_view receiver = call.receiver_text;
    const auto dot = receiver.rfind('.');
    if (dot == std::string_view::npos || dot == 0 || receiver.back() == ')') return false;
    const std::string_view method = receiver.substr(dot + 1);
    if (method.empty() || method == "remote" || method.find_first_of("([ ") != std::string_view::npos) return false;
    facts::CallFact inner;  // the method call the handle runs remotely, as if made here
    inner.method = FactString(method);
    inner.receiver_text = FactString(receiver.substr(0, dot));
    inner.callee_text = FactString(receiver);
    inner.receiver_is_self = inner.receiver_text == "self" || inner.receiver_text == "cls";
    inner.at = call.at;
    inner.ctx = call.ctx;
    const std::string handle(inner.receiver_text);
    if (!inner.receiver_is_self && instance_classes(file, call.ctx, handle).empty()) {
      const auto methods = actor_methods(m_impl, method, m_impl.files[file.value].is_test);
      if (methods.empty() || methods.size() > k_max_actor_methods) return true;
      m_dispatch = methods.size() > 1;
      for (const FunctionId& m : methods) add(file, call.ctx, Edge{m}, true);
      m_dispatch = false;
      return true;
    }
    m_remote = true;  // a method of the handle's actor class, named by the call
    add_target_edges(file, inner);
    m_remote = false;
    return true;
  }

  void add_call_edges(FileId file, const facts::CallFact& call) {
    if (!add_remote_edges(file, call)) add_target_edges(file, call);
    add_argument_edges(file, call);
    add_lightning_hooks(file, call);
  }

  // `trainer.fit(model=model, datamodule=datamodule)`: Lightning's Trainer runs the hooks of the module and
  // the data module it is handed (the training_step is an entry point of its own): the data module's
  // loaders and setup, the module's setup and optimizers.
  void add_lightning_hooks(FileId file, const facts::CallFact& call) {
    if (call.method != "fit" || to_lower(call.receiver_text).find("trainer") == std::string::npos) return;
    static constexpr std::string_view k_data_hooks[] = {"prepare_data", "setup", "train_dataloader", "val_dataloader"};
    static constexpr std::string_view k_module_hooks[] = {"prepare_data",         "setup",        "configure_model",
                                                          "configure_optimizers", "on_fit_start", "on_train_start"};
    for (const auto& arg : call.args) {
      if (arg.kind != facts::LiteralKind::name || !is_identifier(arg.value)) continue;
      for (const ClassId& klass : instance_classes(file, call.ctx, std::string(arg.value))) {
        const std::string_view kind = lightning_base(klass);
        if (kind.empty()) continue;
        const auto add_hooks = [&](const auto& hooks) {
          for (const std::string_view hook : hooks) {
            const auto m = m_symbols.method(klass, hook);
            if (!m) continue;
            Edge edge{*m};
            edge.fixed_role = hook == "train_dataloader" ? Role::data
                              : hook == "val_dataloader" ? Role::training_eval
                                                         : Role::setup;
            add(file, call.ctx, edge);
          }
        };
        if (kind == "LightningDataModule")
          add_hooks(k_data_hooks);
        else
          add_hooks(k_module_hooks);
      }
    }
  }

  // "LightningDataModule" or "LightningModule" when a repo class derives from one (through repo bases), else "".
  std::string_view lightning_base(ClassId klass) const {
    ClassId at = klass;
    for (int hop = 0; hop < k_max_base_hops; ++hop) {
      for (const auto& base : m_impl.files[at.file.value].classes[static_cast<std::size_t>(at.index)].bases) {
        const std::string_view dotted = base.dotted();
        if (ends_with(dotted, "LightningDataModule")) return "LightningDataModule";
        if (ends_with(dotted, "LightningModule")) return "LightningModule";
      }
      const auto next = m_symbols.base_class(at, 0);
      if (!next) break;
      at = *next;
    }
    return {};
  }

  // `super().forward(x)`, `super(Sub, self).__init__(d)`: the method of the first repo base class (of the
  // calling class, or of the class named) that has it. True when the receiver is `super(...)`, whether or
  // not a repo base has the method (a library base's method runs library code).
  bool add_super_call(FileId file, const facts::CallFact& call) {
    const std::string_view receiver = call.receiver_text;
    if (call.method.empty() || call.ctx.klass < 0 || !starts_with(receiver, "super(") || receiver.back() != ')')
      return false;
    ClassId start{file, call.ctx.klass};
    if (receiver != "super()") {
      std::string_view named = receiver.substr(6, receiver.size() - 7);
      named = named.substr(0, named.find(','));
      while (!named.empty() && named.back() == ' ') named.remove_suffix(1);
      const Symbol s = resolve_bare(file, call.ctx, named);
      if (s.kind == Symbol::Kind::klass) start = s.klass;
    }
    const auto& owner = m_impl.files[start.file.value].classes[static_cast<std::size_t>(start.index)];
    for (std::size_t b = 0; b < owner.bases.size(); ++b) {
      const auto base = m_symbols.base_class(start, b);
      if (!base) continue;
      if (auto m = m_symbols.method(*base, call.method)) {
        add(file, call.ctx, Edge{*m});
        break;
      }
    }
    return true;
  }

  // What the call itself runs.
  void add_target_edges(FileId file, const facts::CallFact& call) {
    bool typed = false;  // the receiver's classes are known: no fallback by method name
    if (add_super_call(file, call)) {
      typed = true;
    } else if (!call.method.empty() && call.callee.empty()) {
      auto classes = instance_classes(file, call.ctx, call.receiver_text);
      // `TrainLoop(model=model, ...).run_loop()`: the receiver builds a repo class.
      // (`SFTTrainer(cfg).fit()` with the class defined in the same file: a name of the file's own.)
      if (const std::string builder = classes.empty() ? receiver_builder(call) : std::string(); !builder.empty()) {
        const Symbol built = call.receiver_callee.empty() ? m_symbols.lookup_in_file(file, builder)
                                                          : m_symbols.lookup_from(file, builder);
        if (built.kind == Symbol::Kind::klass) classes.push_back(built.klass);
      }
      typed = !classes.empty();
      m_dispatch = classes.size() > 1;
      for (const ClassId& klass : classes) {
        if (auto m = m_symbols.method(klass, call.method)) add(file, call.ctx, Edge{*m});
      }
      // `self.block(x)`: a submodule built in __init__ (or handed to it) runs its forward.
      if (call.receiver_is_self && call.ctx.klass >= 0) {
        const auto modules = instance_classes(file, call.ctx, "self." + call.method);
        m_dispatch = modules.size() > 1;
        for (const ClassId& klass : modules) add_run(file, call.ctx, klass);
      }
      m_dispatch = false;
    } else if (call.method.empty() && call.callee.empty() &&
               call.callee_text.find_first_of(".([ ") == std::string::npos) {
      // `model(x)` on a local bound to a call that builds a repo module.
      const auto classes = instance_classes(file, call.ctx, call.callee_text);
      m_dispatch = classes.size() > 1;
      for (const ClassId& klass : classes) add_run(file, call.ctx, klass);
      m_dispatch = false;
    }
    add_registry_edges(file, call);
    add_autograd_registration(file, call);
    add_python_op_edge(file, call);
    add_config_owner(file, call);
    // `self.module_builder(**kwargs)`, `block_fn(dim)`: a class handed over as a value is built here; so is
    // what `hydra.utils.instantiate(cfg.model)` builds from the configs' `_target_`s.
    const auto handed_classes = classes_built_from_values(m_impl, file, call);
    m_dispatch = handed_classes.size() > 1;
    for (const ClassId& klass : handed_classes) add_construction(file, call.ctx, klass);
    m_dispatch = false;
    if (!call.callee.empty()) {
      add_symbol(file, call.ctx, m_symbols.lookup_from(file, call.callee.dotted()));
    } else if (call.method.empty() && call.callee_text == "self" && call.ctx.klass >= 0) {
      if (auto m = m_symbols.method(ClassId{file, call.ctx.klass}, "forward")) add(file, call.ctx, Edge{*m});
    } else if (call.method.empty() && call.callee_text == "cls" && call.ctx.klass >= 0) {
      // `return cls(cfg, params, fp32_optimizer)` in a factory classmethod (fairseq's
      // `AMPOptimizer.build_optimizer`): the class is built here.
      add_construction(file, call.ctx, ClassId{file, call.ctx.klass});
    } else if (call.method.empty() && call.callee_text.find('[') != std::string::npos) {
      // `kernel[grid](...)`: a Triton kernel launch runs the decorated repo function.
      const std::string name(call.callee_text.substr(0, call.callee_text.find('[')));
      if (const Registry* registry = registry_named(m_impl, name))
        add_registry(file, call.ctx, *registry);
      else if (name.find_first_of(". ") == std::string::npos)
        add_symbol(file, call.ctx, resolve_bare(file, call.ctx, name));
    } else if (call.method.empty()) {
      add_symbol(file, call.ctx, resolve_bare(file, call.ctx, call.callee_text));
    } else if (call.method == "apply" && !call.receiver_text.empty()) {  // a class of this file: `Fn.apply(...)`
      Symbol owner = resolve_bare(file, call.ctx, call.receiver_text);
      if (owner.kind != Symbol::Kind::klass) owner = m_symbols.lookup_from(file, call.receiver_text);
      if (owner.kind == Symbol::Kind::klass) add_apply(file, call.ctx, owner.klass);
    } else if (call.receiver_is_self && call.ctx.klass >= 0) {
      if (auto m = m_symbols.method(ClassId{file, call.ctx.klass}, call.method)) {
        add(file, call.ctx, Edge{*m}, true);
        add_overrides(file, call.ctx, ClassId{file, call.ctx.klass}, call.method);
      } else {
        add_function_attribute(file, call);
      }
    } else if (!typed && !is_generic_method(call.method) && !library_instance(call.ctx, call.receiver_text)) {
      // A receiver of unknown type: the repo's methods of that name, when few classes define it. A script
      // cannot hold an instance of a class another script defines when no module imports that script
      // (`vllm_instance.generate(...)` in an RL recipe is not the generation recipe's `generate`); library
      // code can, through hooks and subclasses it is handed.
      auto methods = m_symbols.methods_named(call.method);
      if (methods.empty() && !call.receiver_text.empty())
        methods = m_symbols.methods_named_for(call.method, call.receiver_text);
      m_dispatch = methods.size() > 1;
      for (const FunctionId& m : methods) {
        if (m.file == file || !m_scripts.private_script[m.file.value] || !m_scripts.script[file.value])
          add(file, call.ctx, Edge{.target = m, .name_linked = true});
      }
      m_dispatch = false;
    }
  }

  // `self.actor_generate(...)` after `self.actor_generate = self.actor.generate` (or `= self.multinomial`,
  // `= flash_attn_fn`, a repo function): the attribute holds a function, and the call runs it, under the
  // gates of the binding (`if self.attn_impl == "flash": self.attn_fn = flash_attn_fn`) and of the call.
  void add_function_attribute(FileId file, const facts::CallFact& call) {
    const auto bound = m_function_attributes.find({call.ctx.klass, std::string(call.method)});
    if (bound == m_function_attributes.end()) return;
    m_dispatch = bound->second.size() > 1;
    for (const facts::AssignFact* assign : bound->second) {
      const auto add_bound = [&](FunctionId target) {
        Edge edge = complete(file, call.ctx, Edge{target}, true);
        if (assign->ctx.branch >= 0) edge.branch = assign->ctx.branch;
        edge.guards |= assign->ctx.guards;
        m_impl.edges[file.value][m_impl.slot(function_at(file, call.ctx))].push_back(edge);
      };
      const std::string_view text = assign->value.value;
      const auto dot = text.rfind('.');
      if (dot == std::string_view::npos || !assign->value.resolved.empty()) {
        const Symbol s = value_symbol(file, assign->ctx, assign->value);
        if (s.kind == Symbol::Kind::function) add_bound(s.function);
        continue;
      }
      // A method of `self` or of an object the class or the assigning function holds (`self.actor`, a local).
      const std::string receiver(text.substr(0, dot));
      const std::vector<ClassId> classes = receiver == "self" ? std::vector<ClassId>{ClassId{file, call.ctx.klass}}
                                                              : instance_classes(file, assign->ctx, receiver);
      for (const ClassId& klass : classes) {
        if (auto m = m_symbols.method(klass, text.substr(dot + 1))) add_bound(*m);
      }
    }
    m_dispatch = false;
  }

  // What the call's arguments hand over: functions passed as values run as part of the caller's work.
  void add_argument_edges(FileId file, const facts::CallFact& call) {
    // Registering a custom op's backward or fake runs neither (add_autograd_registration links the op).
    if (registers_op_function(call)) return;
    const std::int32_t call_index = m_call;
    m_call = -1;
    // `partial(collate, mask_generator=gen)`: the bound arguments are handed to `collate`, which calls them
    // where it runs (a data-loader worker, for a collate_fn), not where the partial is built.
    const std::optional<FunctionId> bound_to = partial_target(file, call);
    for (const auto& arg : call.args) {
      if (arg.kind != facts::LiteralKind::name) continue;
      if (bound_to && hand_over_instance(file, call.ctx, arg, *bound_to)) continue;
      Symbol s = value_symbol(file, call.ctx, arg);
      if (s.kind == Symbol::Kind::none && arg.value.rfind("self.", 0) == 0 && call.ctx.klass >= 0) {
        if (auto m = m_symbols.method(ClassId{file, call.ctx.klass}, arg.value.substr(5))) {
          s.kind = Symbol::Kind::function;
          s.function = *m;
        }
      }
      if (s.kind != Symbol::Kind::function) continue;
      // `gr.Interface(fn=transcribe)`: a demo app's callback answers requests, as inference.
      // `Trainer(..., compute_metrics=compute_metrics)`: the trainer calls it when it evaluates.
      Edge edge{s.function};
      if (metrics_keyword(arg.keyword)) edge.fixed_role = Role::training_eval;
      const auto ui = call.callee.first_segment();
      edge.in_engine = ui == "gradio" || ui == "streamlit";
      if (bound_to && !(s.function == *bound_to)) {
        hand_over(*bound_to, edge);
        continue;
      }
      add(file, call.ctx, edge);
    }
    // A class handed by name to a serving engine (`LLM(..., worker_extension_cls="pkg.Cls")`) runs
    // inside that engine: inference, whatever role the code that starts the engine has.
    const auto first = call.callee.first_segment();
    const bool engine = first == "vllm" || first == "sglang" || first == "text_generation_server";
    for (const auto& arg : call.args) add_named_reference(file, call.ctx, arg, engine);
    m_call = call_index;
  }

  /// An edge from a function of any file, made while this builder's file is done: kept until every file's
  /// own edges are in, as only `impl.edges[file]` is this builder's to write.
  void hand_over(FunctionId from, const Edge& edge) {
    facts::Context inside;
    inside.function = from.index;
    m_handed[m_file.value].emplace_back(from, complete(from.file, inside, edge));
  }

  /// `partial(collate, mask_generator=gen)` with `gen = MaskingGenerator(...)` here: the object's __call__
  /// (a module's forward) runs inside `collate`, and building it runs neither (finish_instances).
  bool hand_over_instance(FileId file, const facts::Context& ctx, const facts::Argument& arg, FunctionId bound_to) {
    const auto classes = instance_classes(file, ctx, std::string(arg.value));
    if (classes.size() != 1) return false;
    const auto method = m_symbols.run_method(classes.front());
    if (!method) return false;
    hand_over(bound_to, Edge{*method});
    m_handed_locals.emplace_back(ctx.function, classes.front());
    return true;
  }

  /// Marks the constructions of the instances handed over (hand_over_instance) in the function that built them.
  void finish_instances(FileId id) {
    for (const auto& [function, klass] : m_handed_locals) {
      for (Edge& edge : m_impl.edges[id.value][m_impl.slot(FunctionId{id, function})]) {
        if (edge.constructs && edge.klass == klass) edge.handed_over = true;
      }
    }
    m_handed_locals.clear();
  }

  /// The repo function `functools.partial(F, ...)` binds arguments to, when F is one.
  std::optional<FunctionId> partial_target(FileId file, const facts::CallFact& call) const {
    if (call.callee.dotted() != "functools.partial" || call.args.empty()) return std::nullopt;
    const facts::Argument& bound = call.args.front();
    if (!bound.keyword.empty() || bound.kind != facts::LiteralKind::name) return std::nullopt;
    const Symbol s = value_symbol(file, call.ctx, bound);
    if (s.kind != Symbol::Kind::function || s.autograd_apply) return std::nullopt;
    return s.function;
  }

  // `worker_extension_cls="pkg.workers.WeightSync"`, `load_plugin("pkg.ops.fused_norm")`: a repo class
  // or function named by a dotted string is loaded by name and runs in the caller's role. A framework
  // calls a class loaded this way by method name, so each of its methods is reached.
  void add_named_reference(FileId file, const facts::Context& ctx, const facts::Argument& arg, bool engine) {
    if (arg.kind != facts::LiteralKind::string || arg.value.find(' ') != std::string::npos ||
        std::count(arg.value.begin(), arg.value.end(), '.') < 2)
      return;
    const Symbol s = m_symbols.lookup_from(file, arg.value);
    Edge edge;
    edge.in_engine = engine;
    if (s.kind == Symbol::Kind::function) {
      edge.target = s.function;
      add(file, ctx, edge);
    }
    if (s.kind != Symbol::Kind::klass) return;
    const auto& owner = m_impl.files[s.klass.file.value];
    for (std::int32_t i = 0; i < static_cast<std::int32_t>(owner.functions.size()); ++i) {
      const auto& fn = owner.functions[static_cast<std::size_t>(i)];
      if (fn.klass != s.klass.index || fn.parent >= 0) continue;
      edge.target = FunctionId{s.klass.file, i};
      add(file, ctx, edge);
    }
  }

  Program::Impl& m_impl;
  const Symbols& m_symbols;
  std::int32_t m_call = -1;               // the CallFact whose edges are being added; -1 for functions passed as values
  std::vector<Span> m_metrics_arguments;  // this file's `compute_metrics=<expression>` arguments
  bool m_dispatch = false;                // the edges being added may run (several candidate classes), not certainly
  bool m_remote = false;  // the edges being added are a Ray handle's `method.remote()`: they name their target
  const SubclassIndex& m_subclasses;
  const ScriptIndex& m_scripts;
  const DispatchTableIndex& m_tables;
  FileId m_file;                                                         // the file being done
  HandedEdges& m_handed;                                                 // edges of other functions (hand_over)
  std::vector<std::pair<std::int32_t, ClassId>> m_handed_locals;         // (function, class) built and handed over
  std::map<std::pair<std::int32_t, std::string>, ClassId> m_locals;      // (function, name) -> class
  std::map<std::pair<std::int32_t, std::string>, ClassId> m_attributes;  // (class, attribute) -> class
  std::set<std::pair<std::int32_t, std::string>> m_library_locals;       // (function, name): a library instance
  std::set<std::pair<std::int32_t, std::string>> m_library_attributes;   // (class, attribute): a library instance
  // (class, attribute) -> the assignments that bind it to a name (a function or method held as a value)
  std::map<std::pair<std::int32_t, std::string>, std::vector<const facts::AssignFact*>> m_function_attributes;
};

}  // namespace

void build_call_graph(Program::Impl& impl) {
  impl.edges.assign(impl.files.size(), {});
  index_python_ops(impl);
  const SubclassIndex subclasses = index_subclasses(impl);
  const ScriptIndex scripts = index_scripts(impl);
  const DispatchTableIndex tables = index_dispatch_tables(impl);
  const unsigned jobs = std::max(1u, impl.jobs);
  GraphBuilder::HandedEdges handed(impl.files.size());
  std::vector<GraphBuilder> builders(jobs, GraphBuilder(impl, subclasses, scripts, tables, handed));
  parallel_for(impl.files.size(), jobs,
               [&](unsigned worker, std::size_t f) { builders[worker].run(FileId{static_cast<std::uint32_t>(f)}); });
  // In the order of the files and calls that made them: the same graph for any number of workers.
  for (auto& edges : handed) {
    for (auto& [from, edge] : edges) impl.edges[from.file.value][impl.slot(from)].push_back(std::move(edge));
  }
}

}  // namespace tr2audit::program
