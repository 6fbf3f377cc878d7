// The text parts of a finding: message placeholders, guard names, snippet and fingerprint.
#include <algorithm>
#include <cstdio>
#include <iterator>

#include "tr2audit/core/text.hpp"
#include "tr2audit/facts/facts_json.hpp"
#include "tr2audit/rules/match.hpp"
#include "vocabulary.hpp"

namespace tr2audit::rules {

namespace {

constexpr std::size_t k_snippet_max_code_points = 200;

/// The prefix of text holding at most max code points (never cuts a UTF-8 sequence).
std::string_view cap_code_points(std::string_view text, std::size_t max) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if ((byte & 0xC0) == 0x80) continue;  // continuation byte
    if (count == max) return text.substr(0, i);
    ++count;
  }
  return text;
}

void fnv1a(std::uint64_t& hash, std::string_view bytes) {
  for (char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

}  // namespace

const std::vector<std::string>& message_placeholders() {
  static const std::vector<std::string> k_names{"subject",  "callee",      "method", "receiver", "value",
                                                "function", "detail",      "text",   "op",       "status",
                                                "note",     "alternative", "target"};
  return k_names;
}

/// What an opt-in finding's message adds: which option turns the code on.
std::string opt_in_note(const std::string& option) {
  constexpr std::string_view k_selects = "config selects ";
  if (starts_with(option, "isinstance("))
    return " (opt-in: runs only when `" + option +
           "` holds: for objects the caller already built with that CUDA-only library)";
  if (option.find(" == torch.") != std::string::npos)  // program/options: only quantized-storage tests name one
    return " (opt-in: runs only when `" + option + "`: for weights a quantization library already stored as integers)";
  if (option.find(".__name__ ") != std::string::npos)  // program/options: only quantized-class tests name one
    return " (opt-in: runs only when `" + option + "`: for weights or layers a quantization library already built)";
  if (starts_with(option, k_selects))
    return " (opt-in: runs only when a config selects `" + option.substr(k_selects.size()) +
           "`; no shipped config or running repo code does)";
  if (ends_with(option, ")")) return " (opt-in: runs only when `" + option + "` is true, off by default)";
  if (option.find(" or ") != std::string::npos) {  // `args.use_qlora or args.use_paged_optimizer`
    // `args.use_qlora` or `args.paged` is set; `ns_steps != "5"` or `not nesterov` holds.
    std::string each;
    bool tests = false;
    for (std::size_t from = 0; from != std::string::npos;) {
      const auto at = option.find(" or ", from);
      const std::string part = option.substr(from, at == std::string::npos ? at : at - from);
      tests |= part.find(' ') != std::string::npos;
      each += (each.empty() ? "`" : " or `") + part + "`";
      from = at == std::string::npos ? at : at + 4;
    }
    return " (opt-in: runs only when " + each + (tests ? " holds" : " is set") + ", off by default)";
  }
  constexpr std::string_view k_not_none = " is not None";
  if (ends_with(option, k_not_none))  // `self.args.quant_config is not None`: set at all
    return " (opt-in: runs only when `" + option.substr(0, option.size() - k_not_none.size()) +
           "` is set, off by default)";
  if (option.find(" == ") != std::string::npos || option.find(" != ") != std::string::npos ||
      option.find(" > ") != std::string::npos || option.find(" in (") != std::string::npos)
    return " (opt-in: runs only when `" + option + "` holds, off by default)";
  return " (opt-in: runs only when `" + option + "` is set, off by default)";
}

std::string fill_message(std::string_view message, const MessageFields& fields) {
  const std::string* values[] = {&fields.subject, &fields.callee,   &fields.method, &fields.receiver,
                                 &fields.value,   &fields.function, &fields.detail, &fields.text,
                                 &fields.op,      &fields.status,   &fields.note,   &fields.alternative,
                                 &fields.target};
  const auto& names = message_placeholders();
  std::string out;
  std::size_t i = 0;
  while (i < message.size()) {
    const std::size_t open = message.find('{', i);
    const std::size_t close = open == std::string_view::npos ? open : message.find('}', open);
    if (close == std::string_view::npos) break;
    out.append(message.substr(i, open - i));
    const std::string_view name = message.substr(open + 1, close - open - 1);
    // Module-level code has no function: "`x.item()` in `` syncs" would name nothing.
    if (name == "function" && fields.function.empty()) {
      const bool quoted = out.ends_with(" in `") && close + 1 < message.size() && message[close + 1] == '`';
      if (quoted) out.resize(out.size() - 5);
      out += quoted ? " at the module's top level" : "the module's top-level code";
      i = close + (quoted ? 2 : 1);
      continue;
    }
    std::size_t k = 0;
    while (k < names.size() && names[k] != name) ++k;
    out.append(k < names.size() ? std::string_view(*values[k]) : message.substr(open, close - open + 1));
    i = close + 1;
  }
  out.append(message.substr(std::min(i, message.size())));
  return out;
}

std::vector<std::string> guard_names(std::uint16_t guards) {
  return facts::guard_names(guards);
}

void fill_snippet_and_fingerprint(Finding& finding, std::string_view file_text) {
  const std::string_view line = finding.at.line == 0 ? std::string_view() : line_at(file_text, finding.at.line);
  const std::string_view trimmed = trim(line);
  finding.snippet = std::string(cap_code_points(trimmed, k_snippet_max_code_points));
  // The caret's column inside the trimmed snippet (0 when the finding starts in the indentation).
  const auto indent = count_code_points(line.substr(0, static_cast<std::size_t>(trimmed.data() - line.data())));
  finding.snippet_column = finding.at.column > indent ? finding.at.column - indent : 0;
  std::string compact;
  for (char c : finding.snippet) {
    if (!is_space(c)) compact.push_back(c);
  }
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  const std::string_view parts[] = {finding.rule_id, compact, finding.function, finding.path};
  for (std::size_t i = 0; i < std::size(parts); ++i) {
    if (i > 0) fnv1a(hash, std::string_view("\0", 1));
    fnv1a(hash, parts[i]);
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  finding.fingerprint = hex;
}

}  // namespace tr2audit::rules
