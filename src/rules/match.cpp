// rules::match: for each subject kind, loops over that kind's facts once and tries only the rules
// indexed under the fact's name; checks conditions and context, then builds the Finding.
#include "tr2audit/rules/match.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>
#include <tuple>

#include "match_detail.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/facts/region.hpp"
#include "tr2audit/rules/op_usage.hpp"
#include "vocabulary.hpp"

namespace tr2audit::rules {

namespace {

/// "apex.optimizers.FusedAdam": identifier segments between dots, at least two.
bool is_dotted_name(std::string_view text) {
  return text.find('.') != std::string_view::npos && is_name_chain(text);
}

class Matcher {
 public:
  Matcher(const program::FileView& view, const RuleSet& rules, TargetProfile profile, const OpTable* ops,
          const RuleSet& knowledge)
      : m_view(view), m_file(view.facts()), m_rules(rules), m_knowledge(knowledge), m_profile(profile), m_ops(ops) {}

  std::vector<Finding> run() {
    calls();
    decorators();
    imports();
    assigns();
    references();
    devices();
    dependencies();
    settings();
    patterns();
    files();
    drop_calls_on_import_lines();
    ops();
    drop_covered_ops();
    std::sort(m_findings.begin(), m_findings.end(), [](const Finding& a, const Finding& b) {
      return std::tie(a.path, a.at.line, a.at.column, a.rule_id, a.at.end_line, a.at.end_column) <
             std::tie(b.path, b.at.line, b.at.column, b.rule_id, b.at.end_line, b.at.end_column);
    });
    drop_covered_catch_alls();
    mark_vendored();
    mark_evaluation_config();
    return std::move(m_findings);
  }

 private:
  /// A launch script or config under an evaluation folder (`scripts/eval/mmlu.sh`, `configs/evaluation/`) or
  /// named for one (`eval_gsm8k.yaml`, `mcli-1b-eval.yaml`) runs a benchmark of a trained model, not a training
  /// run; so does one under an `inference` folder (`scripts/inference/benchmarking/yamls/7b.yaml`).
  void mark_evaluation_config() {
    if (m_file.kind != discover::FileKind::config) return;
    if (!program::evaluation_launch_path(m_file.path.view())) return;
    for (Finding& finding : m_findings) {
      finding.off_training_path = true;
      finding.in_script_without_training = true;
    }
  }

  /// A vendored project's code is off the training path unless the repo's own training code reaches it
  /// (its roles say so); its kernels, builds and manifests are another project's, reached by nothing here.
  void mark_vendored() {
    if (!m_view.program.vendored(m_view.id)) return;
    const bool code = m_file.kind == discover::FileKind::python || m_file.kind == discover::FileKind::notebook;
    for (Finding& finding : m_findings) {
      if (!code || (finding.roles & program::training_roles()).none()) finding.off_training_path = true;
      finding.in_vendored_project = finding.off_training_path;
    }
  }

  /// The rules of a kind whose names match one of `names`, that run under the profile.
  const std::vector<std::uint32_t>& candidates(SubjectKind kind, std::initializer_list<std::string_view> names) {
    m_candidates.clear();
    for (std::string_view name : names) {
      if (name.empty()) continue;
      const std::size_t first = m_candidates.size();
      m_rules.index(kind).candidates(name, m_rules.rules(), m_candidates);
      const auto excluded = [&](std::uint32_t i) {
        const auto& exclude = m_rules.rules()[i].conditions.exclude;
        return exclude && exclude->matches(name);
      };
      m_candidates.erase(
          std::remove_if(m_candidates.begin() + static_cast<std::ptrdiff_t>(first), m_candidates.end(), excluded),
          m_candidates.end());
    }
    std::sort(m_candidates.begin(), m_candidates.end());
    m_candidates.erase(std::unique(m_candidates.begin(), m_candidates.end()), m_candidates.end());
    const auto excluded = [&](std::uint32_t i) { return !m_rules.rules()[i].applies_to(m_profile); };
    m_candidates.erase(std::remove_if(m_candidates.begin(), m_candidates.end(), excluded), m_candidates.end());
    return m_candidates;
  }

  void calls() {
    for (const facts::CallFact& call : m_file.calls) {
      const bool is_method = !call.method.empty() && call.callee.empty();
      const SubjectKind kind = is_method ? SubjectKind::method : SubjectKind::call;
      std::string_view name = is_method ? std::string_view(call.method) : call.callee.dotted();
      // `from dinov2.fsdp import ShardedGradScaler`, which dinov2/fsdp imports from torch: the library's name.
      const std::string_view library =
          is_method || call.callee.empty() ? std::string_view() : m_view.program.library_name(name);
      if (!library.empty()) name = library;
      for (std::uint32_t i : candidates(kind, {name})) {
        if (library.empty() && !origin_allows(m_rules.rules()[i].conditions, call)) continue;
        // A host tensor built from Python values is read without a device sync or graph break; so is a
        // logger's `v.item()` to which every caller passes numbers.
        if (m_rules.rules()[i].category == Category::dynamic_graph &&
            (call.host_value ||
             m_view.program.reads_scalar_only(m_view.id, static_cast<std::uint32_t>(&call - m_file.calls.data()))))
          continue;
        MessageFields fields{std::string(name),
                             std::string(call.callee.empty() ? std::string_view(call.callee_text)
                                         : library.empty()   ? std::string_view(call.callee.dotted())
                                                             : library),
                             call.method,
                             call.receiver_text,
                             {},
                             {},
                             {},
                             call.callee_text};
        emit_call(i, call, std::move(fields));
      }
      for (std::uint32_t i : candidates(SubjectKind::call_text, {call.callee_text})) {
        MessageFields fields{call.callee_text,
                             call.callee.empty() ? call.callee_text : call.callee.dotted(),
                             call.method,
                             call.receiver_text,
                             {},
                             {},
                             {},
                             call.callee_text};
        emit_call(i, call, std::move(fields));
      }
    }
    instance_calls();
  }

  // `self.inner_attn(qkv)` in `forward` after `self.inner_attn = FlashAttention(...)` in `__init__`: calling
  // the object runs the library's module there, so a CUDA-only-library finding the construct got (unguarded,
  // medium or above) holds at the call too, gated as the call is; and the construct takes the call's
  // severity, since building the kernel module is what the port replaces.
  void instance_calls() {
    for (const detail::InstanceCall& use : detail::instance_calls(m_file, m_view.program)) {
      const facts::CallFact& construct = m_file.calls[use.construct];
      const facts::CallFact& call = m_file.calls[use.call];
      for (std::size_t k = 0, n = m_findings.size(); k < n; ++k) {
        const Finding& built = m_findings[k];
        if (built.category != Category::cuda_library || built.at.start_byte < construct.at.start_byte ||
            built.at.end_byte > construct.at.end_byte || built.severity < Severity::medium || built.guards != 0 ||
            !built.opt_in.empty() || built.off_training_path)
          continue;
        const Rule* rule = m_rules.find(built.rule_id);
        if (rule == nullptr) continue;
        const auto index = static_cast<std::uint32_t>(rule - m_rules.rules().data());
        const std::size_t before = m_findings.size();
        const std::string subject = m_findings[k].subject;
        emit(index, call.ctx, call.at,
             MessageFields{subject, std::string(call.callee_text), {}, {}, {}, {}, {}, std::string(call.callee_text)});
        if (m_findings.size() == before) continue;
        Finding& runs = m_findings.back();
        runs.message += " (`" + std::string(call.callee_text) + "` holds the `" + subject + "` built at line " +
                        std::to_string(construct.at.line) + ")";
        Finding& origin = m_findings[k];
        if (!runs.off_training_path && runs.severity > origin.severity) {
          origin.severity = runs.severity;
          origin.message +=
              " (the module it builds runs in `" + runs.function + "`, line " + std::to_string(call.at.line) + ")";
        }
      }
    }
  }

  // A `call:` or `call_text:` rule's finding when its conditions hold: a local name's default counts
  // (`drop_last=self.drop_last`), and the finding points at the first matched keyword argument.
  void emit_call(std::uint32_t i, const facts::CallFact& call, MessageFields fields) {
    detail::ValueDefaults defaults{
        [&](std::string_view value_name) { return m_view.program.default_of(m_view.id, call.ctx, value_name); },
        [&](std::string_view value_name) { return m_view.program.local_value_of(m_view.id, call.ctx, value_name); },
        [&](std::string_view value_name) { return m_view.program.choices_of(m_view.id, call.ctx, value_name); },
        {}};
    const auto& fixed_buffer = m_rules.rules()[i].conditions.fixed_buffer_decode;
    const auto& returned = m_rules.rules()[i].conditions.returned;
    const auto& logged = m_rules.rules()[i].conditions.logged;
    const auto& not_chained_into = m_rules.rules()[i].conditions.not_chained_into;
    const auto& checked_only = m_rules.rules()[i].conditions.checked_only;
    const bool holds =
        detail::call_conditions_hold(m_rules.rules()[i].conditions, call, fields.value, &defaults) &&
        (!fixed_buffer || *fixed_buffer == m_view.program.fixed_buffer_decode(
                                               m_view.id, static_cast<std::uint32_t>(&call - m_file.calls.data()))) &&
        (!returned || *returned == is_returned(call)) &&
        (!logged || *logged == detail::in_message_call(m_file, call)) &&
        (!not_chained_into || !chained_into(call, *not_chained_into)) &&
        (!checked_only || *checked_only == detail::result_checked_only(m_file, call));
    if (holds && defaults.opt_in.empty()) defaults.opt_in = detail::switched_off(m_view.program, m_view.id, call);
    // A positive signal needs the value itself, not a setting that could be changed to it.
    const Category category = m_rules.rules()[i].category;
    const bool positive = category == Category::neuron_ready || category == Category::training_setup;
    if (holds && !(positive && !defaults.opt_in.empty())) {
      const Span& at = defaults.keyword_at.line != 0 ? defaults.keyword_at : call.at;
      emit(i, call.ctx, at, std::move(fields), true, defaults.opt_in, nullptr, defaults.guards);
    }
  }

  // The call is the whole value of a `return` of its function (`return out.cpu()`): nothing after it runs in
  // that function, whatever it hands back.
  bool is_returned(const facts::CallFact& call) const {
    return std::any_of(m_file.values.begin(), m_file.values.end(), [&](const facts::ValueFact& value) {
      return value.sink == facts::ValueSink::returned && value.ctx.function == call.ctx.function &&
             value.value.start_byte == call.at.start_byte && value.value.end_byte == call.at.end_byte;
    });
  }

  // `x.cpu().item()`: the call's value is the receiver of a listed method called right after it, with no arguments
  // (that method call starts where this call starts and ends `.name()` later). Calls are recorded as the walk enters
  // them, and a method call's receiver is the first thing inside it, so that call is the one just before this one.
  bool chained_into(const facts::CallFact& call, const NameMatcher& methods) const {
    const auto index = static_cast<std::size_t>(&call - m_file.calls.data());
    if (index == 0) return false;
    const facts::CallFact& outer = m_file.calls[index - 1];
    return outer.callee.empty() && !outer.method.empty() && outer.at.start_byte == call.at.start_byte &&
           outer.at.end_byte == call.at.end_byte + outer.method.size() + 3 && methods.matches(outer.method);
  }

  // `origin` on a call rule: whether the resolved callee is the repo's own code or a package's.
  bool origin_allows(const Conditions& c, const facts::CallFact& call) const {
    if (c.origins == 0 || call.callee.empty()) return true;
    const facts::ImportOrigin origin = m_view.program.call_origin(call.callee);
    return (c.origins & (1u << static_cast<unsigned>(origin))) != 0;
  }

  // `flash_attn = importlib.import_module("flash_attn")`: a line the import rules already report for a
  // CUDA-only library is not reported again as a call into it.
  void drop_calls_on_import_lines() {
    std::set<std::uint32_t> import_lines;
    const auto subject_of = [&](const Finding& f) { return m_rules.find(f.rule_id)->subject; };
    for (const Finding& f : m_findings) {
      if (f.category == Category::cuda_library && subject_of(f) == SubjectKind::import) import_lines.insert(f.at.line);
    }
    if (import_lines.empty()) return;
    m_findings.erase(std::remove_if(m_findings.begin(), m_findings.end(),
                                    [&](const Finding& f) {
                                      return f.category == Category::cuda_library &&
                                             subject_of(f) == SubjectKind::call && import_lines.count(f.at.line) != 0;
                                    }),
                     m_findings.end());
  }

  /// The context of the function a decorator decorates (the decorator itself runs in the enclosing scope):
  /// a kernel's `@triton.jit` is dead code when the kernel is.
  facts::Context decorated_context(const facts::DecoratorFact& deco) const {
    facts::Context ctx = deco.ctx;
    for (std::size_t i = 0; i < m_file.functions.size(); ++i) {
      const facts::FunctionInfo& fn = m_file.functions[i];
      if (fn.name != deco.decorated || fn.parent != deco.ctx.function || fn.at.start_byte < deco.at.end_byte) continue;
      ctx.function = static_cast<std::int32_t>(i);
      break;
    }
    return ctx;
  }

  void decorators() {
    for (const facts::DecoratorFact& deco : m_file.decorators) {
      const FactString& name = deco.decorator.dotted();
      for (std::uint32_t i : candidates(SubjectKind::decorator, {name})) {
        MessageFields fields{name, name, {}, {}, {}, {}, {}, deco.text};
        if (detail::decorator_conditions_hold(m_rules.rules()[i].conditions, deco, fields.value)) {
          const facts::Context decorated = decorated_context(deco);
          emit(i, deco.ctx, deco.at, std::move(fields), true, {}, &decorated);
        }
      }
    }
  }

  void imports() {
    for (std::size_t n = 0; n < m_file.imports.size(); ++n) {
      const facts::ImportFact& import = m_file.imports[n];
      if (import.lazy) continue;  // a lazy table's entry imports nothing where it stands
      const facts::ImportOrigin origin = m_view.program.origin(m_view.id, n);
      const FactString& subject = import.target.empty() ? import.module.dotted() : import.target.dotted();
      // One finding per rule and statement, spanning the whole statement (parenthesised imports too).
      const Span& at = import.statement.line != 0 ? import.statement : import.at;
      // `from .random import model_parallel_cuda_manual_seed`, then called: a function, so a rule that names
      // extension modules matches by the module's name only (asked only when such a rule is a candidate).
      const std::vector<std::uint32_t>* found =
          &candidates(SubjectKind::import, {import.target.dotted(), import.module.dotted()});
      std::vector<std::uint32_t> all;
      std::vector<std::uint32_t> by_module;
      const bool names_extension = std::any_of(found->begin(), found->end(),
                                               [&](std::uint32_t i) { return m_rules.rules()[i].extension_modules; });
      const bool called = names_extension && m_view.program.imports_callable(m_view.id, n);
      if (called) {
        all = *found;
        by_module = candidates(SubjectKind::import, {import.module.dotted()});
        found = &all;
      }
      for (std::uint32_t i : *found) {
        if (called && m_rules.rules()[i].extension_modules &&
            !std::binary_search(by_module.begin(), by_module.end(), i))
          continue;
        if (detail::import_conditions_hold(m_rules.rules()[i].conditions, import, origin, m_file.module_name)) {
          const std::size_t before = m_findings.size();
          emit(i, import.ctx, at, MessageFields{subject, {}, {}, {}, {}, {}, {}, subject});
          if (m_findings.size() > before && m_rules.rules()[i].category == Category::cuda_library &&
              detail::metadata_only(m_file, import)) {
            Finding& f = m_findings.back();
            f.severity = std::min(f.severity, Severity::low);
            f.message += " (this file reads only its version metadata: nothing runs its kernels here)";
          }
          if (m_findings.size() > before && m_rules.rules()[i].category == Category::cuda_library)
            weigh_base_class_import(import, m_findings.back());
        }
      }
    }
  }

  // `class AdamW8bit(Optimizer2State):` is the only use of the import, and every method of every such class
  // runs only under an opt-in option (the repo builds the class only when `args.optimizer == "..."`): the
  // package is still imported by every run that imports this file, but none of its code runs by default.
  void weigh_base_class_import(const facts::ImportFact& import, Finding& finding) {
    if (finding.severity <= Severity::medium || !finding.opt_in.empty()) return;
    const std::vector<std::int32_t> classes = detail::base_class_only(m_file, import);
    if (classes.empty()) return;
    std::string option;
    std::string names;
    for (const std::int32_t c : classes) {
      bool any_method = false;
      for (std::size_t fn = 0; fn < m_file.functions.size(); ++fn) {
        const auto& info = m_file.functions[fn];
        if (info.klass != c || info.parent >= 0) continue;
        facts::Context ctx;
        ctx.function = static_cast<std::int32_t>(fn);
        ctx.klass = c;
        if ((m_view.program.guards_at(m_view.id, ctx) & facts::guard_bit(facts::Guard::opt_in)) == 0) return;
        if (option.empty()) option = m_view.program.opt_in_option(m_view.id, ctx);
        any_method = true;
      }
      if (!any_method) return;
      names += (names.empty() ? "`" : ", `") + m_file.classes[static_cast<std::size_t>(c)].name.str() + "`";
    }
    if (option.empty()) return;
    finding.severity = Severity::medium;
    finding.message += " (used here only as the base of " + names + ", whose code runs only when `" + option +
                       "` holds; the import still runs wherever this module is imported)";
  }

  void assigns() {
    for (const facts::AssignFact& assign : m_file.assigns) {
      const FactString& name = assign.target.dotted();
      for (std::uint32_t i : candidates(SubjectKind::assign, {name})) {
        std::uint16_t value_guards = 0;
        if (detail::assign_conditions_hold(m_rules.rules()[i].conditions, assign, &value_guards)) {
          const FactString& value = assign.value.value.empty() ? assign.value.resolved.dotted() : assign.value.value;
          emit(i, assign.ctx, assign.at, MessageFields{name, {}, {}, {}, value, {}, {}, assign.target_text}, true, {},
               nullptr, value_guards);
        }
      }
    }
  }

  void references() {
    for (const facts::ReferenceFact& ref : m_file.references) {
      const FactString& name = ref.name.dotted();
      for (std::uint32_t i : candidates(SubjectKind::reference, {name})) {
        emit(i, ref.ctx, ref.at, MessageFields{name, name, {}, {}, {}, {}, {}, ref.text});
      }
    }
  }

  /// A catch-all finding stays only on a line no other rule reports, and only the first one per line.
  void drop_covered_catch_alls() {
    std::set<std::uint32_t> specific;
    for (const Finding& f : m_findings) {
      if (!m_rules.find(f.rule_id)->catch_all) specific.insert(f.at.line);
    }
    std::set<std::uint32_t> kept;
    std::erase_if(m_findings, [&](const Finding& f) {
      if (!m_rules.find(f.rule_id)->catch_all) return false;
      return specific.count(f.at.line) != 0 || !kept.insert(f.at.line).second;
    });
  }

  /// `@autocast("cuda", enabled=False)` on `q_sample`: a device in a decorator's arguments applies to every call
  /// of the decorated function, so it runs where that function runs (when some entry point reaches it).
  std::optional<facts::Context> decorated_by(const Span& at) const {
    for (const facts::DecoratorFact& deco : m_file.decorators) {
      if (deco.at.start_byte > at.start_byte || at.end_byte > deco.at.end_byte) continue;
      const facts::Context decorated = decorated_context(deco);
      program::RoleSet roles = m_view.program.roles_at(m_view.id, decorated);
      roles.reset(static_cast<std::size_t>(program::Role::test));  // tests exercising it say nothing of a run
      if (decorated.function != deco.ctx.function && roles.any()) return decorated;
    }
    return std::nullopt;
  }

  void devices() {
    for (const facts::DeviceLiteralFact& device : m_file.devices) {
      for (std::uint32_t i : candidates(SubjectKind::device, {device.value})) {
        if (detail::device_conditions_hold(m_rules.rules()[i].conditions, device) &&
            !(device.use == facts::DeviceUse::parameter_default &&
              m_view.program.always_passed(m_view.id, device.ctx.function, device.keyword))) {
          MessageFields fields{device.value, device.callee, {}, {}, device.value, {}, {}, device.value};
          if (const auto decorated = decorated_by(device.at)) {
            emit(i, *decorated, device.at, std::move(fields), true, {}, &*decorated);
          } else {
            emit(i, device.ctx, device.at, std::move(fields));
          }
        }
      }
    }
  }

  void dependencies() {
    for (const facts::DependencyFact& dep : m_file.dependencies) {
      for (std::uint32_t i : candidates(SubjectKind::dependency, {dep.name})) {
        if (detail::dependency_conditions_hold(m_rules.rules()[i].conditions, dep)) {
          const std::size_t before = m_findings.size();
          emit(i, facts::Context{}, dep.at, MessageFields{dep.name, {}, {}, {}, dep.spec, {}, dep.section, dep.spec},
               false);
          if (m_findings.size() > before && m_view.program.project_without_training(m_view.id)) {
            m_findings.back().in_project_without_training = true;
            m_findings.back().off_training_path = true;
          }
        }
      }
    }
  }

  /// A config file's scalars by key path; `value_calls_gpu_only` reads the value as the dotted name of a
  /// class or function the config instantiates (`_target_`, `_component_`, `class_path`) and asks the
  /// GPU-only call rules about it, as if the config called it with arguments nobody knows.
  void settings() {
    for (const facts::SettingFact& setting : m_file.settings) {
      for (std::uint32_t i : candidates(SubjectKind::setting, {setting.key})) {
        const Conditions& c = m_rules.rules()[i].conditions;
        if (c.value && !c.value->matches(setting.value)) continue;
        if (c.value_calls_gpu_only && !gpu_only_callee(setting.value)) continue;
        emit(i, facts::Context{}, setting.at,
             MessageFields{
                 setting.key, setting.value, {}, {}, setting.value, {}, {}, setting.key + ": " + setting.value},
             false);
      }
    }
  }

  bool gpu_only_callee(const std::string& value) const {
    if (!is_dotted_name(value)) return false;
    facts::CallFact call;
    call.callee = QualifiedName::from_dotted(value);
    std::vector<std::uint32_t> found;
    m_knowledge.index(SubjectKind::call).candidates(value, m_knowledge.rules(), found);
    std::string shown;
    return std::any_of(found.begin(), found.end(), [&](std::uint32_t i) {
      const Rule& rule = m_knowledge.rules()[i];
      return detail::is_gpu_only_rule(rule, m_profile) &&
             !(rule.conditions.exclude && rule.conditions.exclude->matches(value)) &&
             origin_allows(rule.conditions, call) && detail::call_conditions_hold(rule.conditions, call, shown);
    });
  }

  // Detector patterns, then those only the whole repo can tell (program::Program::patterns).
  void patterns() {
    // Patterns of C++/CUDA text (kernels) are file-level: they have no Python region, unless the code that
    // calls into the extension built from them gives them one (program/compiled_sources).
    const bool python = m_file.kind == discover::FileKind::python || m_file.kind == discover::FileKind::python_stub ||
                        m_file.kind == discover::FileKind::notebook || compiled_for_callers();
    const bool cxx_text = m_file.kind == discover::FileKind::cuda_source;
    for (const auto* list : {&m_file.patterns, &m_view.program.patterns(m_view.id)}) {
      for (const facts::PatternFact& pattern : *list) {
        if (list == &m_file.patterns &&
            m_view.program.pattern_refuted(m_view.id, static_cast<std::uint32_t>(&pattern - m_file.patterns.data())))
          continue;
        for (std::uint32_t i : candidates(SubjectKind::pattern, {pattern.kind})) {
          // A kernel in C++/CUDA text is named by its function, not by the pattern's kind.
          const std::string& subject = cxx_text ? pattern.detail : pattern.kind;
          const std::size_t before = m_findings.size();
          emit(i, pattern.ctx, pattern.at, MessageFields{subject, {}, {}, {}, {}, {}, pattern.detail, pattern.detail},
               python);
          if (m_findings.size() > before && pattern.kind == program::k_wrapped_op_call)
            m_findings.back().wrapper = std::string(program::wrapper_of_chain(pattern.detail));
        }
      }
    }
  }

  void files() {
    for (std::uint32_t i : m_rules.index(SubjectKind::file).all()) {
      const Rule& rule = m_rules.rules()[i];
      if (rule.file_kind != m_file.kind || !rule.applies_to(m_profile)) continue;
      const Span at{1, 1, 1, 1, 0, 0};
      emit(i, facts::Context{}, at, MessageFields{m_file.path, {}, {}, {}, {}, {}, {}, m_file.path},
           compiled_for_callers());
    }
  }

  /// A CUDA source whose extension the repo's code calls: it runs where those calls run.
  bool compiled_for_callers() const {
    return m_file.kind == discover::FileKind::cuda_source && m_view.program.roles_at(m_view.id, {}).any();
  }

  void ops() {
    if (m_ops == nullptr || m_rules.index(SubjectKind::op).all().empty()) return;
    for (const facts::CallFact& call : m_file.calls) {
      bool method_only = false;
      const OpRow* row = find_call_row(call, *m_ops, method_only, m_repo_methods);
      if (row == nullptr) row = cast_method_row(call);
      // A module constructor runs no op where it is written: the op runs where the module is called.
      if (row != nullptr &&
          std::find(row->modules.begin(), row->modules.end(), call.callee.dotted()) == row->modules.end()) {
        op_hit(*row, call, method_only);
      }
      for (const facts::Argument& arg : call.args) {
        if (arg.resolved.empty() || !is_dtype_argument(call, arg)) continue;
        const OpRow* dtype = m_ops->find(arg.resolved.dotted());
        if (dtype != nullptr && dtype->for_profile(m_profile).effect == OpEffect::dtype) op_hit(*dtype, call, false);
      }
    }
  }

  /// `x.double()` is ambiguous (nn.Module.double exists) but casts to float64 either way: a cast method
  /// whose Tensor row has a dtype effect matches whatever the receiver.
  const OpRow* cast_method_row(const facts::CallFact& call) const {
    if (call.method.empty() || !call.callee.empty() || !OpTable::is_ambiguous_method(call.method)) return nullptr;
    const OpRow* row = m_ops->find("torch.Tensor." + call.method);
    return row != nullptr && row->for_profile(m_profile).effect == OpEffect::dtype ? row : nullptr;
  }

  /// `dtype=` anywhere, or the positional argument of a cast (`.to(torch.float64)`, `.type(...)`,
  /// `torch.set_default_dtype(...)`): not a dtype merely mentioned (`torch.finfo(torch.float64)`).
  static bool is_dtype_argument(const facts::CallFact& call, const facts::Argument& arg) {
    if (!arg.keyword.empty()) return arg.keyword == "dtype";
    const bool cast_method = call.callee.empty() && (call.method == "to" || call.method == "type");
    return cast_method || call.callee.dotted() == "torch.set_default_dtype";
  }

  void op_hit(const OpRow& row, const facts::CallFact& call, bool method_only) {
    const OpProfileStatus& status = row.for_profile(m_profile);
    for (std::uint32_t i : candidates(SubjectKind::op, {row.name})) {
      const Conditions& c = m_rules.rules()[i].conditions;
      if (c.op_statuses != 0 && (c.op_statuses & enum_bit(status.status)) == 0) continue;
      if (c.op_effects != 0 && (!status.effect || (c.op_effects & enum_bit(*status.effect)) == 0)) continue;
      if (c.op_kinds != 0 && (c.op_kinds & enum_bit(row.kind)) == 0) continue;
      MessageFields fields{row.name,    call.callee.empty() ? call.callee_text : call.callee.dotted(),
                           call.method, call.receiver_text,
                           {},          {},
                           {},          call.callee_text};
      fields.op = row.name;
      fields.status = std::string(to_string(status.status));
      fields.note = status.note;
      fields.alternative = row.alternative.empty() ? "none listed" : row.alternative;
      fields.target = m_profile == TargetProfile::xla ? "torch-neuronx (XLA)" : "native TorchNeuron";
      const std::size_t before = m_findings.size();
      emit(i, call.ctx, call.at, std::move(fields));
      if (m_findings.size() == before) continue;
      Finding& f = m_findings.back();
      // Matched by a bare method name: the receiver may not be a tensor.
      if (method_only) f.confidence = Confidence::low;
      if (const auto at = f.message.find(" in ``"); f.function.empty() && at != std::string::npos)
        f.message.replace(at, 6, " at module level");
    }
  }

  /// An op finding on the very call another category's rule reports says the same line twice.
  void drop_covered_ops() {
    std::set<Span> covered;
    for (const Finding& f : m_findings) {
      const bool signal = f.category == Category::neuron_ready || f.category == Category::training_setup;
      if (f.category != Category::operator_support && !signal) covered.insert(f.at);
    }
    if (covered.empty()) return;
    std::erase_if(m_findings, [&](const Finding& f) {
      const Rule* rule = m_rules.find(f.rule_id);
      return rule != nullptr && rule->subject == SubjectKind::op && covered.count(f.at) != 0;
    });
  }

  CellLocation cell_of(std::uint32_t line) const {
    const auto& firsts = m_file.cell_first_lines;
    const auto after = std::upper_bound(firsts.begin(), firsts.end(), line);
    if (after == firsts.begin() || firsts.size() != m_file.cell_numbers.size()) return {};
    const auto index = static_cast<std::size_t>(after - firsts.begin() - 1);
    return CellLocation{m_file.cell_numbers[index], line - firsts[index] + 1};
  }

  /// `code`: the context of the code the fact stands for when it is not the fact's own (a decorator's
  /// function), for the dead-code check.
  void emit(std::uint32_t index, const facts::Context& ctx, const Span& at, MessageFields fields,
            bool has_region = true, const std::string& value_opt_in = {}, const facts::Context* code = nullptr,
            std::uint16_t value_guards = 0) {
    const Rule& rule = m_rules.rules()[index];
    if (!detail::context_allows(rule, m_view, ctx, at.line)) return;
    if (!m_seen.emplace(index, at).second) return;
    const program::Program& program = m_view.program;
    // In a process with no accelerator (a GPU-less Ray actor, the controller of an RL run) a host sync
    // or a data-dependent shape stalls and breaks nothing: not a dynamic-graph finding.
    if (rule.category == Category::dynamic_graph && has_region && program.runs_without_accelerator(m_view.id, ctx))
      return;
    Finding f;
    f.rule_id = rule.id;
    f.category = rule.category;
    f.confidence = rule.confidence;
    f.path = m_file.path;
    f.at = at;
    f.cell = cell_of(at.line);
    f.function = facts::function_qualname(m_file, ctx);
    f.klass = facts::class_name(m_file, ctx);
    if (has_region) {
      f.region = program.region_at(m_view.id, ctx, at.line);
      f.roles = program.roles_at(m_view.id, ctx);
      f.reached_from = program.reached_from(m_view.id, ctx);
      f.training_reached = program.training_reached(m_view.id, ctx);
      f.entries = program.entries_at(m_view.id, ctx);  // program entry indices; the pipeline renumbers them
    }
    f.severity = rule.severity_for(m_profile, f.region);
    // A decorator's finding (`@triton.jit` on a kernel) is gated like the code it decorates: a kernel every
    // launch of which sits behind an opt-in option inherits that gate (program/inherit).
    const facts::Context& gate_ctx = code != nullptr ? *code : ctx;
    f.guards = program.guards_at(m_view.id, gate_ctx) | value_guards;
    const bool off_region = f.region && (*f.region == facts::Region::inference || *f.region == facts::Region::export_ ||
                                         *f.region == facts::Region::tooling || *f.region == facts::Region::test);
    // Code that only inference, export or tooling reaches is off the training path whatever its region
    // (an evaluation a run does once after training keeps the region `evaluation`).
    program::RoleSet run_roles = f.roles;  // library code that only tests exercise keeps its own place
    run_roles.reset(static_cast<std::size_t>(program::Role::test));
    f.off_training_path = ((off_region || run_roles.any()) && (f.roles & program::training_roles()).none()) ||
                          (f.guards & facts::guard_bit(facts::Guard::not_training)) != 0;
    const program::RoleSet code_roles = code != nullptr ? program.roles_at(m_view.id, *code) : f.roles;
    // (A module nothing imports runs nothing: a `forward` it defines has the training role only as a library's
    // default, which no training run reaches.)
    const program::DeadCode dead_here = program.dead_code(m_view.id, code != nullptr ? *code : ctx);
    // (A nested function nothing in its enclosing function names has that function's roles by inheritance
    // only: it never runs, whatever reaches the enclosing function; nor do the methods of a class nothing builds,
    // whatever a training hook of its own or a call linked only by a method's name says.)
    if (has_region &&
        ((code_roles & program::training_roles()).none() || dead_here == program::DeadCode::unreferenced_nested ||
         dead_here == program::DeadCode::unused_class ||
         ((dead_here == program::DeadCode::unexported_module || dead_here == program::DeadCode::orphan_model_copy ||
           dead_here == program::DeadCode::unused_module || dead_here == program::DeadCode::outside_import_closure ||
           dead_here == program::DeadCode::test_only_module) &&
          !f.training_reached))) {
      f.dead_code = dead_here;
      f.off_training_path |= f.dead_code != program::DeadCode::live;
      if (f.dead_code == program::DeadCode::test_only_module && f.region) f.region = facts::Region::test;
    } else if (!has_region) {  // a whole file (a CUDA source no build compiles)
      f.dead_code = program.dead_code(m_view.id, ctx);
      f.off_training_path |= f.dead_code != program::DeadCode::live;
    }
    // A script that runs a model without training it: its code is inference (or data, or tests). The
    // modules it defines have training roles only as a library's defaults (no training entry point
    // reaches them, and no other file imports the script): its own forward passes are inference.
    const bool library_default = (f.roles & program::training_roles()).any() && !f.training_reached;
    if (has_region && ((f.roles & program::training_roles()).none() || library_default) &&
        program.script_without_training(m_view.id)) {
      f.in_script_without_training = true;
      f.off_training_path = true;
      if (library_default) f.roles &= ~program::training_roles();
      if ((f.roles.none() || library_default) && f.region && *f.region != facts::Region::test &&
          *f.region != facts::Region::data_pipeline)
        f.region = facts::Region::inference;
    }
    // Evaluation code no entry point reaches, in an evaluation place of a repo that trains elsewhere.
    if (has_region && program.unreached_evaluation(m_view.id, code != nullptr ? *code : ctx))
      f.off_training_path = true;
    // A standalone app's code beside the training code: a rule's serving severity (`vllm-import`: {inference:
    // medium}, for rollout workers a training run starts) does not hold for it (pipeline/scan's cap_off_training).
    if (has_region && (f.roles & program::training_roles()).none() && program.in_project_without_training(m_view.id))
      f.in_project_without_training = true;
    // `model_input = tokenizer(prompt, return_tensors="pt").to("cuda")` feeds only `model.generate(...)`.
    if (has_region && program.generation_input(m_view.id, at.line) && f.region != facts::Region::test) {
      if (f.region != facts::Region::evaluation && f.region != facts::Region::export_)
        f.region = facts::Region::inference;
      f.off_training_path = true;
    }
    f.in_error_region = ctx.in_error_region;
    f.subject = fields.subject;
    fields.function = f.function;
    f.message = fill_message(rule.message, fields);
    apply_guards(rule, gate_ctx, f);
    if (!value_opt_in.empty() && f.opt_in.empty()) {
      // The keyword's value is a setting whose default does not trigger the rule.
      f.opt_in = value_opt_in;
      f.severity = std::min(f.severity, Severity::low);
      f.message += " (opt-in: only when `" + value_opt_in + "` is changed from its default)";
    }
    // Nothing shows how the code could run (Program::unreached): medium is low there; high and above stay.
    if (has_region && f.severity == Severity::medium && !f.off_training_path && !rule.category_keeps_severity() &&
        program.unreached(m_view.id, gate_ctx)) {
      f.severity = Severity::low;
      f.unreached = true;
      f.message += " (no training entry point reaches this function)";
    }
    m_findings.push_back(std::move(f));
  }

  // Guarded and opt-in code is reported, never dropped: at most low, saying what gates it (not `where: guard` rules).
  void apply_guards(const Rule& rule, const facts::Context& ctx, Finding& f) const {
    if (rule.where.guards != 0 || rule.category_keeps_severity()) return;
    constexpr std::uint16_t k_fallbacks = facts::guard_bit(facts::Guard::cuda_available) |
                                          facts::guard_bit(facts::Guard::device_branch) |
                                          facts::guard_bit(facts::Guard::import_error_fallback);
    if (f.guards & facts::guard_bit(facts::Guard::failure_path)) {
      if (f.severity > Severity::low) {
        f.severity = Severity::low;
        f.message += " (in an `except` clause that recovers from a runtime failure: it runs only when the `try` fails)";
      }
    } else if (f.guards & facts::guard_bit(facts::Guard::non_finite)) {
      if (f.severity > Severity::low) {
        f.severity = Severity::low;
        f.message += " (in a branch only a non-finite value (NaN or inf) takes: it skips a bad batch, not every step)";
      }
    } else if (f.guards & facts::guard_bit(facts::Guard::error_message)) {
      if (f.severity > Severity::low) {
        f.severity = Severity::low;
        f.message += " (it only builds the message of an error that ends the run: it runs once, on failure)";
      }
    } else if (f.guards & facts::guard_bit(facts::Guard::message_only)) {
      if (f.severity > Severity::low) {
        f.severity = Severity::low;
        f.message += " (it only decides whether a message is printed or logged: the code path is the same)";
      }
    } else if (f.guards & facts::guard_bit(facts::Guard::opt_in)) {
      f.opt_in = m_view.program.opt_in_option(m_view.id, ctx);
      f.severity = std::min(f.severity, Severity::low);
      f.message += opt_in_note(f.opt_in);
    } else if (f.guards & k_fallbacks) {
      const auto names = guard_names(static_cast<std::uint16_t>(f.guards & k_fallbacks));
      if (f.severity > Severity::low) {
        f.severity = Severity::low;
        f.message += " (guarded by " + names.front() + ": the other branch must still run on Neuron)";
      }
    }
  }

  const program::FileView& m_view;
  const RepoMethods m_repo_methods = [this](std::string_view method) { return m_view.program.defines_method(method); };
  const facts::FileFacts& m_file;
  const RuleSet& m_rules;
  const RuleSet& m_knowledge;  ///< whose GPU-only call rules `value_calls_gpu_only` asks
  TargetProfile m_profile;
  const OpTable* m_ops;
  std::vector<std::uint32_t> m_candidates;
  std::set<std::pair<std::uint32_t, Span>> m_seen;
  std::vector<Finding> m_findings;
};

}  // namespace

std::vector<Finding> match(const program::FileView& file, const RuleSet& rules, TargetProfile profile,
                           const OpTable* ops, const RuleSet* knowledge) {
  return Matcher(file, rules, profile, ops, knowledge != nullptr ? *knowledge : rules).run();
}

}  // namespace tr2audit::rules
