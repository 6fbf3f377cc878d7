// facts/dependencies_docker: what a Dockerfile tells about the training platform, as dependency
// facts: the base image of each stage (a CUDA image or a Neuron deep-learning container), the packages
// `pip install` pins in RUN lines, and the ENV/ARG names (compile-cache settings). Line based, bounded
// by the file size discovery allows; nothing in the file is ever run.
#include <cctype>

#include "dependencies_internal.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::facts {
namespace {

constexpr std::size_t k_max_logical_line = 64 * 1024;

/// Splits on blanks outside quotes (`A="x y"` is one word); quotes are kept, never interpreted.
std::vector<std::string_view> words_of(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    const std::size_t start = i;
    char quote = 0;
    while (i < text.size() && (quote != 0 || !std::isspace(static_cast<unsigned char>(text[i])))) {
      if (quote == 0 && (text[i] == '"' || text[i] == '\'')) {
        quote = text[i];
      } else if (text[i] == quote) {
        quote = 0;
      }
      ++i;
    }
    if (i > start) out.push_back(text.substr(start, i - start));
  }
  return out;
}

std::string_view unquote(std::string_view word) {
  while (!word.empty() && (word.front() == '"' || word.front() == '\'')) word.remove_prefix(1);
  while (!word.empty() && (word.back() == '"' || word.back() == '\'' || word.back() == ';')) word.remove_suffix(1);
  return word;
}

/// FROM [--platform=x] image[:tag|@digest] [AS name]
void from_line(std::string_view rest, std::uint32_t line, std::vector<DependencyFact>& out) {
  for (std::string_view word : words_of(rest)) {
    if (starts_with(word, "--")) continue;
    std::string_view image = word;
    const std::size_t at = image.find('@');
    if (at != std::string_view::npos) image = image.substr(0, at);
    const std::size_t slash = image.rfind('/');
    const std::size_t colon = image.rfind(':');
    if (colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash))
      image = image.substr(0, colon);
    out.push_back(DependencyFact{to_lower(image), std::string(word), "docker-from", Span{line, 1, line, 1, 0, 0}});
    return;
  }
}

/// The requirement words after each `pip install` (options and flags skipped).
void pip_line(std::string_view rest, std::uint32_t line, std::vector<DependencyFact>& out) {
  const std::vector<std::string_view> words = words_of(rest);
  bool installing = false;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string_view word = unquote(words[i]);
    if (word == "&&" || word == "||" || word == ";" || word == "\\") {
      installing = false;
      continue;
    }
    if (word == "install" && i > 0 && (ends_with(unquote(words[i - 1]), "pip") || unquote(words[i - 1]) == "pip3")) {
      installing = true;
      continue;
    }
    if (!installing || word.empty()) continue;
    if (word.front() == '-') {
      const bool takes_value = word == "-r" || word == "-c" || word == "-i" || word == "-f" || word == "--index-url" ||
                               word == "--extra-index-url" || word == "--find-links";
      if (takes_value) ++i;
      continue;
    }
    if (word.find('$') != std::string_view::npos || word.front() == '.' || word.front() == '/') continue;
    if (auto fact = make_dependency(word, "docker-pip", line)) out.push_back(std::move(*fact));
  }
}

/// ENV NAME=value ... | ENV NAME value | ARG NAME[=default]
void env_line(std::string_view rest, std::uint32_t line, std::vector<DependencyFact>& out) {
  const std::vector<std::string_view> words = words_of(rest);
  if (words.empty()) return;
  if (words[0].find('=') == std::string_view::npos) {  // legacy `ENV NAME value`
    const std::size_t value_at = rest.find(words[0]) + words[0].size();
    out.push_back(DependencyFact{std::string(words[0]), std::string(trim(rest.substr(value_at))), "docker-env",
                                 Span{line, 1, line, 1, 0, 0}});
    return;
  }
  for (std::string_view word : words) {
    const std::size_t eq = word.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    out.push_back(DependencyFact{std::string(word.substr(0, eq)), std::string(unquote(word.substr(eq + 1))),
                                 "docker-env", Span{line, 1, line, 1, 0, 0}});
  }
}

void instruction(std::string_view logical, std::uint32_t line, std::vector<DependencyFact>& out) {
  logical = trim(logical);
  if (logical.empty() || logical.front() == '#') return;
  const std::size_t space = logical.find_first_of(" \t");
  if (space == std::string_view::npos) return;
  const std::string keyword = to_lower(logical.substr(0, space));
  const std::string_view rest = trim(logical.substr(space));
  if (keyword == "from") from_line(rest, line, out);
  if (keyword == "run") pip_line(rest, line, out);
  if (keyword == "env" || keyword == "arg") env_line(rest, line, out);
}

}  // namespace

std::vector<DependencyFact> read_dockerfile(std::string_view text) {
  std::vector<DependencyFact> out;
  std::string logical;
  std::uint32_t first_line = 0;
  for_each_line(text, [&](std::string_view line, std::uint32_t line_number) {
    if (logical.empty()) first_line = line_number;
    const std::string_view body = trim(line);
    if (!body.empty() && body.front() == '#' && !logical.empty()) return;  // comments inside continuations
    if (!body.empty() && body.back() == '\\' && logical.size() < k_max_logical_line) {
      logical.append(body.substr(0, body.size() - 1)).push_back(' ');
      return;
    }
    logical.append(body);
    instruction(logical, first_line, out);
    logical.clear();
  });
  if (!logical.empty()) instruction(logical, first_line, out);
  return out;
}

}  // namespace tr2audit::facts
