// The text parts of a finding: message placeholders, guard names, snippet and fingerprint.
#include <algorithm>
#include <cctype>
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
  if (option.find(".__name__ ") != std::string::npos) {  // program/options: only quantized-class tests name one
    // `optimizer_cls.__name__ == "Adam8bit"`: bitsandbytes' optimizers are picked by a setting
    // (HF `optim="adamw_bnb_8bit"`); `weight.__class__.__name__ == "Params4bit"`: a quantized model.
    const bool optimizer = option.find("8bit\"") != std::string::npos || option.find("\"Paged") != std::string::npos;
    return " (opt-in: runs only when `" + option +
           (optimizer ? "`: for an 8-bit or paged optimizer a setting selects, not the default)"
                      : "`: for weights or layers a quantization library already built)");
  }
  constexpr std::string_view k_plugin = "config lists plugin ";
  if (starts_with(option, k_plugin))  // program/named_modules: a plugin package some shipped example lists
    return " (opt-in: runs only when a run's config lists the plugin `" + option.substr(k_plugin.size()) +
           "`, as some shipped examples do; no plugin is loaded by default)";
  if (starts_with(option, k_selects))
    return " (opt-in: runs only when a config selects `" + option.substr(k_selects.size()) +
           "`; no shipped config or running repo code does)";
  // program/options: a statement after one that always leaves its block, or under `if False:`.
  if (starts_with(option, facts::k_unreachable_prefix))
    return " (never runs: it follows " + option.substr(facts::k_unreachable_prefix.size()) +
           ", which always leaves its block)";
  if (option == "False") return " (never runs: under a test that is always false, `if False:`)";
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
  if (ends_with(option, " is None") || option.find(" == ") != std::string::npos ||
      option.find(" != ") != std::string::npos || option.find(" > ") != std::string::npos ||
      option.find(" in (") != std::string::npos)
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

namespace {

bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}

bool blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\';
}

/// A finding on a call that spans lines and ends in a method call (`RF(\n...\n).cuda()`) is placed on the
/// method's name, the line a reader looks for (`.cuda()`, not `RF(` twelve lines above). Anything else,
/// or a call whose last argument list cannot be found (a string with an unbalanced parenthesis), stays.
void anchor_method_call(Finding& finding, std::string_view text) {
  const Span at = finding.at;
  if (at.end_line <= at.line || at.end_byte <= at.start_byte || at.end_byte > text.size()) return;
  const std::string_view call = text.substr(at.start_byte, at.end_byte - at.start_byte);
  if (call.empty() || call.back() != ')') return;
  std::size_t open = std::string_view::npos;
  int depth = 0;
  for (std::size_t i = call.size(); i > 0 && open == std::string_view::npos;) {
    const char c = call[--i];
    if (c == '"' || c == '\'') {  // back over a string literal (its opening quote)
      const std::size_t start = i == 0 ? std::string_view::npos : call.rfind(c, i - 1);
      if (start == std::string_view::npos) return;
      i = start;
    } else if (c == ')' || c == ']' || c == '}') {
      ++depth;
    } else if ((c == '(' || c == '[' || c == '{') && --depth == 0) {
      open = i;
    }
  }
  if (open == std::string_view::npos) return;
  std::size_t end = open;
  while (end > 0 && blank(call[end - 1])) --end;
  std::size_t begin = end;
  while (begin > 0 && identifier_char(call[begin - 1])) --begin;
  std::size_t dot = begin;
  while (dot > 0 && blank(call[dot - 1])) --dot;
  if (begin == end || dot == 0 || call[dot - 1] != '.') return;
  const std::string_view before = call.substr(0, begin);
  const auto lines = static_cast<std::uint32_t>(std::count(before.begin(), before.end(), '\n'));
  if (lines == 0) return;
  const std::size_t line_start = before.rfind('\n') + 1;
  finding.at.line += lines;
  finding.at.column = Span::column_of(static_cast<std::uint32_t>(count_code_points(before.substr(line_start))) + 1);
  finding.at.start_byte = at.start_byte + static_cast<std::uint32_t>(begin);
}

}  // namespace

void fill_snippet_and_fingerprint(Finding& finding, std::string_view file_text, bool method_call) {
  if (method_call) anchor_method_call(finding, file_text);
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
