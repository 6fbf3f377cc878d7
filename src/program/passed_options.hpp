// program/passed_options: the options a parameter with no default is passed down, so that a branch on it
// (`if comm_backend == "deepep":` in `make_token_dispatcher_config(dim, comm_backend)`) can be judged by
// what a default run passes (program/options).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "program/model.hpp"

namespace tr2audit::program {

class PassedOptions {
 public:
  /// Indexes, per function, the non-test call sites that name it (`f(x=...)`, `mod.f(...)`, `self.f(...)`).
  explicit PassedOptions(const Program::Impl& impl);

  /// True when parameter `name` of `fn`, which has no default, never takes the branch on `term` in a
  /// default run: at every call site a run reaches, it is passed a literal that leaves the branch off, an
  /// option read off a config (`params["comm_backend"]`, `cfg.comm_backend`) for which `option_off` says
  /// so, or the caller's own parameter, judged the same way (its default, else its callers). Sites in
  /// code no entry point reaches select nothing, but one site must decide; a site not understood makes it
  /// false. `model_registry(flavor, moe_comm_backend: str = "standard")` passing the value down three
  /// functions makes "deepep" off (a variant config that calls `model_registry(moe_comm_backend="deepep")`
  /// overrides a default, as for any parameter default).
  /// With `options_only`, every site must pass an option read (`args.loss_tokens_per_chunk`), not a literal or the
  /// caller's own parameter (an `attention_mask` a forward hands on is data, whatever its default).
  bool off(FunctionId fn, std::string_view name, const facts::ConditionTerm& term,
           const std::function<bool(std::string_view option)>& option_off, bool options_only = false) const;
  /// True when constructor parameter `name` of `fn` (an `__init__`, whatever its default) never takes the branch
  /// on `term` in a default run, judged at the class's constructions: each passes a literal or an option read
  /// that leaves it off (`xformers_att_config=cfg.encoder.xformers_att_config`, a config field defaulting to
  /// None), or leaves it out and the parameter's literal default does; one must decide, and a site a run reaches
  /// that is not understood makes it false. A constructor's parameters configure the module; forward's
  /// `attention_mask=None` is what its callers pass or not, and stays with off().
  bool off_where_built(FunctionId fn, std::string_view name, const facts::ConditionTerm& term,
                       const std::function<bool(std::string_view option)>& option_off) const;
  /// True when parameter `name` of `fn` (a function or method other than a module's `forward`/`__call__`) never
  /// takes the branch on `term` because every call site a run reaches passes a value that leaves it off, whatever
  /// the parameter's default: `prepare_batch(self, batch, max_length=None)` with `else: max_len = max(...)` and its
  /// only call `self.prepare_batch(batch, max_length=self.max_length)` in a collator built with a fixed length
  /// (nanoVLM). A site that leaves the parameter out makes it false.
  bool off_where_passed(FunctionId fn, std::string_view name, const facts::ConditionTerm& term,
                        const std::function<bool(std::string_view option)>& option_off) const;
  /// True when parameter `name` of `fn` never takes the branch on `term` in training: every call site that
  /// training code makes passes a literal that leaves it off (`get_pool_mask(mask, return_idcs=False)` from the
  /// training forward), or leaves out a parameter whose literal default does (`extract_features(x)` for
  /// `padding_mask=None` under `if padding_mask is not None:`), and there is one. Only other code (a generation
  /// script) takes the branch. (Not for a `forward` or `__call__`: a module's call runs it without naming it.)
  /// `all_omitted`: set when no deciding site passed the parameter at all.
  bool off_in_training(FunctionId fn, std::string_view name, const facts::ConditionTerm& term,
                       bool* all_omitted = nullptr) const;
  /// True when a call site training code makes passes parameter `name` of `fn` a literal that takes the branch on
  /// `term`: the parameter's default does not decide (`convert_padding_direction(..., left_to_right=True)` from
  /// the training forward). (A value read off a config or a caller's parameter is judged by its own default.)
  bool passed_on_in_training(FunctionId fn, std::string_view name, const facts::ConditionTerm& term) const;
  /// True when every call of `fn` the repo makes passes its parameter `name` (by keyword or position; through a
  /// wrapper that forwards its own `*args, **kwargs`, when every call of the wrapper does) and there is one: the
  /// parameter's default never runs (Program::always_passed).
  bool always_passed(FunctionId fn, std::string_view name) const;

 private:
  struct CallSite {
    FunctionId caller;  ///< index -1: a module body
    std::int32_t call;  ///< FileFacts::calls of the caller's file
  };
  struct Query {
    const facts::ConditionTerm& term;
    const std::function<bool(std::string_view option)>& option_off;
    int budget;  ///< call sites still to read: they fan out at every level
    bool options_only = false;
  };
  static constexpr std::size_t k_max_sites = 24;  ///< more call sites: the parameter is an input, not an option
  /// A constructor's parameter that defaults to a literal is configuration however often the class is built
  /// (fairseq builds MultiheadAttention at some 30 sites, each leaving `xformers_att_config` unset): every
  /// construction must still agree, up to this many.
  static constexpr std::size_t k_max_built_sites = 64;
  static constexpr int k_max_depth = 6;
  static constexpr int k_budget = 256;

  bool off_at(FunctionId fn, std::string_view name, int depth, Query& query) const;
  bool forwards_arguments(const CallSite& site) const;
  bool passed_at_every_site(FunctionId fn, std::string_view name, std::optional<std::size_t> position, int depth) const;
  /// Every call site a run reaches leaves the branch off (`off_site` says so of each), and one does: sites in
  /// code no entry point reaches, or only tests, tools (benchmarks, profilers) and exports, select nothing.
  template <class OffSite>
  bool every_reached_site(const std::vector<CallSite>& sites, OffSite&& off_site) const {
    bool decided = false;
    for (const CallSite& site : sites) {
      if (off_site(site)) {
        decided = true;
        continue;
      }
      // A site a run reaches may take the branch. One that only a benchmark, a profiler or an export reaches
      // (fairseq's benchmark_multihead_attention passing an xformers config) measures or converts the option; it
      // does not turn it on for the runs the findings are about (training, and inference with --include-roles).
      RoleSet roles = m_impl.at(site.caller).roles;
      for (Role off : {Role::test, Role::tooling, Role::export_}) roles.reset(static_cast<std::size_t>(off));
      if (roles.any()) return false;
    }
    return decided;
  }
  /// `fn` assigns its parameter (or local) `name` somewhere in its body. With a `term` that tests for None, a
  /// rebinding through a repo function that gives None back for None (`x = eval_str_dict(x)`, keeps_none) is not
  /// one: whether the name is None is still what the callers passed.
  bool rebinds(FunctionId fn, std::string_view name, const facts::ConditionTerm* term = nullptr) const;
  bool keeps_none(FunctionId fn, const facts::AssignFact& assign) const;
  /// `self.max_length` passed in a method of a class whose `__init__` binds it once, unconditionally, to its own
  /// parameter (`self.max_length = max_length`): that constructor and parameter; nullopt otherwise.
  std::optional<std::pair<FunctionId, std::string_view>> constructor_binding(FunctionId caller,
                                                                             std::string_view attribute) const;
  bool built_off_at(FunctionId fn, std::string_view name, const facts::ConditionTerm& term,
                    const std::function<bool(std::string_view option)>& option_off, int depth) const;
  /// The argument a site passes for the parameter (a `*args`/`**kwargs` splat stands for it); null when none.
  const facts::Argument* passed_argument(const CallSite& site, std::optional<std::size_t> position,
                                         std::string_view name) const;
  /// `omitted`: the parameter's default, what a site that does not pass it gives (null: such a site decides nothing).
  bool site_off(const CallSite& site, std::optional<std::size_t> position, std::string_view name, int depth,
                Query& query, const facts::Argument* omitted = nullptr) const;
  /// The option a dotted read names is off by default: by its last two names (a yacs default), else its last.
  static bool option_off(std::string_view dotted, Query& query);

  const Program::Impl& m_impl;
  std::vector<std::vector<std::vector<CallSite>>> m_callers;  ///< per file, per function
};

}  // namespace tr2audit::program
