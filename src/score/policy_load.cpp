// score/policy_load: reads rules/scoring.yaml into a ScoringPolicy. Any problem rejects the whole
// policy, so a half-valid file never scores a scan.
#include <fstream>
#include <sstream>

#include "score/policy_reader.hpp"
#include "tr2audit/facts/region.hpp"
#include "tr2audit/score/policy.hpp"

namespace tr2audit::score {
namespace {

using detail::PolicyReader;

const std::vector<std::string> k_top_keys{"version", "weights",    "repeats",    "readiness", "categories", "operators",
                                          "bonus",   "thresholds", "hard_rules", "effort",    "confidence", "plan"};
const std::vector<std::string> k_weight_keys{
    "severity",  "confidence",           "region",           "paths", "fallback_guards", "guarded", "error_region",
    "unreached", "guarded_min_severity", "entry_aware_paths"};
const std::vector<std::string> k_readiness_keys{"scale", "reference_lines", "size_exponent", "caps"};
const std::vector<std::string> k_cap_keys{"id", "description", "select", "max", "repeat"};
const std::vector<std::string> k_severities{"blocker", "high", "medium", "low", "info"};
const std::vector<std::string> k_confidences{"high", "medium", "low"};
// Region names come from the one table facts owns, plus "file" for file-level findings.
const std::vector<std::string> k_regions = [] {
  std::vector<std::string> names;
  for (facts::Region region : facts::all_regions()) names.emplace_back(facts::to_string(region));
  names.emplace_back("file");
  return names;
}();
const std::vector<std::string> k_guards{"cuda-available", "import-error-fallback", "device-branch", "neuron-branch",
                                        "main-block",     "type-checking",         "no-grad",       "except-handler",
                                        "periodic",       "step-closure"};
const std::vector<std::string> k_categories{"cuda-extension", "cuda-library",     "cuda-api",     "dynamic-graph",
                                            "dynamic-shape",  "operator-support", "neuron-ready", "training-setup"};
const std::vector<std::string> k_category_keys{"weight", "cap", "action", "days"};
const std::vector<std::string> k_efforts{"low", "medium", "high"};
const std::vector<std::string> k_op_statuses{"unsupported", "replace", "caveat", "unknown"};
const std::vector<std::string> k_bonus_keys{"neuron_signals", "per_neuron_signal", "neuron_cap", "setup", "setup_cap"};
const std::vector<std::string> k_setup_fields{"fine_tuning", "model_family",  "precision",
                                              "parallelism", "checkpointing", "frameworks"};
const std::vector<std::string> k_verdicts{"gpu-keep", "trainium2-pilot", "dual-run"};
const std::vector<std::string> k_hard_keys{
    "id",     "description",    "verdict",  "when",    "min_distinct_rules", "min_problems",
    "unless", "setup_requires", "at_least", "at_most", "requires_training"};
const std::vector<std::string> k_selector_keys{"categories", "rules",     "min_severity", "min_confidence",
                                               "regions",    "unguarded", "reached"};
const std::vector<std::string> k_plan_keys{"id", "select", "step", "step_xla", "why", "probes", "probes_xla"};

Effort effort_of(const std::string& word) {
  return word == "low" ? Effort::low : word == "medium" ? Effort::medium : Effort::high;
}

class PolicyLoader {
 public:
  PolicyLoader(std::string shown, std::vector<Problem>& problems) : m_in(std::move(shown), problems) {}

  void load(const YAML::Node& root, ScoringPolicy& out) {
    if (!m_in.check_map(root, k_top_keys, k_top_keys, "the scoring policy")) return;
    if (auto v = m_in.text(root["version"], "'version'")) out.version = *v;
    weights(root["weights"], out);
    repeats(root["repeats"], out);
    readiness(root["readiness"], out);
    categories(root["categories"], out);
    operators(root["operators"], out);
    bonus(root["bonus"], out);
    thresholds(root["thresholds"], out);
    hard_rules(root["hard_rules"], out);
    effort(root["effort"], out);
    confidence(root["confidence"], out);
    plan(root["plan"], out);
  }

 private:
  /// A map whose keys all come from `names` and whose values are numbers in [min, max].
  template <class Store>
  void number_map(const YAML::Node& node, const std::vector<std::string>& names, bool all_required,
                  const std::string& what, double min, double max, Store&& store) {
    if (!m_in.check_map(node, names, all_required ? names : std::vector<std::string>{}, what)) return;
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string key = it->first.Scalar();
      if (auto v = m_in.number(it->second, what + " '" + key + "'", min, max)) store(key, *v);
    }
  }

  void weights(const YAML::Node& node, ScoringPolicy& out) {
    if (!m_in.check_map(node, k_weight_keys,
                        {"severity", "confidence", "region", "fallback_guards", "guarded", "error_region"},
                        "'weights'")) {
      return;
    }
    if (const YAML::Node paths = node["paths"]; paths) {
      if (!paths.IsMap()) return m_in.error(paths, "'weights.paths' must map path globs to multipliers");
      for (auto it = paths.begin(); it != paths.end(); ++it) {
        auto glob = m_in.text(it->first, "'weights.paths' glob");
        auto factor = m_in.number(it->second, "'weights.paths' multiplier", 0, 10);
        if (glob && factor) out.path_factors.emplace_back(*glob, *factor);
      }
    }
    number_map(node["severity"], k_severities, true, "'weights.severity'", 0, 1000,
               [&](const std::string& k, double v) { out.severity[static_cast<std::size_t>(*parse_severity(k))] = v; });
    number_map(
        node["confidence"], k_confidences, true, "'weights.confidence'", 0, 10,
        [&](const std::string& k, double v) { out.confidence[static_cast<std::size_t>(*parse_confidence(k))] = v; });
    number_map(node["region"], k_regions, true, "'weights.region'", 0, 10,
               [&](const std::string& k, double v) { out.region[k] = v; });
    if (node["entry_aware_paths"]) {
      if (auto v = m_in.text_list(node["entry_aware_paths"], "'weights.entry_aware_paths'")) out.entry_aware_paths = *v;
    }
    if (auto v = m_in.word_list(node["fallback_guards"], k_guards, "guard")) out.fallback_guards = *v;
    if (auto v = m_in.number(node["guarded"], "'weights.guarded'", 0, 1)) out.guarded_factor = *v;
    if (auto v = m_in.number(node["error_region"], "'weights.error_region'", 0, 1)) out.error_region_factor = *v;
    if (node["guarded_min_severity"]) {
      if (auto w = m_in.word(node["guarded_min_severity"], k_severities, "severity"))
        out.guarded_min_severity = parse_severity(*w);
    }
    if (node["unreached"]) {
      if (auto v = m_in.number(node["unreached"], "'weights.unreached'", 0, 1)) out.unreached_factor = *v;
    }
  }

  void readiness(const YAML::Node& node, ScoringPolicy& out) {
    if (!m_in.check_map(node, k_readiness_keys, k_readiness_keys, "'readiness'")) return;
    if (auto v = m_in.number(node["scale"], "'readiness.scale'", 1, 10000)) out.readiness_scale = *v;
    if (auto v = m_in.number(node["reference_lines"], "'readiness.reference_lines'", 1, 1e9)) out.reference_lines = *v;
    if (auto v = m_in.number(node["size_exponent"], "'readiness.size_exponent'", 0, 2)) out.size_exponent = *v;
    const YAML::Node caps = node["caps"];
    if (!caps.IsSequence()) return m_in.error(caps, "'readiness.caps' must be a list");
    for (const YAML::Node& item : caps) {
      if (!m_in.check_map(item, k_cap_keys, k_cap_keys, "a readiness cap")) continue;
      auto id = m_in.text(item["id"], "readiness cap 'id'");
      const std::string what = "readiness cap '" + id.value_or("?") + "'";
      auto description = m_in.text(item["description"], what + " description");
      auto select = selector(item["select"], what + " 'select'");
      auto max = m_in.number(item["max"], what + " max", 0, 100);
      auto repeat = m_in.number(item["repeat"], what + " repeat", 0, 1);
      if (id && description && select && max && repeat)
        out.readiness_caps.push_back(ReadinessCap{*id, *description, std::move(*select), *max, *repeat});
    }
  }

  void repeats(const YAML::Node& node, ScoringPolicy& out) {
    if (!m_in.check_map(node, {"decay", "limit"}, {"decay", "limit"}, "'repeats'")) return;
    if (auto v = m_in.number(node["decay"], "'repeats.decay'", 0, 1)) out.repeat_decay = *v;
    if (auto v = m_in.number(node["limit"], "'repeats.limit'", 1, 1000))
      out.repeat_limit = static_cast<std::uint32_t>(*v);
  }

  void categories(const YAML::Node& node, ScoringPolicy& out) {
    if (!m_in.check_map(node, k_categories, k_categories, "'categories'")) return;
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string name = it->first.Scalar();
      const std::string what = "category '" + name + "'";
      if (!m_in.check_map(it->second, k_category_keys, {"weight", "cap"}, what)) continue;
      CategoryPolicy cat;
      if (auto v = m_in.number(it->second["weight"], what + " weight", 0, 10)) cat.weight = *v;
      if (auto v = m_in.number(it->second["cap"], what + " cap", 0, 100)) cat.cap = *v;
      if (it->second["action"]) {
        if (auto v = m_in.text(it->second["action"], what + " action")) cat.action = *v;
      }
      if (const YAML::Node days = it->second["days"];
          days && m_in.check_map(days, k_efforts, k_efforts, what + " days")) {
        for (const auto& level : k_efforts) {
          if (auto v = m_in.text(days[level], what + " days." + level)) cat.days[effort_of(level)] = *v;
        }
      }
      out.categories[*parse_category(name)] = std::move(cat);
    }
  }

  void operators(const YAML::Node& node, ScoringPolicy& out) {
    number_map(node, k_op_statuses, true, "'operators'", 0, 100,
               [&](const std::string& k, double v) { out.operator_weights[k] = v; });
  }

  void bonus(const YAML::Node& node, ScoringPolicy& out) {
    if (!m_in.check_map(node, k_bonus_keys, k_bonus_keys, "'bonus'")) return;
    if (auto v = m_in.text_list(node["neuron_signals"], "'bonus.neuron_signals'")) out.neuron_signals = *v;
    if (auto v = m_in.number(node["per_neuron_signal"], "'bonus.per_neuron_signal'", 0, 100))
      out.neuron_bonus_per_rule = *v;
    if (auto v = m_in.number(node["neuron_cap"], "'bonus.neuron_cap'", 0, 100)) out.neuron_bonus_cap = *v;
    if (auto v = m_in.number(node["setup_cap"], "'bonus.setup_cap'", 0, 100)) out.setup_bonus_cap = *v;
    const YAML::Node setup = node["setup"];
    if (!setup.IsMap()) return m_in.error(setup, "'bonus.setup' must map \"field:value\" to points");
    for (auto it = setup.begin(); it != setup.end(); ++it) {
      const std::string key = it->first.IsScalar() ? it->first.Scalar() : std::string();
      const auto colon = key.find(':');
      const std::string field = key.substr(0, colon);
      if (colon == std::string::npos ||
          std::find(k_setup_fields.begin(), k_setup_fields.end(), field) == k_setup_fields.end()) {
        m_in.error(it->first, "'bonus.setup' key '" + key +
                                  "' must be <field>:<value> with a field among fine_tuning, "
                                  "model_family, precision, parallelism, checkpointing, frameworks");
        continue;
      }
      if (auto v = m_in.number(it->second, "'bonus.setup." + key + "'", 0, 100)) out.setup_bonus[key] = *v;
    }
  }

  void thresholds(const YAML::Node& node, ScoringPolicy& out) {
    if (!m_in.check_map(node, {"pilot", "dual_run"}, {"pilot", "dual_run"}, "'thresholds'")) return;
    auto pilot = m_in.number(node["pilot"], "'thresholds.pilot'", 0, 100);
    auto dual = m_in.number(node["dual_run"], "'thresholds.dual_run'", 0, 100);
    if (pilot && dual && *dual > *pilot)
      return m_in.error(node, "'thresholds.dual_run' must not exceed 'thresholds.pilot'");
    if (pilot) out.pilot_min_readiness = *pilot;
    if (dual) out.dual_run_min_readiness = *dual;
  }

  std::optional<FindingSelector> selector(const YAML::Node& node, const std::string& what) {
    if (!m_in.check_map(node, k_selector_keys, {}, what)) return std::nullopt;
    FindingSelector sel;
    bool ok = true;
    const auto take = [&](auto&& value, auto&& apply) {
      if (value) apply(*value);
      ok = ok && value.has_value();
    };
    if (node["categories"])
      take(m_in.word_list(node["categories"], k_categories, "category"), [&](const auto& words) {
        for (const auto& w : words) sel.categories.push_back(*parse_category(w));
      });
    if (node["rules"]) take(m_in.text_list(node["rules"], what + " rules"), [&](const auto& v) { sel.rules = v; });
    if (node["min_severity"])
      take(m_in.word(node["min_severity"], k_severities, "severity"),
           [&](const auto& w) { sel.min_severity = parse_severity(w); });
    if (node["min_confidence"])
      take(m_in.word(node["min_confidence"], k_confidences, "confidence"),
           [&](const auto& w) { sel.min_confidence = parse_confidence(w); });
    if (node["regions"])
      take(m_in.word_list(node["regions"], k_regions, "region"), [&](const auto& v) { sel.regions = v; });
    if (node["unguarded"])
      take(m_in.boolean(node["unguarded"], what + " unguarded"), [&](bool v) { sel.unguarded = v; });
    if (node["reached"]) take(m_in.boolean(node["reached"], what + " reached"), [&](bool v) { sel.reached = v; });
    return ok ? std::optional(std::move(sel)) : std::nullopt;
  }

  void hard_rules(const YAML::Node& node, ScoringPolicy& out) {
    if (!node.IsSequence()) return m_in.error(node, "'hard_rules' must be a list");
    for (const YAML::Node& item : node) {
      if (!m_in.check_map(item, k_hard_keys, {"id", "description", "verdict"}, "a hard rule")) continue;
      HardRule rule;
      auto id = m_in.text(item["id"], "hard rule 'id'");
      const std::string what = "hard rule '" + id.value_or("?") + "'";
      auto description = m_in.text(item["description"], what + " description");
      auto verdict = m_in.word(item["verdict"], k_verdicts, "verdict");
      std::optional<FindingSelector> when;
      if (item["when"]) when = selector(item["when"], what + " 'when'");
      const bool when_ok = !item["when"] || when.has_value();
      if (!item["when"] && !item["setup_requires"]) m_in.error(item, what + " needs 'when' or 'setup_requires'");
      const bool setup_ok = !item["setup_requires"] || setup_groups(item["setup_requires"], what, rule);
      if (item["at_least"]) rule.at_least = m_in.boolean(item["at_least"], what + " at_least").value_or(false);
      if (item["at_most"]) rule.at_most = m_in.boolean(item["at_most"], what + " at_most").value_or(false);
      if (rule.at_least && rule.at_most) m_in.error(item, what + " cannot be both at_least and at_most");
      if (item["requires_training"])
        rule.requires_training = m_in.boolean(item["requires_training"], what + " requires_training").value_or(false);
      if (item["unless"]) rule.unless = selector(item["unless"], what + " 'unless'");
      if (item["min_distinct_rules"]) {
        if (auto v = m_in.number(item["min_distinct_rules"], what + " min_distinct_rules", 1, 1000)) {
          rule.min_distinct_rules = static_cast<std::uint32_t>(*v);
        }
      }
      if (item["min_problems"]) {
        if (auto v = m_in.number(item["min_problems"], what + " min_problems", 1, 1000)) {
          rule.min_problems = static_cast<std::uint32_t>(*v);
        }
      }
      if (!id || !description || !verdict || !when_ok || !setup_ok) continue;
      rule.id = *id;
      rule.description = *description;
      rule.verdict = *parse_verdict(*verdict);
      rule.when = std::move(when);
      out.hard_rules.push_back(std::move(rule));
    }
  }

  /// A list of groups, each a list of "field:value" setup facts.
  bool setup_groups(const YAML::Node& node, const std::string& what, HardRule& rule) {
    if (!node.IsSequence()) {
      m_in.error(node, what + " setup_requires must be a list of lists of \"field:value\"");
      return false;
    }
    bool ok = true;
    for (const YAML::Node& group : node) {
      auto values = m_in.text_list(group, what + " setup_requires group");
      if (!values) {
        ok = false;
        continue;
      }
      for (const auto& value : *values) {
        const std::string field = value.substr(0, value.find(':'));
        if (value.find(':') == std::string::npos ||
            std::find(k_setup_fields.begin(), k_setup_fields.end(), field) == k_setup_fields.end()) {
          m_in.error(group, what + " setup value '" + value + "' must be <field>:<value>");
          ok = false;
        }
      }
      rule.setup_requires.push_back(std::move(*values));
    }
    return ok;
  }

  void effort(const YAML::Node& node, ScoringPolicy& out) {
    if (!m_in.check_map(node, {"min_penalty", "assumptions"}, {"min_penalty", "assumptions"}, "'effort'")) return;
    number_map(node["min_penalty"], k_efforts, true, "'effort.min_penalty'", 0, 100,
               [&](const std::string& k, double v) { out.effort_min_penalty[effort_of(k)] = v; });
    if (auto v = m_in.text(node["assumptions"], "'effort.assumptions'")) out.effort_assumptions = *v;
  }

  void confidence(const YAML::Node& node, ScoringPolicy& out) {
    const std::vector<std::string> keys{"low_confidence_share", "tiny_repo_lines", "syntax_error_share",
                                        "borderline_margin"};
    if (!m_in.check_map(node, keys, keys, "'confidence'")) return;
    if (auto v = m_in.number(node["low_confidence_share"], "'confidence.low_confidence_share'", 0, 1))
      out.low_confidence_share = *v;
    if (auto v = m_in.number(node["tiny_repo_lines"], "'confidence.tiny_repo_lines'", 0, 1e9))
      out.tiny_repo_lines = static_cast<std::uint32_t>(*v);
    if (auto v = m_in.number(node["syntax_error_share"], "'confidence.syntax_error_share'", 0, 1))
      out.syntax_error_share = *v;
    if (auto v = m_in.number(node["borderline_margin"], "'confidence.borderline_margin'", 0, 50))
      out.borderline_margin = *v;
  }

  void plan(const YAML::Node& node, ScoringPolicy& out) {
    if (!node.IsSequence()) return m_in.error(node, "'plan' must be a list of code-change steps");
    for (const YAML::Node& item : node) {
      if (!m_in.check_map(item, k_plan_keys, {"id", "select", "step", "why", "probes"}, "a plan step")) continue;
      PlanTemplate step;
      auto id = m_in.text(item["id"], "plan step 'id'");
      const std::string what = "plan step '" + id.value_or("?") + "'";
      auto select = selector(item["select"], what + " 'select'");
      auto text = m_in.text(item["step"], what + " step");
      auto why = m_in.text(item["why"], what + " why");
      auto probes = m_in.text_list(item["probes"], what + " probes");
      if (item["step_xla"]) step.step_xla = m_in.text(item["step_xla"], what + " step_xla").value_or("");
      if (item["probes_xla"])
        step.probes_xla = m_in.text_list(item["probes_xla"], what + " probes_xla").value_or(std::vector<std::string>{});
      if (!id || !select || !text || !why || !probes) continue;
      step.id = *id;
      step.select = std::move(*select);
      step.step_native = *text;
      step.why = *why;
      step.probes_native = *probes;
      out.plan.push_back(std::move(step));
    }
  }

  PolicyReader m_in;
};

}  // namespace

LoadedPolicy load_policy_text(std::string_view yaml_text, const std::string& shown_path) {
  LoadedPolicy loaded;
  ScoringPolicy policy;
  try {
    const YAML::Node root = YAML::Load(std::string(yaml_text));
    PolicyLoader(shown_path, loaded.problems).load(root, policy);
  } catch (const YAML::Exception& e) {
    const bool known = !e.mark.is_null() && e.mark.line >= 0;
    loaded.problems.push_back(Problem{ProblemKind::invalid_config, shown_path,
                                      known ? static_cast<std::uint32_t>(e.mark.line + 1) : 0u,
                                      known ? static_cast<std::uint32_t>(e.mark.column + 1) : 0u, e.msg});
  }
  if (loaded.problems.empty()) loaded.policy = std::move(policy);
  return loaded;
}

LoadedPolicy load_policy(const std::filesystem::path& scoring_yaml) {
  std::ifstream in(scoring_yaml, std::ios::binary);
  const std::string shown = scoring_yaml.generic_string();
  if (!in) {
    LoadedPolicy loaded;
    loaded.problems.push_back(Problem{ProblemKind::invalid_config, shown, 0, 0, "cannot read the scoring policy"});
    return loaded;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return load_policy_text(text.str(), shown);
}

}  // namespace tr2audit::score
