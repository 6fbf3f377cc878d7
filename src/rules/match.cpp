// rules::match: for each subject kind, loops over that kind's facts once and tries only the rules
// indexed under the fact's name; checks conditions and context, then builds the Finding.
#include "tr2audit/rules/match.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "match_detail.hpp"
#include "tr2audit/facts/region.hpp"

namespace tr2audit::rules {

namespace {

class Matcher {
 public:
  Matcher(const program::FileView& view, const RuleSet& rules, TargetProfile profile)
      : m_view(view), m_file(view.facts()), m_rules(rules), m_profile(profile) {}

  std::vector<Finding> run() {
    calls();
    decorators();
    imports();
    assigns();
    references();
    devices();
    dependencies();
    patterns();
    files();
    std::sort(m_findings.begin(), m_findings.end(), [](const Finding& a, const Finding& b) {
      return std::tie(a.path, a.at.line, a.at.column, a.rule_id, a.at.end_line, a.at.end_column) <
             std::tie(b.path, b.at.line, b.at.column, b.rule_id, b.at.end_line, b.at.end_column);
    });
    drop_covered_catch_alls();
    return std::move(m_findings);
  }

 private:
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
      const std::string_view name = is_method ? std::string_view(call.method) : call.callee.dotted();
      for (std::uint32_t i : candidates(kind, {name})) {
        MessageFields fields{std::string(name),
                             call.callee.empty() ? call.callee_text : call.callee.dotted(),
                             call.method,
                             call.receiver_text,
                             {},
                             {},
                             {},
                             call.callee_text};
        detail::ValueDefaults defaults{[&](std::string_view value_name) {
                                         return m_view.program.default_of(m_view.id, call.ctx, value_name);
                                       },
                                       {}};
        const bool holds = detail::call_conditions_hold(m_rules.rules()[i].conditions, call, fields.value, &defaults);
        // A positive signal needs the value itself, not a setting that could be changed to it.
        const Category category = m_rules.rules()[i].category;
        const bool positive = category == Category::neuron_ready || category == Category::training_setup;
        if (holds && !(positive && !defaults.opt_in.empty())) {
          const Span& at = defaults.keyword_at.line != 0 ? defaults.keyword_at : call.at;
          emit(i, call.ctx, at, std::move(fields), true, defaults.opt_in);
        }
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
        if (detail::call_conditions_hold(m_rules.rules()[i].conditions, call, fields.value)) {
          emit(i, call.ctx, call.at, std::move(fields));
        }
      }
    }
  }

  void decorators() {
    for (const facts::DecoratorFact& deco : m_file.decorators) {
      const std::string& name = deco.decorator.dotted();
      for (std::uint32_t i : candidates(SubjectKind::decorator, {name})) {
        MessageFields fields{name, name, {}, {}, {}, {}, {}, deco.text};
        if (detail::decorator_conditions_hold(m_rules.rules()[i].conditions, deco, fields.value)) {
          emit(i, deco.ctx, deco.at, std::move(fields));
        }
      }
    }
  }

  void imports() {
    for (std::size_t n = 0; n < m_file.imports.size(); ++n) {
      const facts::ImportFact& import = m_file.imports[n];
      const facts::ImportOrigin origin = m_view.program.origin(m_view.id, n);
      const std::string& subject = import.target.empty() ? import.module.dotted() : import.target.dotted();
      // One finding per rule and statement, spanning the whole statement (parenthesised imports too).
      const Span& at = import.statement.line != 0 ? import.statement : import.at;
      for (std::uint32_t i : candidates(SubjectKind::import, {import.target.dotted(), import.module.dotted()})) {
        if (detail::import_conditions_hold(m_rules.rules()[i].conditions, import, origin)) {
          emit(i, import.ctx, at, MessageFields{subject, {}, {}, {}, {}, {}, {}, subject});
        }
      }
    }
  }

  void assigns() {
    for (const facts::AssignFact& assign : m_file.assigns) {
      const std::string& name = assign.target.dotted();
      for (std::uint32_t i : candidates(SubjectKind::assign, {name})) {
        if (detail::assign_conditions_hold(m_rules.rules()[i].conditions, assign)) {
          const std::string& value = assign.value.value.empty() ? assign.value.resolved.dotted() : assign.value.value;
          emit(i, assign.ctx, assign.at, MessageFields{name, {}, {}, {}, value, {}, {}, assign.target_text});
        }
      }
    }
  }

  void references() {
    for (const facts::ReferenceFact& ref : m_file.references) {
      const std::string& name = ref.name.dotted();
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

  void devices() {
    for (const facts::DeviceLiteralFact& device : m_file.devices) {
      for (std::uint32_t i : candidates(SubjectKind::device, {device.value})) {
        if (detail::device_conditions_hold(m_rules.rules()[i].conditions, device)) {
          emit(i, device.ctx, device.at,
               MessageFields{device.value, device.callee, {}, {}, device.value, {}, {}, device.value});
        }
      }
    }
  }

  void dependencies() {
    for (const facts::DependencyFact& dep : m_file.dependencies) {
      for (std::uint32_t i : candidates(SubjectKind::dependency, {dep.name})) {
        if (detail::dependency_conditions_hold(m_rules.rules()[i].conditions, dep)) {
          emit(i, facts::Context{}, dep.at, MessageFields{dep.name, {}, {}, {}, dep.spec, {}, dep.section, dep.spec},
               false);
        }
      }
    }
  }

  void patterns() {
    // Patterns of C++/CUDA text (kernels) are file-level: they have no Python region.
    const bool python = m_file.kind == discover::FileKind::python || m_file.kind == discover::FileKind::python_stub ||
                        m_file.kind == discover::FileKind::notebook;
    for (const facts::PatternFact& pattern : m_file.patterns) {
      for (std::uint32_t i : candidates(SubjectKind::pattern, {pattern.kind})) {
        emit(i, pattern.ctx, pattern.at, MessageFields{pattern.kind, {}, {}, {}, {}, {}, pattern.detail, pattern.detail},
             python);
      }
    }
  }

  void files() {
    for (std::uint32_t i : m_rules.index(SubjectKind::file).all()) {
      const Rule& rule = m_rules.rules()[i];
      if (rule.file_kind != m_file.kind || !rule.applies_to(m_profile)) continue;
      const Span at{1, 1, 1, 1, 0, 0};
      emit(i, facts::Context{}, at, MessageFields{m_file.path, {}, {}, {}, {}, {}, {}, m_file.path}, false);
    }
  }

  CellLocation cell_of(std::uint32_t line) const {
    const auto& firsts = m_file.cell_first_lines;
    const auto after = std::upper_bound(firsts.begin(), firsts.end(), line);
    if (after == firsts.begin() || firsts.size() != m_file.cell_numbers.size()) return {};
    const auto index = static_cast<std::size_t>(after - firsts.begin() - 1);
    return CellLocation{m_file.cell_numbers[index], line - firsts[index] + 1};
  }

  void emit(std::uint32_t index, const facts::Context& ctx, const Span& at, MessageFields fields,
            bool has_region = true, const std::string& value_opt_in = {}) {
    const Rule& rule = m_rules.rules()[index];
    if (!detail::context_allows(rule, m_view, ctx)) return;
    if (!m_seen.emplace(index, at).second) return;
    const program::Program& program = m_view.program;
    Finding f;
    f.rule_id = rule.id;
    f.category = rule.category;
    f.severity = rule.severity_for(m_profile);
    f.confidence = rule.confidence;
    f.path = m_file.path;
    f.at = at;
    f.cell = cell_of(at.line);
    f.function = facts::function_qualname(m_file, ctx);
    f.klass = facts::class_name(m_file, ctx);
    if (has_region) {
      f.region = program.region_at(m_view.id, ctx);
      f.roles = program.roles_at(m_view.id, ctx);
      f.reached_from = program.reached_from(m_view.id, ctx);
    }
    f.guards = program.guards_at(m_view.id, ctx);
    const bool off_region = f.region && (*f.region == facts::Region::inference || *f.region == facts::Region::export_ ||
                                         *f.region == facts::Region::tooling || *f.region == facts::Region::test);
    f.off_training_path = (off_region && (f.roles & program::training_roles()).none()) ||
                          (f.guards & facts::guard_bit(facts::Guard::not_training)) != 0;
    f.in_error_region = ctx.in_error_region;
    f.subject = fields.subject;
    fields.function = f.function;
    f.message = fill_message(rule.message, fields);
    apply_guards(rule, ctx, f);
    if (!value_opt_in.empty() && f.opt_in.empty()) {
      // The keyword's value is a setting whose default does not trigger the rule.
      f.opt_in = value_opt_in;
      f.severity = std::min(f.severity, Severity::low);
      f.message += " (opt-in: only when `" + value_opt_in + "` is changed from its default)";
    }
    m_findings.push_back(std::move(f));
  }

  // Guarded and opt-in code is reported, never dropped: at most low, with what gates it. Rules written
  // for guarded code (`where: guard`) and positive signals keep their own severity.
  void apply_guards(const Rule& rule, const facts::Context& ctx, Finding& f) const {
    if (rule.where.guards != 0 || rule.category == Category::neuron_ready || rule.category == Category::training_setup)
      return;
    constexpr std::uint16_t k_fallbacks = facts::guard_bit(facts::Guard::cuda_available) |
                                          facts::guard_bit(facts::Guard::device_branch) |
                                          facts::guard_bit(facts::Guard::import_error_fallback);
    if (f.guards & facts::guard_bit(facts::Guard::opt_in)) {
      f.opt_in = m_view.program.opt_in_option(m_view.id, ctx);
      f.severity = std::min(f.severity, Severity::low);
      f.message += " (opt-in: runs only when `" + f.opt_in + "` is set, off by default)";
    } else if (f.guards & k_fallbacks) {
      const auto names = guard_names(static_cast<std::uint16_t>(f.guards & k_fallbacks));
      if (f.severity > Severity::low) {
        f.severity = Severity::low;
        f.message += " (guarded by " + names.front() + ": the other branch must still run on Neuron)";
      }
    }
  }

  const program::FileView& m_view;
  const facts::FileFacts& m_file;
  const RuleSet& m_rules;
  TargetProfile m_profile;
  std::vector<std::uint32_t> m_candidates;
  std::set<std::pair<std::uint32_t, Span>> m_seen;
  std::vector<Finding> m_findings;
};

}  // namespace

std::vector<Finding> match(const program::FileView& file, const RuleSet& rules, TargetProfile profile) {
  return Matcher(file, rules, profile).run();
}

}  // namespace tr2audit::rules
