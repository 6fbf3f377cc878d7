// Types: which repo classes a value holds, so that calls through attributes and locals of no static
// type reach the methods they run. Linear passes with caps, no recursion:
// - registries: classes (and builder functions) decorated `@X.register()` / `@X.register_module()`,
//   or passed to `X.register(Cls)`; `X.get(name)(...)` / `X.build(cfg)` constructs every one of them;
// - returns: the classes a repo function returns (`return Cls(...)`, `return build_x(cfg)`, `return
//   model` where `model = X.get(name)(cfg)`), as a bounded fixpoint over the returned values;
// - attributes: `self.a = Cls(...)`, `self.a = build_a(cfg)`, and `self.a = a` with `a` a constructor
//   parameter: the values the repo passes for it at the constructor's call sites (`SetCriterion(...,
//   matcher=matcher)`, `matcher = build_matcher(args)`) or puts under its name in a dict built by the
//   class's own methods (`from_config`: `{"roi_heads": build_roi_heads(cfg)}`);
// - locals: a name bound to a call in a function (`model = build_model(cfg)`).
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <unordered_map>

#include "program/model.hpp"
#include "program/option_values.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

constexpr int k_max_passes = 6;  // fixpoint rounds over returned values

bool add_class(std::vector<ClassId>& into, ClassId klass) {
  if (into.size() >= k_max_value_classes || std::find(into.begin(), into.end(), klass) != into.end()) return false;
  into.push_back(klass);
  return true;
}

bool add_classes(std::vector<ClassId>& into, const std::vector<ClassId>& from) {
  bool changed = false;
  for (const ClassId& c : from) changed |= add_class(into, c);
  return changed;
}

std::string last_segment(std::string_view dotted) {
  const auto dot = dotted.rfind('.');
  return std::string(dot == std::string_view::npos ? dotted : dotted.substr(dot + 1));
}

/// `Family(arg)` -> ("Family", "arg"): a call of a (dotted) name whose text ends with its own argument list.
std::optional<std::pair<std::string_view, std::string_view>> split_call_text(std::string_view text) {
  const auto open = text.find('(');
  if (open == std::string_view::npos || open == 0 || text.back() != ')') return std::nullopt;
  const std::string_view name = text.substr(0, open);
  for (const char c : name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return std::nullopt;
  }
  int depth = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
    if (depth == 0 && i + 1 != text.size()) return std::nullopt;  // `A(x)(y)`: not one call
  }
  return std::make_pair(name, text.substr(open + 1, text.size() - open - 2));
}

/// The text of a lone string literal argument (`"bnb"`, `'bnb'`), or "".
std::string string_literal(std::string_view arg) {
  while (!arg.empty() && arg.front() == ' ') arg.remove_prefix(1);
  while (!arg.empty() && arg.back() == ' ') arg.remove_suffix(1);
  if (arg.size() < 2 || (arg.front() != '"' && arg.front() != '\'') || arg.back() != arg.front()) return {};
  const std::string_view inner = arg.substr(1, arg.size() - 2);
  if (inner.find_first_of("\"',\\") != std::string_view::npos) return {};
  return std::string(inner);
}

struct Registration {
  std::string registry;
  std::string key;
  bool by_instance = false;
};

/// `@KernelPlugin("liger_kernel").register()` (an instance of the registry class registers under its
/// name), `@MODELS.register("gpt2")` / `@MODELS.register_module(name="x")` / `@REG.register()`.
std::optional<Registration> registration_of(const facts::DecoratorFact& decorator) {
  const std::string_view text = decorator.text;
  for (const std::string_view method : {").register_module", ").register"}) {
    const auto at = text.find(method);
    if (at == std::string_view::npos) continue;
    const std::string_view rest = text.substr(at + method.size());
    if (!rest.empty() && rest.front() != '(') continue;
    const auto family = split_call_text(text.substr(0, at + 1));
    if (!family) return std::nullopt;
    return Registration{last_segment(family->first), string_literal(family->second), true};
  }
  const std::string_view expr = text.substr(0, text.find('('));
  const auto dot = expr.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const std::string_view method = expr.substr(dot + 1);
  if (method != "register" && method != "register_module") return std::nullopt;
  Registration out{last_segment(expr.substr(0, dot)), {}, false};
  for (const auto& arg : decorator.args) {
    if (arg.kind == facts::LiteralKind::string && (arg.keyword.empty() || arg.keyword == "name")) {
      out.key = arg.value;
      break;
    }
  }
  return out;
}

class TypeInference {
 public:
  explicit TypeInference(Program::Impl& impl) : m_impl(impl), m_symbols(*impl.symbols), m_types(impl.types) {}

  void run() {
    m_types.returns.resize(m_impl.files.size());
    for (std::size_t f = 0; f < m_impl.files.size(); ++f) m_types.returns[f].resize(m_impl.files[f].functions.size());
    collect_registries();
    index_files();
    index_config_targets();
    infer_class_values();
    bool changed = true;
    for (int pass = 0; pass < k_max_passes && changed; ++pass) changed = infer_returns();
    infer_locals();
    infer_attributes();
  }

 private:
  // `@ROI_HEADS_REGISTRY.register()` / `@MODELS.register_module(name=...)` / `@KernelPlugin("x").register()`
  // on a top-level class or def.
  void collect_registries() {
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      if (file.is_test) continue;
      for (const auto& decorator : file.decorators) {
        if (decorator.ctx.function >= 0 || decorator.ctx.klass >= 0) continue;
        if (const auto r = registration_of(decorator))
          register_name(FileId{f}, r->registry, decorator.decorated, r->key, r->by_instance);
      }
      for (const auto& call : file.calls) {  // `MODELS.register(Cls)` / `X.register_module(module=Cls)`
        if ((call.method != "register" && call.method != "register_module") || call.receiver_text.empty()) continue;
        for (const auto& arg : call.args) {
          if (arg.kind == facts::LiteralKind::name && is_identifier(arg.value))
            register_name(FileId{f}, last_segment(call.receiver_text), arg.value, {}, false);
        }
      }
    }
  }

  void register_name(FileId file, const std::string& registry, const std::string& name, const std::string& key,
                     bool by_instance) {
    if (!is_identifier(registry) || name.empty()) return;
    const Symbol s = m_symbols.lookup_in_file(file, name);
    if (s.kind != Symbol::Kind::klass && s.kind != Symbol::Kind::function) return;  // no empty registries
    Registry& into = m_types.registries[registry];
    into.by_instance |= by_instance;
    if (s.kind == Symbol::Kind::klass) {
      if (add_class(into.classes, s.klass)) into.class_keys.push_back(key);
    } else if (s.kind == Symbol::Kind::function) {
      auto& functions = into.functions;
      if (functions.size() < k_max_value_classes &&
          std::find(functions.begin(), functions.end(), s.function) == functions.end()) {
        functions.push_back(s.function);
        into.function_keys.push_back(key);
      }
    }
  }

  // Per file: calls by start byte (a value's span starts where its call does), bound calls by
  // (function, name), dict entries by key, and every constructor call site of a repo class.
  void index_files() {
    const std::size_t n = m_impl.files.size();
    m_calls_at.resize(n);
    m_bound.resize(n);
    for (std::uint32_t f = 0; f < n; ++f) {
      const auto& file = m_impl.files[f];
      auto& at = m_calls_at[f];
      at.reserve(file.calls.size());
      for (std::uint32_t c = 0; c < file.calls.size(); ++c) at.emplace_back(file.calls[c].at.start_byte, c);
      std::sort(at.begin(), at.end());  // by start byte, then call order (as a multimap kept them)
      auto& bound = m_bound[f];
      bound.reserve(file.bound_calls.size());
      for (const auto& b : file.bound_calls)
        bound.push_back(Bound{b.ctx.function, b.target_text.view(), b.call_start_byte});
      std::stable_sort(bound.begin(), bound.end(), [](const Bound& a, const Bound& b) { return a.key() < b.key(); });
      for (std::size_t v = 0; v < file.values.size(); ++v) {
        if (file.values[v].sink == facts::ValueSink::dict_entry && file.values[v].ctx.klass >= 0)
          m_dict_entries[file.values[v].key].emplace_back(FileId{f}, v);
      }
      if (file.is_test) continue;
      for (std::size_t c = 0; c < file.calls.size(); ++c) {
        for (const ClassId& klass : constructed(FileId{f}, file.calls[c]))
          m_sites[key(klass)].emplace_back(FileId{f}, c);
      }
    }
  }

  static std::pair<std::uint32_t, std::int32_t> key(ClassId c) { return {c.file.value, c.index}; }

  // The repo classes a call constructs by naming them: `Cls(...)`, `mod.Cls(...)`, `(A if c else B)(...)`.
  std::vector<ClassId> constructed(FileId file, const facts::CallFact& call) const {
    std::vector<ClassId> out;
    const auto add_symbol = [&](const Symbol& s) {
      if (s.kind == Symbol::Kind::klass) add_class(out, s.klass);
    };
    if (const auto actor = actor_created(m_impl, file, call)) {  // `Actor.remote(...)`: a handle to one
      add_class(out, *actor);
    } else if (!call.callee.empty()) {
      add_symbol(m_symbols.lookup_from(file, call.callee.dotted()));
    } else if (call.method.empty() && is_identifier(call.callee_text)) {
      add_symbol(m_symbols.lookup_in_file(file, call.callee_text));
    } else if (call.method.empty()) {
      add_classes(out, conditional_classes(file, call.callee_text));
    }
    if (out.empty()) add_classes(out, classes_built_from_values(m_impl, file, call));
    return out;
  }

  static std::vector<std::string> split_words(const std::string& text) {
    std::vector<std::string> out;
    std::string word;
    for (char c : text) {
      if (c == ' ') {
        if (!word.empty()) out.push_back(std::move(word));
        word.clear();
      } else {
        word += c;
      }
    }
    if (!word.empty()) out.push_back(std::move(word));
    return out;
  }

  // The classes the value of one call holds.
  std::vector<ClassId> call_classes(FileId file, const facts::CallFact& call) const {
    std::vector<ClassId> out = constructed(file, call);
    if (const Registry* registry = registry_of(call)) {
      add_classes(out, registry->classes);
      for (const FunctionId& fn : registry->functions) add_classes(out, returns(fn));
    }
    std::optional<FunctionId> fn;
    if (!call.callee.empty()) {
      const Symbol s = m_symbols.lookup_from(file, call.callee.dotted());
      if (s.kind == Symbol::Kind::function) fn = s.function;
    } else if (call.method.empty() && is_identifier(call.callee_text)) {
      const Symbol s = m_symbols.lookup_in_file(file, call.callee_text);
      if (s.kind == Symbol::Kind::function) fn = s.function;
    } else if (call.receiver_is_self && call.ctx.klass >= 0) {
      fn = m_symbols.method(ClassId{file, call.ctx.klass}, call.method);
    }
    if (fn) add_classes(out, returns(*fn));
    return out;
  }

  const Registry* registry_of(const facts::CallFact& call) const {
    if (call.method != "get" && call.method != "build") return nullptr;
    return registry_named(m_impl, call.receiver_text);
  }

  const std::vector<ClassId>& returns(FunctionId fn) const {
    static const std::vector<ClassId> none;
    return fn.index >= 0 ? m_types.returns[fn.file.value][static_cast<std::size_t>(fn.index)] : none;
  }

  // The first of a file's calls (by start byte) that starts at or after `start`.
  auto calls_from(FileId file, std::uint32_t start) const {
    const auto& at = m_calls_at[file.value];
    return std::lower_bound(at.begin(), at.end(), std::make_pair(start, std::uint32_t{0}));
  }

  // Classes of the value starting at `start` (the call that begins there, or any call nested at that
  // byte: `X.get(name)(cfg)` starts where `X.get(name)` does).
  std::vector<ClassId> value_at(FileId file, std::uint32_t start, std::uint32_t end) const {
    std::vector<ClassId> out;
    const auto& facts = m_impl.files[file.value];
    const auto& at = m_calls_at[file.value];
    const auto first = calls_from(file, start);
    const auto last = std::upper_bound(first, at.end(), std::make_pair(start, UINT32_MAX));
    for (auto it = first; it != last; ++it) {
      const auto& call = facts.calls[it->second];
      if (end == 0 || call.at.end_byte <= end) add_classes(out, call_classes(file, call));
    }
    return out;
  }

  // Classes a plain name holds in a function: what the calls bound to it there hold.
  std::vector<ClassId> name_value(FileId file, std::int32_t function, std::string_view name) const {
    std::vector<ClassId> out;
    const auto& bound = m_bound[file.value];
    const auto [first, last] = std::equal_range(bound.begin(), bound.end(), Bound{function, name, 0},
                                                [](const Bound& a, const Bound& b) { return a.key() < b.key(); });
    for (auto it = first; it != last; ++it) add_classes(out, value_at(file, it->start, 0));
    return out;
  }

  std::vector<ClassId> fact_value(FileId file, const facts::ValueFact& value) const {
    if (!value.name.empty()) return name_value(file, value.ctx.function, value.name);
    return value_at(file, value.value.start_byte, value.value.end_byte);
  }

  bool infer_returns() {
    bool changed = false;
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      for (const auto& value : m_impl.files[f].values) {
        if (value.sink != facts::ValueSink::returned || value.ctx.function < 0) continue;
        const auto classes = fact_value(FileId{f}, value);
        changed |= add_classes(m_types.returns[f][static_cast<std::size_t>(value.ctx.function)], classes);
      }
    }
    return changed;
  }

  void infer_locals() {
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& bound = m_bound[f];
      for (std::size_t i = 0; i < bound.size(); ++i) {
        if (i > 0 && bound[i - 1].key() == bound[i].key()) continue;  // each name once
        if (!is_identifier(bound[i].name)) continue;
        auto classes = name_value(FileId{f}, bound[i].function, bound[i].name);
        if (!classes.empty()) m_types.locals[{f, bound[i].function, std::string(bound[i].name)}] = std::move(classes);
      }
    }
  }

  void infer_attributes() {
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& facts = m_impl.files[f];
      for (const auto& assign : facts.assigns) {
        const FactString& target = assign.target_text;
        if (!starts_with(target, "self.") || assign.ctx.klass < 0 || assign.ctx.function < 0) continue;
        const std::string attribute(target.substr(5));
        if (!is_identifier(attribute)) continue;
        std::vector<ClassId> classes = name_value(FileId{f}, assign.ctx.function, target);
        const auto& fn = facts.functions[static_cast<std::size_t>(assign.ctx.function)];
        if (assign.value.kind == facts::LiteralKind::name && is_identifier(assign.value.value)) {
          add_classes(classes, name_value(FileId{f}, assign.ctx.function, assign.value.value));
          if (fn.name == "__init__")
            add_classes(classes, parameter_values(ClassId{FileId{f}, assign.ctx.klass}, fn, assign.value.value));
        }
        if (!classes.empty()) add_classes(m_types.attributes[{f, assign.ctx.klass, attribute}], classes);
      }
    }
  }

  // What the repo passes for constructor parameter `param` of `klass`: keyword or positional arguments
  // at its call sites, and dict entries under that name built by the methods of the class, its repo
  // bases or its repo subclasses (`from_config` returning `{"box_predictor": box_predictor}`).
  std::vector<ClassId> parameter_values(ClassId klass, const facts::FunctionInfo& init,
                                        const std::string& param) const {
    std::vector<ClassId> out;
    std::vector<std::string> names;  // `backbone: Backbone`, `matcher=None` -> the parameter's name
    for (const FactString& text : init.params) names.emplace_back(text.substr(0, text.find_first_of(":= ")));
    const auto pos = std::find(names.begin(), names.end(), param);
    if (pos == names.end()) return out;  // not a parameter
    const std::size_t self_offset = !names.empty() && (names[0] == "self" || names[0] == "cls") ? 1 : 0;
    const std::size_t index = static_cast<std::size_t>(pos - names.begin());
    if (const auto it = m_sites.find(key(klass)); it != m_sites.end()) {
      for (const auto& [file, c] : it->second) {
        const auto& call = m_impl.files[file.value].calls[c];
        std::size_t positional = 0;
        for (const auto& arg : call.args) {
          if (arg.is_splat) break;
          const bool named = arg.keyword.empty() ? positional++ + self_offset == index : arg.keyword == param;
          if (!named) continue;
          if (arg.kind == facts::LiteralKind::name && is_identifier(arg.value))
            add_classes(out, name_value(file, call.ctx.function, arg.value));
          else if (arg.at.end_byte > arg.at.start_byte)
            add_classes(out, innermost_value(file, arg.at.start_byte, arg.at.end_byte));
        }
      }
    }
    if (const auto it = m_dict_entries.find(param); it != m_dict_entries.end()) {
      for (const auto& [file, v] : it->second) {
        const auto& value = m_impl.files[file.value].values[v];
        if (related(ClassId{file, value.ctx.klass}, klass)) add_classes(out, fact_value(file, value));
      }
    }
    return out;
  }

  // `_target_: src.models.mnist_module.MNISTLitModule` in configs/model/mnist.yaml (with `net._target_:
  // ...SimpleDenseNet` under it), `model: {_target_: ...}` in a composed config: what
  // `hydra.utils.instantiate(cfg.model)` may build (Types::config_targets).
  void index_config_targets() {
    for (const auto& file : m_impl.files) {
      if (file.settings.empty() || file.is_test) continue;
      const std::string_view path = file.path;
      const auto slash = path.rfind('/');
      const std::string_view folder = slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
      const std::string group(folder.substr(folder.rfind('/') == std::string_view::npos ? 0 : folder.rfind('/') + 1));
      for (const auto& setting : file.settings) {
        const std::string_view key = setting.key;
        if (!setting.program.empty() || (key != "_target_" && !ends_with(key, "._target_"))) continue;
        const Symbol s = m_symbols.lookup(setting.value);
        if (s.kind != Symbol::Kind::klass) continue;
        // The file's group takes every target in it; each key above the target takes it too.
        if (!group.empty()) add_class(m_types.config_targets[group], s.klass);
        std::string_view above = key.substr(0, key.size() - std::string_view("_target_").size());
        while (!above.empty()) {
          above.remove_suffix(1);  // the '.'
          add_class(m_types.config_targets[std::string(last_segment(above))], s.klass);
          const auto dot = above.rfind('.');
          above = dot == std::string_view::npos ? std::string_view() : above.substr(0, dot + 1);
        }
      }
    }
  }

  // `PipelineBlock(module_builder=DecoderLayer)`, `def __init__(self, block_fn=Block)`,
  // `self.module_builder = module_builder`: which constructor parameters and attributes hold repo classes
  // as classes. A class handed on (`Tower(block_fn=block_fn)`) is followed over a few passes.
  void infer_class_values() {
    bool changed = true;
    for (int pass = 0; pass < k_max_passes && changed; ++pass) {
      changed = false;
      for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
        const auto& facts = m_impl.files[f];
        for (std::size_t i = 0; i < facts.functions.size(); ++i) {
          const auto& fn = facts.functions[i];
          if (fn.klass < 0 || fn.name != "__init__") continue;
          for (const FactString& text : fn.params) {
            const std::string name(text.substr(0, text.find_first_of(":= ")));
            if (name == "self" || !is_identifier(name)) continue;
            std::vector<ClassId> classes = class_arguments(ClassId{FileId{f}, fn.klass}, fn, name);
            for (const auto& def : fn.param_defaults) {
              if (def.keyword == name) add_classes(classes, class_named(FileId{f}, def));
            }
            if (!classes.empty())
              changed |= add_classes(m_types.class_parameters[{f, static_cast<std::int32_t>(i), name}], classes);
          }
        }
        for (const auto& assign : facts.assigns) {
          const FactString& target = assign.target_text;
          if (!starts_with(target, "self.") || assign.ctx.klass < 0 || assign.ctx.function < 0 ||
              assign.value.kind != facts::LiteralKind::name || !is_identifier(assign.value.value))
            continue;
          const std::string attribute(target.substr(5));
          if (!is_identifier(attribute)) continue;
          std::vector<ClassId> classes;
          const auto param = m_types.class_parameters.find({f, assign.ctx.function, std::string(assign.value.value)});
          if (param != m_types.class_parameters.end())
            classes = param->second;
          else
            classes = class_named(FileId{f}, assign.value);
          if (!classes.empty())
            changed |= add_classes(m_types.class_attributes[{f, assign.ctx.klass, attribute}], classes);
        }
      }
    }
  }

  // The repo classes passed as classes for constructor parameter `param` of `klass` at its call sites:
  // `module_builder=DecoderLayer`, `norm=(FusedNorm if fused else Norm)`, or a class parameter handed on.
  std::vector<ClassId> class_arguments(ClassId klass, const facts::FunctionInfo& init, const std::string& param) const {
    std::vector<ClassId> out;
    const auto it = m_sites.find(key(klass));
    if (it == m_sites.end()) return out;
    const std::optional<std::size_t> index = option_values::positional_index(init, param);
    for (const auto& [file, c] : it->second) {
      const auto& call = m_impl.files[file.value].calls[c];
      std::size_t positional = 0;
      for (const auto& arg : call.args) {
        if (arg.is_splat) break;
        const bool named = arg.keyword.empty() ? index && positional++ == *index : arg.keyword == param;
        if (!named) continue;
        const auto handed = m_types.class_parameters.find({file.value, call.ctx.function, std::string(arg.value)});
        if (arg.kind == facts::LiteralKind::name && handed != m_types.class_parameters.end())
          add_classes(out, handed->second);
        else
          add_classes(out, class_named(file, arg));
      }
    }
    return out;
  }

  // The repo classes a value names as classes: `DecoderLayer`, `blocks.DecoderLayer`, `(A if c else B)`.
  std::vector<ClassId> class_named(FileId file, const facts::Argument& value) const {
    std::vector<ClassId> out;
    const auto add_symbol = [&](const Symbol& s) {
      if (s.kind == Symbol::Kind::klass) add_class(out, s.klass);
    };
    if (value.kind == facts::LiteralKind::name) {
      if (!value.resolved.empty())
        add_symbol(m_symbols.lookup_from(file, value.resolved.dotted()));
      else if (is_identifier(value.value))
        add_symbol(m_symbols.lookup_in_file(file, value.value));
    } else if (value.kind == facts::LiteralKind::other) {
      return conditional_classes(file, value.value);
    }
    return out;
  }

  // `(A if c else B)`: the classes of this file's names the expression chooses between.
  std::vector<ClassId> conditional_classes(FileId file, std::string_view expression) const {
    std::vector<ClassId> out;
    if (expression.find(" if ") == std::string_view::npos) return out;
    std::string text(expression);
    for (char& c : text) c = c == '(' || c == ')' ? ' ' : c;
    for (const std::string& word : split_words(text)) {
      if (word == "if" || word == "else" || !is_identifier(word)) continue;
      const Symbol s = m_symbols.lookup_in_file(file, word);
      if (s.kind == Symbol::Kind::klass) add_class(out, s.klass);
    }
    return out;
  }

  // A keyword argument's span starts at its name: the value is the outermost call ending where it ends.
  std::vector<ClassId> innermost_value(FileId file, std::uint32_t start, std::uint32_t end) const {
    const auto& facts = m_impl.files[file.value];
    const auto& at = m_calls_at[file.value];
    const auto first = calls_from(file, start);
    for (auto it = first; it != at.end() && it->first < end; ++it) {
      if (facts.calls[it->second].at.end_byte == end) return value_at(file, it->first, end);
    }
    return {};
  }

  bool derives(ClassId klass, ClassId base) const {
    ClassId at = klass;
    for (int hop = 0; hop < k_max_base_hops; ++hop) {
      if (at == base) return true;
      const auto next = m_symbols.base_class(at, 0);
      if (!next) return false;
      at = *next;
    }
    return false;
  }

  bool related(ClassId a, ClassId b) const { return derives(a, b) || derives(b, a); }

  Program::Impl& m_impl;
  const Symbols& m_symbols;
  Types& m_types;
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> m_calls_at;  // per file: (start byte, call), sorted
  /// A call bound to a name in a function (facts::BoundCall), the name viewing the facts' text.
  struct Bound {
    std::int32_t function;
    std::string_view name;
    std::uint32_t start;  ///< the bound call's start byte
    std::pair<std::int32_t, std::string_view> key() const { return {function, name}; }
  };
  /// Per file: the bound calls sorted by (function, name), file order kept within each (a flat table: a map per
  /// file held a node per name, several megabytes on a large repo).
  std::vector<std::vector<Bound>> m_bound;
  std::unordered_map<std::string, std::vector<std::pair<FileId, std::size_t>>> m_dict_entries;
  std::map<std::pair<std::uint32_t, std::int32_t>, std::vector<std::pair<FileId, std::size_t>>> m_sites;
};

}  // namespace

RegistryLookup registry_instance(const Program::Impl& impl, std::string_view text) {
  const auto family = split_call_text(text);
  if (!family) return {};
  const auto it = impl.types.registries.find(last_segment(family->first));
  if (it == impl.types.registries.end() || !it->second.by_instance) return {};
  return RegistryLookup{&it->second, string_literal(family->second)};
}

const Registry* registry_named(const Program::Impl& impl, std::string_view receiver) {
  if (receiver.empty() || impl.types.registries.empty()) return nullptr;
  const auto it = impl.types.registries.find(last_segment(receiver));
  return it == impl.types.registries.end() ? nullptr : &it->second;
}

namespace {

// What `self.<name>` holds in `klass` and its repo bases, by one of Types' (file, class, attribute) tables.
std::vector<ClassId> through_bases(
    const Program::Impl& impl, ClassId klass, const std::string& name,
    const std::map<std::tuple<std::uint32_t, std::int32_t, std::string>, std::vector<ClassId>>& table) {
  std::vector<ClassId> out;
  ClassId at = klass;
  for (int hop = 0; hop < k_max_base_hops; ++hop) {
    const auto it = table.find({at.file.value, at.index, name});
    if (it != table.end()) add_classes(out, it->second);
    const auto next = impl.symbols->base_class(at, 0);
    if (!next) break;
    at = *next;
  }
  return out;
}

}  // namespace

std::vector<ClassId> attribute_classes(const Program::Impl& impl, ClassId klass, const std::string& name) {
  return through_bases(impl, klass, name, impl.types.attributes);
}

std::vector<ClassId> classes_built_from_values(const Program::Impl& impl, FileId file, const facts::CallFact& call) {
  std::vector<ClassId> out;
  const std::string_view callee = call.callee.dotted();
  if (callee == "hydra.utils.instantiate" && !call.args.empty() && call.args[0].keyword.empty() &&
      call.args[0].kind == facts::LiteralKind::name) {
    const std::string_view section = call.args[0].value;
    const auto dot = section.rfind('.');
    if (dot == std::string_view::npos) return out;
    const auto it = impl.types.config_targets.find(std::string(section.substr(dot + 1)));
    if (it != impl.types.config_targets.end()) return it->second;
    return out;
  }
  if (call.receiver_is_self && call.receiver_text == "self" && call.ctx.klass >= 0 && !call.method.empty()) {
    return through_bases(impl, ClassId{file, call.ctx.klass}, std::string(call.method), impl.types.class_attributes);
  } else if (call.callee.empty() && call.method.empty() && is_identifier(call.callee_text)) {
    const auto& functions = impl.files[file.value].functions;
    for (std::int32_t fn = call.ctx.function; fn >= 0; fn = functions[static_cast<std::size_t>(fn)].parent) {
      const auto it = impl.types.class_parameters.find({file.value, fn, std::string(call.callee_text)});
      if (it != impl.types.class_parameters.end()) return it->second;
    }
  }
  return out;
}

void infer_types(Program::Impl& impl) {
  TypeInference(impl).run();
}

}  // namespace tr2audit::program
