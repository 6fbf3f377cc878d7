// rules/match: applies a RuleSet to one file's facts under a target profile and returns the
// findings, sorted by (path, line, column, rule id). Snippet and fingerprint need the file's text
// and are filled afterwards by fill_snippet_and_fingerprint.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "tr2audit/core/severity.hpp"
#include "tr2audit/facts/facts.hpp"
#include "tr2audit/program/program.hpp"
#include "tr2audit/rules/finding.hpp"
#include "tr2audit/rules/op_table.hpp"
#include "tr2audit/rules/rule_set.hpp"

namespace tr2audit::rules {

/// Every finding of the rules that apply to `profile` on one file of a program (snippet and fingerprint
/// left empty). Context (region, guards, roles, import origins) is read through the program. `op` rules
/// look calls up in `ops` (none fire without a table). An `op` finding on the same call as a finding of
/// another category is dropped: that rule already reports the line. `setting` rules with
/// `value_calls_gpu_only` ask the GPU-only `call:` rules of `knowledge` (default: `rules`; a fixture run
/// of one rule passes every rule).
std::vector<Finding> match(const program::FileView& file, const RuleSet& rules, TargetProfile profile,
                           const OpTable* ops = nullptr, const RuleSet* knowledge = nullptr);

/// What the rules say is GPU-only, for program::Program::build: a call any `call:` rule of category
/// cuda-extension or cuda-library at medium or above matches, and a decorator a cuda-extension
/// `decorator:` rule matches (Triton and CUDA DSL kernels). Refers to `rules`, which must outlive the build.
program::LockinKnowledge lockin_knowledge(const RuleSet& rules, TargetProfile profile);
/// Sets finding.snippet (the trimmed source line, at most 200 code points) and finding.fingerprint
/// (FNV-1a 64 over rule id, whitespace-free snippet, function and path, as 16 hex digits). A `method:`
/// rule's finding (`method_call`) on a call that spans lines (`RF(...\n).cuda()`) is first moved to the
/// method's name, where a reader looks for it.
void fill_snippet_and_fingerprint(Finding& finding, std::string_view file_text, bool method_call = false);

/// The kebab names of the guards set in a facts::Guard bit set, in bit order.
std::vector<std::string> guard_names(std::uint16_t guards);

/// Replaces {subject}, {callee}, ... in a rule message; unknown placeholders are kept as written.
struct MessageFields {
  std::string subject, callee, method, receiver, value, function, detail, text;
  std::string op, status, note, alternative, target;  ///< op rules: the table row under the target profile
};
std::string fill_message(std::string_view message, const MessageFields& fields);
/// What an opt-in finding's message adds: which option turns the code on (" (opt-in: runs only when ...)").
std::string opt_in_note(const std::string& option);

/// The placeholders a rule message may use, without braces.
const std::vector<std::string>& message_placeholders();

}  // namespace tr2audit::rules
