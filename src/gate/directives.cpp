// Parsing `tr2audit: ignore[...]` / `ignore-file[...]` directives out of comment text.
#include <algorithm>
#include <cctype>

#include "tr2audit/core/qualified_name.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/gate/suppress.hpp"

namespace tr2audit::gate {
namespace {

constexpr std::string_view k_marker = "tr2audit:";

struct DirectiveParser {
  const std::string& path;
  const std::vector<std::string>& known;
  ParsedDirectives& out;

  void problem(const Comment& c, std::uint32_t offset, const std::string& message) {
    out.problems.push_back(Problem{ProblemKind::invalid_config, path, c.line, c.column + offset, message});
  }

  /// The problem text for one id, or "" when it is acceptable.
  std::string check_id(const std::string& id) const {
    if (id.empty()) return "empty rule id in the brackets";
    if (id == "*")
      return "a bare '*' is not allowed: name the rule ids (a category glob such as 'cuda-api.*' is fine), "
             "or leave the file out with exclude";
    const std::size_t dot = id.find('.');
    if (dot == std::string::npos || !parse_category(id.substr(0, dot)))
      return "'" + id + "' is not a rule id (<category>.<name>, e.g. cuda-api.cuda-device-literal)";
    if (known.empty()) return "";
    const bool is_glob = id.find_first_of("*?") != std::string::npos;
    if (!is_glob && std::binary_search(known.begin(), known.end(), id)) return "";
    if (is_glob && std::any_of(known.begin(), known.end(), [&](const std::string& k) { return glob_match(id, k); }))
      return "";
    const std::string hint = suggest(id, known);
    return "unknown rule id '" + id + "'" + (hint.empty() ? "" : "; did you mean '" + hint + "'?");
  }

  /// Splits "until=DATE reason" / "reason until=DATE" into the directive; false on a bad date.
  bool read_tail(std::string_view tail, Directive& d, std::string& error) const {
    tail = trim(tail);
    std::string_view until;
    bool has_until = true;
    if (starts_with(tail, "until=")) {
      const std::size_t end = tail.find_first_of(" \t");
      until = tail.substr(6, end == std::string_view::npos ? std::string_view::npos : end - 6);
      tail = end == std::string_view::npos ? std::string_view() : trim(tail.substr(end));
    } else if (const std::size_t at = tail.rfind("until="); at != std::string_view::npos &&
                                                            (at == 0 || tail[at - 1] == ' ' || tail[at - 1] == '\t') &&
                                                            tail.find_first_of(" \t", at) == std::string_view::npos) {
      until = tail.substr(at + 6);
      tail = trim(tail.substr(0, at));
    } else {
      has_until = false;
    }
    if (has_until) {
      if (!is_iso_date(until)) {
        error = "until=" + std::string(until) + " is not a date (YYYY-MM-DD)";
        return false;
      }
      d.until = std::string(until);
    }
    while (!tail.empty() && (tail.front() == '-' || tail.front() == ':' || tail.front() == ' ')) tail.remove_prefix(1);
    if (starts_with(tail, "\u2014") || starts_with(tail, "\u2013")) tail = trim(tail.substr(3));
    const bool has_word =
        std::any_of(tail.begin(), tail.end(), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)); });
    d.reason = has_word ? std::string(trim(tail)) : std::string();
    return true;
  }

  void parse(const Comment& c, std::size_t at) {
    std::string_view rest = trim(std::string_view(c.text).substr(at + k_marker.size()));
    const auto offset = static_cast<std::uint32_t>(at + 1);
    const std::size_t open = rest.find('[');
    const std::string keyword(trim(rest.substr(0, std::min(open, rest.find_first_of(" \t")))));
    if (keyword != "ignore" && keyword != "ignore-file") {
      const std::string hint = suggest(keyword, {"ignore", "ignore-file"});
      problem(c, offset,
              "unknown tr2audit directive '" + keyword + "' (expected ignore[RULE-ID] reason" +
                  (hint.empty() ? ")" : "; did you mean '" + hint + "'?)"));
      return;
    }
    const std::size_t close = rest.find(']', open == std::string_view::npos ? 0 : open);
    if (open == std::string_view::npos || close == std::string_view::npos ||
        trim(rest.substr(keyword.size(), open - keyword.size())).size()) {
      problem(c, offset, keyword + " needs rule ids in brackets: # tr2audit: " + keyword + "[RULE-ID] reason");
      return;
    }
    Directive d{c.line, c.column, keyword == "ignore-file", c.own_line};
    for (std::string_view id : split(rest.substr(open + 1, close - open - 1), ',')) {
      const std::string name(trim(id));
      if (const std::string error = check_id(name); !error.empty())
        return problem(c, offset, error + "; nothing is suppressed");
      d.rule_ids.push_back(name);
    }
    std::string error;
    if (!read_tail(rest.substr(close + 1), d, error)) return problem(c, offset, error + "; nothing is suppressed");
    if (d.reason.empty()) {
      problem(c, offset, "suppression has no reason: write why after the ']' (it suppresses nothing without one)");
      return;
    }
    out.directives.push_back(std::move(d));
  }
};

int days_in_month(int year, int month) {
  static constexpr int k_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : k_days[month - 1];
}

}  // namespace

bool is_iso_date(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  const int year = std::stoi(std::string(text.substr(0, 4)));
  const int month = std::stoi(std::string(text.substr(5, 2)));
  const int day = std::stoi(std::string(text.substr(8, 2)));
  return month >= 1 && month <= 12 && day >= 1 && day <= days_in_month(year, month);
}

ParsedDirectives parse_directives(const std::vector<Comment>& comments, const std::string& path,
                                  const std::vector<std::string>& known_rule_ids) {
  ParsedDirectives out;
  DirectiveParser parser{path, known_rule_ids, out};
  for (const Comment& comment : comments) {
    // A comment may chain directives of several tools: "# type: ignore  # tr2audit: ignore[...] why".
    // A directive runs to the next "# tr2audit:" (its reason may contain '#', as in "see #42").
    std::vector<std::size_t> starts;
    for (std::size_t at = comment.text.find(k_marker); at != std::string::npos;
         at = comment.text.find(k_marker, at + 1)) {
      std::size_t k = at;
      while (k > 0 && (comment.text[k - 1] == ' ' || comment.text[k - 1] == '\t')) --k;
      if (k == 0 || comment.text[k - 1] == '#') starts.push_back(at);
    }
    for (std::size_t n = 0; n < starts.size(); ++n) {
      std::size_t end = n + 1 < starts.size() ? comment.text.rfind('#', starts[n + 1]) : comment.text.size();
      parser.parse(Comment{comment.line, comment.column, comment.text.substr(0, end), comment.own_line}, starts[n]);
    }
  }
  return out;
}

}  // namespace tr2audit::gate
