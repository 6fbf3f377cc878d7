// Method lookups by name for receivers of unknown type (Symbols::methods_named_for): when more classes than
// k_max_name_candidates define a method, the ones whose class name shares a word with the receiver's name.
#include <algorithm>
#include <string>
#include <vector>

#include "program/symbols.hpp"

namespace tr2audit::program {

namespace {

/// The lower-case words of an identifier of 3+ letters: `actor_rollout_wg` → actor, rollout;
/// `ActorRolloutRefWorker` → actor, rollout, ref, worker.
std::vector<std::string> identifier_words(std::string_view text) {
  std::vector<std::string> out;
  std::string word;
  const auto flush = [&] {
    if (word.size() >= 3) out.push_back(word);
    word.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= 'A' && c <= 'Z') {
      if (i > 0 && !(text[i - 1] >= 'A' && text[i - 1] <= 'Z')) flush();
      word += static_cast<char>(c - 'A' + 'a');
    } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      word += c;
    } else {
      flush();
    }
  }
  flush();
  return out;
}

}  // namespace

std::vector<FunctionId> Symbols::methods_named_for(std::string_view name, std::string_view receiver) const {
  const auto it = m_methods_by_name.find(name);
  if (it == m_methods_by_name.end() || it->second.size() <= k_max_name_candidates) return {};
  // (A receiver that is a name or an attribute chain: `Image.fromarray(x, mode=m).convert(...)` names no object.)
  if (receiver.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") !=
      std::string_view::npos)
    return {};
  const auto dot = receiver.rfind('.');
  const std::string_view last = dot == std::string_view::npos ? receiver : receiver.substr(dot + 1);
  // (An object's name, not a class's: `BoxMode.convert(...)` with `BoxMode` unresolved names no instance to guess.)
  if (last.empty() || (last.front() >= 'A' && last.front() <= 'Z')) return {};
  const std::vector<std::string> hints = identifier_words(last);
  if (hints.empty()) return {};
  std::vector<FunctionId> out;
  for (const FunctionId& method : it->second) {
    const auto& file = m_files[method.file.value];
    const std::int32_t klass = file.functions[static_cast<std::size_t>(method.index)].klass;
    if (klass < 0) continue;
    const std::vector<std::string> words = identifier_words(file.classes[static_cast<std::size_t>(klass)].name.view());
    if (std::any_of(hints.begin(), hints.end(),
                    [&](const std::string& h) { return std::find(words.begin(), words.end(), h) != words.end(); }))
      out.push_back(method);
  }
  if (out.size() > k_max_name_candidates) return {};
  return out;
}

}  // namespace tr2audit::program
