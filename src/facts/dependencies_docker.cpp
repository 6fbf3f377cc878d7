// facts/dependencies_docker: what a Dockerfile tells about the training platform, as dependency
// facts: the base image of each stage (a CUDA image or a Neuron deep-learning container), the packages
// `pip install` pins in RUN lines and the package indexes it installs from (`--index-url`, at the URL's
// own line), and the ENV/ARG names (compile-cache settings). Shell scripts give their pip indexes. Line based, bounded
// by the file size discovery allows; nothing in the file is ever run.
#include <cctype>
#include <optional>
#include <tuple>
#include <utility>

#include "dependencies_internal.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/facts/launch_flags.hpp"

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
    out.push_back(
        DependencyFact{FactString(to_lower(image)), FactString(word), "docker-from", Span{line, 1, line, 1, 0, 0}});
    return;
  }
}

/// The physical line of a position in a logical (continued) line: `breaks` holds the offsets where
/// each further physical line starts.
struct LineMap {
  std::string_view logical;
  std::uint32_t first_line = 0;
  const std::vector<std::pair<std::size_t, std::uint32_t>>* breaks = nullptr;  ///< (offset, physical line)

  std::uint32_t line_of(std::string_view word) const {
    if (breaks == nullptr || word.data() < logical.data()) return first_line;
    const auto offset = static_cast<std::size_t>(word.data() - logical.data());
    std::uint32_t line = first_line;
    for (const auto& [start, number] : *breaks) {
      if (start > offset) break;
      line = number;
    }
    return line;
  }
};

bool is_index_option(std::string_view word) {
  return word == "-i" || word == "--index-url" || word == "--extra-index-url" || word == "-f" || word == "--find-links";
}

/// `--index-url URL` / `--extra-index-url=URL` / `-f URL`: the package index pip installs from (a CUDA
/// wheel index such as download.pytorch.org/whl/cu118), at the URL's own line.
void index_option(std::string_view option, std::string_view url, const LineMap& lines,
                  std::vector<DependencyFact>& out) {
  url = unquote(url);
  if (url.empty() || url.find('$') != std::string_view::npos) return;
  const std::uint32_t line = lines.line_of(url);
  out.push_back(DependencyFact{FactString(to_lower(url)), FactString(std::string(option) + " " + std::string(url)),
                               "package-index", Span{line, 1, line, 1, 0, 0}});
}

/// pip options whose value is the next word (`--no-binary flash-attn`, `-t dir`, `--config-settings k=v`).
bool pip_option_takes_value(std::string_view word) {
  for (std::string_view option : {"--requirement",
                                  "--constraint",
                                  "-e",
                                  "--editable",
                                  "--no-binary",
                                  "--only-binary",
                                  "-t",
                                  "--target",
                                  "--prefix",
                                  "--root",
                                  "--src",
                                  "--upgrade-strategy",
                                  "-C",
                                  "--config-settings",
                                  "--global-option",
                                  "--platform",
                                  "--python-version",
                                  "--implementation",
                                  "--abi",
                                  "--report",
                                  "--log",
                                  "--cache-dir",
                                  "--proxy",
                                  "--retries",
                                  "--timeout",
                                  "--exists-action",
                                  "--trusted-host",
                                  "--cert",
                                  "--client-cert",
                                  "--progress-bar"}) {
    if (word == option) return true;
  }
  return false;
}

bool is_conda_tool(std::string_view word) {
  return word == "conda" || word == "mamba" || word == "micromamba" || ends_with(word, "/conda") ||
         ends_with(word, "/mamba");
}

/// The requirement words after each `pip install` and `conda install` (options and flags skipped), as
/// dependencies of `section` ("docker-pip", "shell-pip"; a conda install's are `conda_section`), plus
/// the package indexes pip installs from.
void pip_words(std::string_view rest, const LineMap& lines, const std::string& section,
               const std::string& conda_section, std::vector<DependencyFact>& out) {
  const std::vector<std::string_view> words = words_of(rest);
  bool installing = false;
  bool conda = false;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string_view word = unquote(words[i]);
    if (word == "&&" || word == "||" || word == ";" || word == "\\") {
      installing = false;
      continue;
    }
    if (word == "install" && i > 0) {
      const std::string_view tool = unquote(words[i - 1]);
      conda = is_conda_tool(tool);
      if (conda || ends_with(tool, "pip") || tool == "pip3") {
        installing = true;
        continue;
      }
    }
    if (!installing || word.empty()) continue;
    if (word.front() == '-') {
      const std::size_t eq = word.find('=');
      if (!conda && eq != std::string_view::npos && is_index_option(word.substr(0, eq))) {
        index_option(word.substr(0, eq), words[i].substr(words[i].find('=') + 1), lines, out);
        continue;
      }
      // conda: `-c nvidia`, `-n env`, `-p prefix`, `--file spec.txt` take a value; pip: `-r`, `-c`, indexes.
      const bool takes_value =
          conda ? (eq == std::string_view::npos &&
                   (word == "-c" || word == "--channel" || word == "-n" || word == "--name" || word == "-p" ||
                    word == "--prefix" || word == "--file"))
                : (eq == std::string_view::npos &&
                   (word == "-r" || word == "-c" || is_index_option(word) || pip_option_takes_value(word)));
      if (!conda && is_index_option(word) && i + 1 < words.size()) index_option(word, words[i + 1], lines, out);
      if (takes_value) ++i;
      continue;
    }
    if (word.find('$') != std::string_view::npos || word.front() == '.' || word.front() == '/') continue;
    // `nvidia::cuda-compiler` names its channel; `pytorch-cuda=12.1` pins a version conda's way.
    std::string_view package = word.substr(word.find("::") == std::string_view::npos ? 0 : word.find("::") + 2);
    if (auto fact = make_dependency(package, conda ? conda_section : section, lines.line_of(words[i])))
      out.push_back(std::move(*fact));
  }
}

/// ENV NAME=value ... | ENV NAME value | ARG NAME[=default]
void env_line(std::string_view rest, std::uint32_t line, std::vector<DependencyFact>& out) {
  const std::vector<std::string_view> words = words_of(rest);
  if (words.empty()) return;
  if (words[0].find('=') == std::string_view::npos) {  // legacy `ENV NAME value`
    const std::size_t value_at = rest.find(words[0]) + words[0].size();
    out.push_back(DependencyFact{FactString(words[0]), FactString(trim(rest.substr(value_at))), "docker-env",
                                 Span{line, 1, line, 1, 0, 0}});
    return;
  }
  for (std::string_view word : words) {
    const std::size_t eq = word.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    out.push_back(DependencyFact{FactString(word.substr(0, eq)), FactString(unquote(word.substr(eq + 1))), "docker-env",
                                 Span{line, 1, line, 1, 0, 0}});
  }
}

void instruction(std::string_view logical, const LineMap& lines, std::vector<DependencyFact>& out) {
  const std::uint32_t line = lines.first_line;
  logical = trim(logical);
  if (logical.empty() || logical.front() == '#') return;
  const std::size_t space = logical.find_first_of(" \t");
  if (space == std::string_view::npos) return;
  const std::string keyword = to_lower(logical.substr(0, space));
  const std::string_view rest = trim(logical.substr(space));
  if (keyword == "from") from_line(rest, line, out);
  if (keyword == "run") pip_words(rest, lines, "docker-pip", "docker-conda", out);
  if (keyword == "env" || keyword == "arg") env_line(rest, line, out);
}

/// Joins backslash-continued lines (comment lines inside a continuation are dropped) and hands each
/// logical line, with where its physical lines start, to `handle`.
template <class Handle>
void for_each_logical_line(std::string_view text, Handle handle) {
  std::string logical;
  std::vector<std::pair<std::size_t, std::uint32_t>> breaks;
  std::uint32_t first_line = 0;
  const auto flush = [&] {
    handle(LineMap{logical, first_line, &breaks});
    logical.clear();
    breaks.clear();
  };
  for_each_line(text, [&](std::string_view line, std::uint32_t line_number) {
    if (logical.empty()) first_line = line_number;
    const std::string_view body = trim(line);
    if (!body.empty() && body.front() == '#' && !logical.empty()) return;  // comments inside continuations
    if (!logical.empty()) breaks.emplace_back(logical.size(), line_number);
    if (!body.empty() && body.back() == '\\' && logical.size() < k_max_logical_line) {
      logical.append(body.substr(0, body.size() - 1)).push_back(' ');
      return;
    }
    logical.append(body);
    flush();
  });
  if (!logical.empty()) flush();
}

}  // namespace

std::vector<DependencyFact> read_dockerfile(std::string_view text) {
  std::vector<DependencyFact> out;
  for_each_logical_line(text, [&](const LineMap& lines) { instruction(lines.logical, lines, out); });
  return out;
}

std::vector<DependencyFact> read_shell_script(std::string_view text) {
  std::vector<DependencyFact> out;
  for_each_logical_line(text, [&](const LineMap& lines) {
    const std::string_view body = trim(lines.logical);
    if (body.empty() || body.front() == '#' || body.find("install") == std::string_view::npos) return;
    pip_words(body, lines, "shell-pip", "shell-conda", out);
  });
  return out;
}

namespace {

bool launches_training(std::string_view command) {
  const std::string_view name =
      command.substr(command.rfind('/') == std::string_view::npos ? 0 : command.rfind('/') + 1);
  return starts_with(name, "python") || name == "torchrun" || name == "deepspeed" || name == "accelerate";
}

// 1-based column of `word` on its physical line (the logical line joins continuations, so count back to
// the last line start in the original text).
std::uint32_t column_of(std::string_view text, std::string_view word, std::uint32_t line) {
  std::size_t start = 0;
  for (std::uint32_t l = 1; l < line && start < text.size(); ++l) {
    const std::size_t next = text.find('\n', start);
    if (next == std::string_view::npos) return 1;
    start = next + 1;
  }
  const std::size_t end = std::min(text.find('\n', start), text.size());
  const std::size_t at = text.substr(start, end - start).find(word);
  return at == std::string_view::npos ? 1 : static_cast<std::uint32_t>(at + 1);
}

}  // namespace

namespace {

// Each launch line (python/torchrun/deepspeed/accelerate, after `VAR=1` prefixes or a wrapper such as `ray job
// submit ... -- python3 -m pkg.train`, `srun`, `nohup`): its words, the launcher word's index and the script it
// runs (the first `*.py` word, or the module after `-m`; empty when neither is written).
template <class Handle>
void for_each_launch(std::string_view text, Handle handle) {
  for_each_logical_line(text, [&](const LineMap& lines) {
    const std::string_view body = trim(lines.logical);
    if (body.empty() || body.front() == '#') return;
    const std::vector<std::string_view> words = words_of(body);
    if (unquote(words.front()) == "echo" || unquote(words.front()) == "printf") return;
    std::size_t i = 0;
    while (i < words.size() && !launches_training(unquote(words[i]))) ++i;
    if (i >= words.size()) return;
    std::string program;
    for (std::size_t j = i + 1; j < words.size() && program.empty(); ++j) {
      const std::string_view word = unquote(words[j]);
      if (word == "&&" || word == "||" || word == ";" || word == "|") break;
      if (ends_with(word, ".py")) program = std::string(word);
      if (word == "-m" && j + 1 < words.size()) program = std::string(unquote(words[j + 1]));
    }
    handle(lines, words, i, program);
  });
}

}  // namespace

std::vector<FactString> read_launched_programs(std::string_view text) {
  std::vector<FactString> out;
  for_each_launch(text,
                  [&](const LineMap&, const std::vector<std::string_view>&, std::size_t, const std::string& program) {
                    if (!program.empty() && out.size() < k_max_settings) out.emplace_back(program);
                  });
  return out;
}

namespace {

// `MODEL_TYPE="x070"` / `export MODEL_TYPE=x070` alone on a line: a shell variable a later launch line passes
// (`--my_testing $MODEL_TYPE`). Nothing for anything else.
std::optional<std::pair<std::string_view, std::string_view>> shell_assignment(std::string_view body) {
  if (starts_with(body, "export ")) body = trim(body.substr(7));
  const auto eq = body.find('=');
  if (eq == 0 || eq == std::string_view::npos) return std::nullopt;
  const std::string_view name = body.substr(0, eq);
  for (const char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return std::nullopt;
  }
  std::string_view value = body.substr(eq + 1);
  if (const auto comment = value.find(" #"); comment != std::string_view::npos) value = trim(value.substr(0, comment));
  if (words_of(value).size() != 1 || value.find_first_of("$`(") != std::string_view::npos) return std::nullopt;
  return std::pair{name, unquote(value)};
}

// `$MODEL_TYPE` / `${MODEL_TYPE}` as a whole word: the variable's name, else empty.
std::string_view shell_reference(std::string_view word) {
  if (!starts_with(word, "$") || word.size() < 2) return {};
  word.remove_prefix(1);
  if (starts_with(word, "{") && ends_with(word, "}")) word = word.substr(1, word.size() - 2);
  for (const char c : word) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return {};
  }
  return word;
}

}  // namespace

std::vector<SettingFact> read_launch_flags(std::string_view text) {
  std::vector<SettingFact> out;
  // The values the script assigns its variables (line, name, value), in order: a launch line's `$NAME` takes the
  // last one above it.
  std::vector<std::tuple<std::uint32_t, std::string, std::string>> assigned;
  for_each_logical_line(text, [&](const LineMap& lines) {
    if (assigned.size() >= k_max_settings) return;
    if (const auto found = shell_assignment(trim(lines.logical)))
      assigned.emplace_back(lines.first_line, std::string(found->first), std::string(found->second));
  });
  const auto resolve = [&](std::string_view word, std::uint32_t line) -> std::string {
    const std::string_view name = shell_reference(word);
    if (name.empty()) return std::string(word);
    for (auto it = assigned.rbegin(); it != assigned.rend(); ++it) {
      if (std::get<0>(*it) < line && std::get<1>(*it) == name) return std::get<2>(*it);
    }
    return std::string(word);
  };
  for_each_launch(text, [&](const LineMap& lines, const std::vector<std::string_view>& words, std::size_t i,
                            const std::string& program) {
    if (out.size() >= k_max_settings) return;
    for (++i; i < words.size() && out.size() < k_max_settings; ++i) {
      const std::string_view word = unquote(words[i]);
      if (word == "&&" || word == "||" || word == ";" || word == "|" || word == ">" || word == "2>&1") break;
      if (!starts_with(word, "--") || word.size() < 3) continue;
      std::string_view key = word.substr(2);
      std::string value = "True";
      if (const std::size_t eq = key.find('='); eq != std::string_view::npos) {
        value = resolve(unquote(key.substr(eq + 1)), lines.first_line);
        key = key.substr(0, eq);
      } else if (i + 1 < words.size() && !starts_with(unquote(words[i + 1]), "-")) {
        value = resolve(unquote(words[++i]), lines.first_line);
      }
      if (key.empty()) continue;
      const std::uint32_t line = lines.line_of(words[i]);
      const std::uint32_t flag_line = lines.line_of(word);
      SettingFact fact;
      fact.key = FactString(key);
      fact.value = FactString(value);
      fact.program = FactString(program);
      fact.at.line = fact.at.end_line = flag_line;
      fact.at.column = column_of(text, word, flag_line);
      fact.at.end_column =
          line == flag_line ? fact.at.column + static_cast<std::uint32_t>(word.size()) : fact.at.column;
      out.push_back(std::move(fact));
    }
  });
  return out;
}

}  // namespace tr2audit::facts
