// score/reasons: 2-6 sentences, most important first, each naming concrete code and its finding ids.
#include <algorithm>
#include <cmath>
#include <set>

#include "score/engine.hpp"

namespace tr2audit::score::detail {
namespace {

constexpr std::size_t k_max_reasons = 6;
constexpr std::size_t k_named = 3;  // concrete places named per sentence

std::string fmt_number(double value) {
  return std::to_string(static_cast<long>(std::lround(value)));
}

/// "`flash_attn_func(q, k, v)` in `Attention.forward` (model.py:53)".
std::string describe(const rules::Finding& finding) {
  return describe_code(finding);
}

/// The heaviest finding of each distinct rule id, heaviest first.
Findings one_per_rule(const Findings& findings, const ScoringPolicy& policy) {
  Findings out;
  std::set<std::string> seen;
  for (const auto* finding : by_weight(findings, policy)) {
    if (seen.insert(finding->rule_id).second) out.push_back(finding);
  }
  return out;
}

/// Names up to k_named findings, one per rule id, and collects their ids.
std::string name_some(const Findings& findings, const ScoringPolicy& policy, std::vector<std::string>& ids) {
  const Findings heads = one_per_rule(findings, policy);
  std::string text;
  for (std::size_t i = 0; i < heads.size() && i < k_named; ++i) {
    text += (i == 0 ? "" : i + 1 == std::min(heads.size(), k_named) ? " and " : ", ") + describe(*heads[i]);
    ids.push_back(heads[i]->id);
  }
  if (heads.size() > k_named) {
    const std::size_t more = heads.size() - k_named;
    text += " (+" + std::to_string(more) + (more == 1 ? " more kind)" : " more kinds)");
  }
  return text;
}

/// "lora (model.py:31), hf-auto (model.py:21)": the setup facts a setup-based hard rule rests on.
std::string setup_named(const HardRule& rule, const ScoreInput& input) {
  if (input.setup == nullptr) return "";
  const std::vector<const std::vector<report::SetupFact>*> fields{
      &input.setup->fine_tuning, &input.setup->model_family,  &input.setup->precision,
      &input.setup->parallelism, &input.setup->checkpointing, &input.setup->frameworks};
  std::string text;
  for (const auto& group : rule.setup_requires) {
    for (const auto& key : group) {
      const std::string value = key.substr(key.find(':') + 1);
      for (const auto* facts : fields) {
        for (const auto& fact : *facts) {
          if (fact.value != value || text.find(value + " (") != std::string::npos) continue;
          text += (text.empty() ? "" : ", ") + value + (fact.evidence.empty() ? "" : " (" + fact.evidence[0] + ")");
        }
      }
    }
  }
  return text;
}

Reason hard_rule_reason(const Decision& decision, const ScoreInput& input, const ScoringPolicy& policy) {
  Reason reason;
  std::string named = name_some(decision.matched, policy, reason.finding_ids);
  if (named.empty()) named = setup_named(*decision.rule, input);
  std::string text = decision.rule->description;
  if (!text.empty()) text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  reason.text = text + ": " + named + ".";
  return reason;
}

Reason threshold_reason(const Decision& decision, const ScoringPolicy& policy) {
  const double r = decision.tally.readiness;
  std::string text = "Readiness " + fmt_number(std::floor(r)) + "/100 ";  // as Assessment::readiness
  if (decision.verdict == Verdict::trainium2_pilot) {
    text += "reaches the pilot threshold (" + fmt_number(policy.pilot_min_readiness) +
            ") and no hard rule calls for keeping the GPU.";
  } else if (decision.verdict == Verdict::dual_run) {
    text += "lies between the dual-run (" + fmt_number(policy.dual_run_min_readiness) + ") and pilot (" +
            fmt_number(policy.pilot_min_readiness) + ") thresholds: portable with moderate work.";
  } else {
    text += "is below the dual-run threshold (" + fmt_number(policy.dual_run_min_readiness) +
            "): too much CUDA-specific or dynamic code to port at once.";
  }
  return Reason{text, {}};
}

/// "Readiness is capped by 3 unguarded blockers a training run reaches (30, then ×0.8 each): ..."
void cap_reasons(const Decision& decision, const ScoringPolicy& policy, std::vector<Reason>& out) {
  for (const auto& applied : decision.tally.caps) {
    Reason reason;
    const std::string named = name_some(applied.findings, policy, reason.finding_ids);
    std::string text = "Readiness is capped at " + fmt_number(applied.cap->max);
    if (applied.problems > 1)
      text += " and ×" + std::to_string(applied.cap->repeat).substr(0, 4) + " per further problem";
    text += " by " + applied.cap->description + " (" + std::to_string(applied.problems) + " problem" +
            (applied.problems == 1 ? "" : "s");
    reason.text = text + "): " + named + ".";
    out.push_back(std::move(reason));
  }
}

std::string category_tail(Category category) {
  switch (category) {
    case Category::cuda_extension:
      return "each kernel needs an NKI or plain-PyTorch port";
    case Category::cuda_library:
      return "CUDA-only packages must be replaced or made optional";
    case Category::cuda_api:
      return "each has a direct Neuron or device-agnostic replacement";
    case Category::dynamic_graph:
      return "host syncs and data-dependent control flow break or split compiled graphs";
    case Category::dynamic_shape:
      return "every new shape recompiles on Neuron, so pad or bucket";
    case Category::operator_support:
      return "the Neuron operator table (rules/neuron-ops.yaml) marks these ops unsupported or CPU fallback on the "
             "target";
    default:
      return "";
  }
}

/// One sentence per category with work to do, heaviest category first.
void category_reasons(const Decision& decision, const Findings& findings, const ScoringPolicy& policy,
                      std::vector<Reason>& out) {
  std::vector<Category> order;
  for (Category c : k_all_categories) {
    if (decision.tally.penalty[static_cast<std::size_t>(c)] >= 1.0 && !category_tail(c).empty()) order.push_back(c);
  }
  std::stable_sort(order.begin(), order.end(), [&](Category a, Category b) {
    return decision.tally.penalty[static_cast<std::size_t>(a)] > decision.tally.penalty[static_cast<std::size_t>(b)];
  });
  for (Category category : order) {
    Findings in_category;
    for (const auto* f : findings) {
      if (f->category == category && finding_weight(*f, policy) > 0) in_category.push_back(f);
    }
    if (in_category.empty()) continue;
    Reason reason;
    const std::string named = name_some(in_category, policy, reason.finding_ids);
    std::string label = category_label(category);
    label[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(label[0])));
    reason.text = label + " (" + std::to_string(in_category.size()) + " finding" +
                  (in_category.size() == 1 ? "" : "s") + "): " + named + "; " + category_tail(category) + ".";
    out.push_back(std::move(reason));
  }
}

std::optional<Reason> neuron_reason(const Findings& findings, const ScoringPolicy& policy) {
  Findings signals;
  for (const auto* f : findings) {
    if (is_neuron_signal(*f, policy)) signals.push_back(f);
  }
  if (signals.empty()) return std::nullopt;
  Reason reason;
  reason.text = "The code already targets Neuron: " + name_some(signals, policy, reason.finding_ids) + ".";
  return reason;
}

/// Says what was discounted, so a reader sees why CUDA code behind fallbacks did not decide.
std::optional<Reason> discount_reason(const ScoreInput& input, const ScoringPolicy& policy) {
  Reason reason;
  std::size_t guarded = 0, tests = 0;
  for (const auto& f : input.findings) {
    if (f.suppressed || f.severity < Severity::medium || f.category == Category::neuron_ready) continue;
    if (f.region == facts::Region::test) {
      ++tests;
    } else if (is_guarded(f, policy)) {
      ++guarded;
      if (reason.finding_ids.size() < 6) reason.finding_ids.push_back(f.id);
    }
  }
  if (guarded == 0 && tests == 0) return std::nullopt;
  std::string text;
  if (guarded > 0) {
    text = std::to_string(guarded) + " CUDA-specific or dynamic finding" + (guarded == 1 ? " sits" : "s sit") +
           " behind a fallback (ImportError fallback, device or cuda-available check) and weigh" +
           (guarded == 1 ? "s " : " ") + fmt_number(policy.guarded_factor * 100) + "%";
  }
  if (tests > 0) {
    text += (text.empty() ? "" : "; ") + std::to_string(tests) + " finding" + (tests == 1 ? "" : "s") +
            " in test code " + (tests == 1 ? "does" : "do") + " not count";
  }
  reason.text = text + ".";
  return reason;
}

}  // namespace

std::string category_label(Category category) {
  switch (category) {
    case Category::cuda_extension:
      return "custom CUDA kernels and extensions";
    case Category::cuda_library:
      return "CUDA-only libraries";
    case Category::cuda_api:
      return "CUDA APIs";
    case Category::dynamic_graph:
      return "dynamic graph";
    case Category::dynamic_shape:
      return "dynamic shapes";
    case Category::operator_support:
      return "operator support";
    case Category::neuron_ready:
      return "neuron-ready code";
    case Category::training_setup:
      return "training setup";
  }
  return "findings";
}

std::vector<Reason> build_reasons(const Decision& decision, const Findings& findings, const ScoreInput& input,
                                  const ScoringPolicy& policy) {
  std::vector<Reason> out;
  if (decision.rule != nullptr) out.push_back(hard_rule_reason(decision, input, policy));
  const bool by_signals = decision.rule != nullptr && decision.rule->verdict == Verdict::trainium2_pilot;
  const auto neuron = by_signals ? std::nullopt : neuron_reason(findings, policy);
  if (neuron && decision.verdict == Verdict::trainium2_pilot) out.push_back(*neuron);
  cap_reasons(decision, policy, out);
  category_reasons(decision, findings, policy, out);
  if (neuron && decision.verdict != Verdict::trainium2_pilot) out.push_back(*neuron);
  if (auto discounted = discount_reason(input, policy)) out.push_back(*discounted);
  if (decision.rule == nullptr || out.size() < 2) {
    out.insert(out.begin() + (decision.rule == nullptr ? 0 : 1), threshold_reason(decision, policy));
  }
  if (out.size() < 2) {
    out.push_back(
        Reason{"No CUDA extension, CUDA-only library, dynamic-graph or dynamic-shape finding weighs on the "
               "training path.",
               {}});
  }
  if (out.size() > k_max_reasons) out.resize(k_max_reasons);
  return out;
}

}  // namespace tr2audit::score::detail
