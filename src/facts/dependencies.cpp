// facts/dependencies: dependency facts from manifests. This file holds the entry point, PEP 503 name
// normalisation, requirement-string parsing (PEP 508 and pip's URL forms) and the requirements.txt
// reader (with the package indexes its `--index-url` options name); pyproject.toml, setup.cfg and
// Dockerfiles/shell scripts have their own readers (dependencies_toml/_cfg/_docker.cpp).
#include <cctype>

#include "facts/dependencies_internal.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::facts {
namespace {

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.';
}

/// Strips trailing name separators ("torch." -> "torch"); empty when the name does not start alphanumeric.
std::string_view clean_name(std::string_view name) {
  while (!name.empty() && (name.back() == '-' || name.back() == '_' || name.back() == '.')) name.remove_suffix(1);
  if (name.empty() || std::isalnum(static_cast<unsigned char>(name.front())) == 0) return {};
  return name;
}

/// The leading run of name characters.
std::string_view leading_name(std::string_view text) {
  std::size_t end = 0;
  while (end < text.size() && is_name_char(text[end])) ++end;
  return text.substr(0, end);
}

/// "name-1.2.3" -> "name": cuts at the first '-' followed by a digit (sdist and egg-fragment style).
std::string_view strip_version_suffix(std::string_view stem) {
  for (std::size_t i = 0; i + 1 < stem.size(); ++i) {
    if (stem[i] == '-' && std::isdigit(static_cast<unsigned char>(stem[i + 1])) != 0) return stem.substr(0, i);
  }
  return stem;
}

/// The name a URL or path names: "#egg=name", a wheel or sdist file name, or a VCS repository name.
std::string name_from_url(std::string_view url) {
  for (std::string_view marker : {std::string_view("#egg="), std::string_view("&egg=")}) {
    const std::size_t at = url.find(marker);
    if (at != std::string_view::npos) {
      std::string_view egg = url.substr(at + marker.size());
      egg = egg.substr(0, egg.find_first_of("&#[ \t"));
      return std::string(clean_name(strip_version_suffix(egg)));
    }
  }
  const bool remote = url.find("://") != std::string_view::npos || starts_with(url, "git+") ||
                      starts_with(url, "hg+") || starts_with(url, "svn+") || starts_with(url, "bzr+");
  std::string_view path = url.substr(0, url.find_first_of("?#"));
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  std::string_view file = path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1);
  if (ends_with(file, ".whl")) return std::string(clean_name(file.substr(0, file.find('-'))));
  for (std::string_view ext : {".tar.gz", ".tar.bz2", ".tar.xz", ".zip", ".tgz"}) {
    if (ends_with(file, ext))
      return std::string(clean_name(strip_version_suffix(file.substr(0, file.size() - ext.size()))));
  }
  if (!remote) return {};                 // a local folder ("-e .", "./vendor/apex"): no reliable name
  file = file.substr(0, file.find('@'));  // git+https://host/org/repo.git@v1.0
  if (ends_with(file, ".git")) file.remove_suffix(4);
  return std::string(clean_name(leading_name(file)));
}

/// Cuts pip per-requirement options (" --hash=...", " --extra-index-url ...") off a requirement line.
std::string_view strip_inline_options(std::string_view line) {
  for (std::size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '-' && (line[i - 1] == ' ' || line[i - 1] == '\t') && i + 1 < line.size() &&
        (line[i + 1] == '-' || std::isalpha(static_cast<unsigned char>(line[i + 1])) != 0)) {
      return trim(line.substr(0, i));
    }
  }
  return line;
}

/// Removes a pip comment: '#' at the start or after whitespace (so "#egg=" in URLs stays).
std::string_view strip_comment(std::string_view line) {
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) return line.substr(0, i);
  }
  return line;
}

/// One logical requirements.txt line (after comment and continuation handling) -> a fact.
std::optional<DependencyFact> requirement_line(std::string_view line, std::uint32_t line_number) {
  line = trim(strip_comment(line));
  if (line.empty()) return std::nullopt;
  if (line.front() == '-') {
    std::string_view rest;
    if (starts_with(line, "--editable")) {
      rest = line.substr(10);
    } else if (starts_with(line, "-e")) {
      rest = line.substr(2);
    } else {
      return std::nullopt;  // -r, -c, --index-url, --extra-index-url, -f, --pre, ...
    }
    rest = trim(rest);
    if (!rest.empty() && rest.front() == '=') rest = trim(rest.substr(1));
    const std::string name = name_from_url(strip_inline_options(rest));
    if (name.empty()) return std::nullopt;
    return DependencyFact{FactString(normalize_distribution_name(name)), FactString(line), "requirements",
                          Span{line_number, 1, line_number, 1, 0, 0}};
  }
  return make_dependency(strip_inline_options(line), "requirements", line_number);
}

/// `--index-url URL`, `--extra-index-url=URL`, `-f URL` on a requirements line (own line or after a
/// requirement): the package index pip installs from, as a "package-index" fact named by the URL.
void index_options(std::string_view line, std::uint32_t line_number, std::vector<DependencyFact>& out) {
  std::vector<std::string_view> words;
  for (std::string_view word : split(trim(strip_comment(line)), ' ')) {
    if (!trim(word).empty()) words.push_back(trim(word));
  }
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::string_view option = words[i], url;
    if (const std::size_t eq = option.find('='); eq != std::string_view::npos && starts_with(option, "--")) {
      url = option.substr(eq + 1);
      option = option.substr(0, eq);
    } else if (i + 1 < words.size()) {
      url = words[i + 1];
    }
    const bool index = option == "-i" || option == "--index-url" || option == "--extra-index-url" || option == "-f" ||
                       option == "--find-links";
    if (!index || url.empty() || url.find('$') != std::string_view::npos) continue;
    out.push_back(DependencyFact{FactString(to_lower(url)), FactString(std::string(option) + " " + std::string(url)),
                                 "package-index", Span{line_number, 1, line_number, 1, 0, 0}});
  }
}

}  // namespace

std::string normalize_distribution_name(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  bool in_separator = false;
  for (char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      in_separator = true;
      continue;
    }
    if (in_separator && !out.empty()) out.push_back('-');
    in_separator = false;
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

std::string requirement_name(std::string_view requirement) {
  requirement = trim(requirement);
  const std::string_view name = leading_name(requirement);
  const std::string_view after = requirement.substr(name.size());
  // A PEP 508 name is followed by nothing, whitespace, extras, a version, a marker or "@ url".
  const bool pep508 = !name.empty() && (after.empty() || std::string_view(" \t[(<>=!~;@,").find(after.front()) !=
                                                             std::string_view::npos);
  if (pep508) return std::string(clean_name(name));
  return name_from_url(requirement);
}

std::optional<DependencyFact> make_dependency(std::string_view spec, std::string section, std::uint32_t line) {
  spec = trim(spec);
  const std::string name = requirement_name(spec);
  if (name.empty()) return std::nullopt;
  return DependencyFact{FactString(normalize_distribution_name(name)), FactString(spec), FactString(section),
                        Span{line, 1, line, 1, 0, 0}};
}

std::vector<DependencyFact> read_requirements_txt(std::string_view text) {
  std::vector<DependencyFact> out;
  std::string logical;
  std::uint32_t first_line = 0;
  for_each_line(text, [&](std::string_view line, std::uint32_t line_number) {
    if (logical.empty()) first_line = line_number;
    // pip joins a line ending in a backslash with the next one (comments excepted).
    if (!line.empty() && line.back() == '\\' && strip_comment(line).size() == line.size()) {
      logical.append(line.substr(0, line.size() - 1)).push_back(' ');
      return;
    }
    logical.append(line);
    if (auto fact = requirement_line(logical, first_line)) out.push_back(std::move(*fact));
    index_options(logical, first_line, out);
    logical.clear();
  });
  // A continuation on the last line still ends the requirement.
  if (!logical.empty()) {
    if (auto fact = requirement_line(logical, first_line)) out.push_back(std::move(*fact));
    index_options(logical, first_line, out);
  }
  return out;
}

std::vector<DependencyFact> extract_dependencies(discover::FileKind kind, std::string_view text) {
  switch (kind) {
    case discover::FileKind::requirements:
      return read_requirements_txt(text);
    case discover::FileKind::pyproject:
      return read_pyproject(text);
    case discover::FileKind::setup_cfg:
      return read_setup_cfg(text);
    case discover::FileKind::dockerfile:
      return read_dockerfile(text);
    case discover::FileKind::conda_env:
      return read_conda_environment(text);
    case discover::FileKind::config:
    case discover::FileKind::python:
    case discover::FileKind::python_stub:
    case discover::FileKind::notebook:
    case discover::FileKind::cuda_source:
    case discover::FileKind::cxx_header:
      return {};
  }
  return {};
}

}  // namespace tr2audit::facts
