// Repo-wide tables program/options reads: the names registered into each registry, and the boolean
// switches the repo passes when it builds its own classes (see option_values.hpp).
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "program/option_values.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program::option_values {
namespace {

// `ffns_with_megablocks.register("mb_moe", func=build_mb_moe)` and `@ffns.register("mb_dmoe")`: a name a
// registry holds (the first positional string, or `name=`).
void note_registration(const QualifiedName& callee, const CompactArray<facts::Argument>& args,
                       std::unordered_map<std::string, std::string>& registries) {
  if (callee.empty() || callee.last_segment() != "register") return;
  const std::string_view dotted = callee.dotted();
  const std::string registry(dotted.substr(0, dotted.size() - std::string_view(".register").size()));
  for (const auto& arg : args) {
    if (arg.kind != facts::LiteralKind::string || arg.value.empty() || (!arg.keyword.empty() && arg.keyword != "name"))
      continue;
    std::string& members = registries[registry];
    const std::string_view value = arg.value;
    bool known = false;
    for (std::size_t from = 0; from < members.size() && !known;) {
      const auto at = members.find(facts::k_member_separator, from);
      known = std::string_view(members).substr(from, at == std::string::npos ? at : at - from) == value;
      from = at == std::string::npos ? members.size() : at + 1;
    }
    if (!known) (members.empty() ? members : members += facts::k_member_separator) += value;
    return;
  }
}

}  // namespace

std::unordered_map<std::string, std::string> registered_names(const std::vector<facts::FileFacts>& files) {
  std::unordered_map<std::string, std::string> registries;
  for (const auto& file : files) {
    if (file.is_test) continue;
    for (const auto& call : file.calls) {
      if (call.method == "register") note_registration(call.callee, call.args, registries);
    }
    for (const auto& deco : file.decorators) note_registration(deco.decorator, deco.args, registries);
  }
  return registries;
}

std::unordered_set<std::string> constructor_arguments(const std::vector<facts::FileFacts>& files) {
  // (Only constructions of the repo's own classes: `nn.Linear(bias=False)` is no switch of the repo's.)
  std::unordered_set<std::string_view> classes;
  for (const auto& file : files) {
    for (const auto& klass : file.classes) classes.insert(klass.name.view());
  }
  std::unordered_set<std::string> out;
  for (const auto& file : files) {
    if (file.is_test) continue;
    for (const auto& call : file.calls) {
      // `Collator(tokenizer, 512, pad_to_longest=True)`: a constructor switch the repo's own code sets.
      const std::string callee =
          last_segment(call.callee.empty() ? call.callee_text.view() : call.callee.dotted().view());
      if (!classes.count(callee)) continue;
      out.insert(callee + ".()");
      std::size_t position = 0;
      for (const auto& arg : call.args) {
        if (arg.is_splat) {
          out.insert(callee + ".**");
          break;
        }
        const std::string key =
            callee + "." + (arg.keyword.empty() ? "#" + std::to_string(position) : arg.keyword.str());
        if (arg.kind == facts::LiteralKind::boolean) out.insert(key + "=" + arg.value.str());
        if (arg.kind != facts::LiteralKind::null) out.insert(key + "=?");
        if (arg.keyword.empty()) ++position;
      }
    }
  }
  return out;
}

}  // namespace tr2audit::program::option_values
