// A manifest's CUDA-only package weighed by its uses in the code (see the header).
#include "tr2audit/rules/dependency_uses.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <unordered_set>

#include "tr2audit/core/text.hpp"

namespace tr2audit::rules {
namespace {

bool is_container_file(std::string_view path) {
  const std::string_view name = path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1);
  return name.find("Dockerfile") != std::string_view::npos || name.find("dockerfile") != std::string_view::npos ||
         name == "Containerfile";
}

/// The folder whose code a manifest serves, with a trailing '/', or "" for the whole repo.
std::string scope_of(std::string_view manifest, const std::vector<CodeFile>& code) {
  const auto slash = manifest.rfind('/');
  if (slash == std::string_view::npos || is_container_file(manifest)) return {};
  std::string folder(manifest.substr(0, slash + 1));
  const bool holds_code =
      std::any_of(code.begin(), code.end(), [&](const CodeFile& file) { return starts_with(file.path, folder); });
  return holds_code ? folder : std::string();
}

/// A manifest for working on the repo rather than running it (`dev_requirements.txt`, `requirements-test.txt`,
/// `docs/requirements.txt`): a word of its path names development, tests, docs or linting.
bool development_manifest(std::string_view path) {
  const std::string lower = to_lower(path);
  std::size_t start = 0;
  for (std::size_t i = 0; i <= lower.size(); ++i) {
    if (i < lower.size() && std::isalnum(static_cast<unsigned char>(lower[i]))) continue;
    const std::string_view word = std::string_view(lower).substr(start, i - start);
    if (word == "dev" || word == "develop" || word == "development" || word == "test" || word == "tests" ||
        word == "testing" || word == "docs" || word == "doc" || word == "lint")
      return true;
    start = i + 1;
  }
  return false;
}

/// The first segment of a dotted subject, lower case ("flash_attn.bert_padding.pad_input" -> "flash_attn").
std::string top_module(std::string_view subject) {
  return to_lower(subject.substr(0, subject.find('.')));
}

bool generic_word(std::string_view word) {
  if (word == "nvidia" || word == "nv" || word == "py" || word == "python" || word == "dsl" || word == "cuda" ||
      word == "gpu" || word == "kernel" || word == "kernels" || word.size() < 3)
    return true;
  // cu11, cu118, cuda12x: a CUDA build flavour.
  const std::string_view digits = starts_with(word, "cuda") ? word.substr(4)
                                  : starts_with(word, "cu") ? word.substr(2)
                                                            : std::string_view();
  return !digits.empty() && std::isdigit(static_cast<unsigned char>(digits.front()));
}

/// The modules and packages an `import` of a top-level name can reach in the repo: a file stem or package
/// whose parent folder is no package (`flash_attn/__init__.py`, `src/flash_attn/...`, `hopper/x.py`), not
/// a module inside one (`llamafactory/plugins/vllm.py` is `llamafactory.plugins.vllm`, not `vllm`), and
/// not a folder without `__init__.py` (`benchmarks/vllm/run.py`: an installed `vllm` wins over it).
std::unordered_set<std::string> shipped_modules(const std::vector<CodeFile>& code) {
  std::unordered_set<std::string_view> packages;  // folders holding an __init__.py, without the slash
  for (const CodeFile& file : code) {
    const std::string_view path = file.path;
    const auto slash = path.rfind('/');
    if (slash != std::string_view::npos && path.substr(slash + 1) == "__init__.py")
      packages.insert(path.substr(0, slash));
  }
  std::unordered_set<std::string> out;
  for (const CodeFile& file : code) {
    if (file.test) continue;
    const std::string_view path = file.path;
    for (std::size_t start = 0; start < path.size();) {
      const auto slash = path.find('/', start);
      std::string_view segment = path.substr(start, slash == std::string_view::npos ? slash : slash - start);
      if (slash == std::string_view::npos && ends_with(segment, ".py")) segment.remove_suffix(3);
      const std::string_view parent = start == 0 ? std::string_view() : path.substr(0, start - 1);
      // A folder is a module only as a package: one without `__init__.py` (a scripts folder named `vllm/`
      // beside a benchmark) never shadows the installed distribution of that name.
      const bool module = slash == std::string_view::npos || packages.count(path.substr(0, slash)) != 0;
      if (module && (parent.empty() || !packages.count(parent))) out.insert(std::string(segment));
      if (slash == std::string_view::npos) break;
      start = slash + 1;
    }
  }
  return out;
}

/// A use's weight: a use lowered only because no entry point reaches it still says the library is used.
Severity weight(const Finding& use) {
  return use.unreached ? std::max(use.severity, Severity::medium) : use.severity;
}

/// A weighed import at medium or below names a symbol of a package that is always there
/// (`from torch.utils.cpp_extension import CUDAExtension`): importing it fails nowhere, so it weighs as
/// much as the strongest use of that very symbol in its file (detectron2's setup.py picks CUDAExtension
/// only under `torch.cuda.is_available()`, with CppExtension otherwise: low), unless Python code under the
/// file's folder calls into compiled CUDA code at medium or above (TensorMask's CUDA-only swap_align2nat:
/// what the build makes is needed on the training path, so the import keeps its severity). No use: unchanged.
void weigh_symbol_import(Finding& import, const std::vector<std::size_t>& same_file,
                         const std::vector<Finding>& findings, const RuleSet& rules) {
  const Finding* strongest = nullptr;
  for (const std::size_t i : same_file) {
    const Finding& use = findings[i];
    if (&use == &import || use.meta || use.subject != import.subject) continue;
    const Rule* use_rule = rules.find(use.rule_id);
    if (use_rule == nullptr || use_rule->subject == SubjectKind::import || use_rule->subject == SubjectKind::dependency)
      continue;
    if (strongest == nullptr || weight(use) > weight(*strongest)) strongest = &use;
  }
  if (strongest == nullptr || weight(*strongest) >= import.severity) return;
  const auto slash = std::string_view(import.path).rfind('/');
  const std::string folder = slash == std::string_view::npos ? std::string() : import.path.substr(0, slash + 1);
  // Another build under this folder (projects/TensorMask/setup.py below detectron2's) is its own project.
  std::vector<std::string_view> nested;
  for (const Finding& other : findings) {
    const std::string_view path = other.path;
    const auto cut = path.rfind('/');
    const std::string_view name = cut == std::string_view::npos ? path : path.substr(cut + 1);
    if (cut != std::string_view::npos && (name == "setup.py" || name == "pyproject.toml") &&
        path.size() > folder.size() + name.size() && starts_with(path, folder))
      nested.push_back(path.substr(0, cut + 1));
  }
  for (const Finding& use : findings) {
    if (use.meta || use.category != Category::cuda_extension || weight(use) < Severity::medium ||
        !ends_with(use.path, ".py") || !starts_with(use.path, folder) ||
        std::any_of(nested.begin(), nested.end(), [&](std::string_view n) { return starts_with(use.path, n); }))
      continue;
    const Rule* use_rule = rules.find(use.rule_id);
    if (use_rule != nullptr && (use_rule->subject == SubjectKind::call || use_rule->subject == SubjectKind::pattern))
      return;
  }
  import.severity = weight(*strongest);
  import.message += " (importing it fails nowhere, and its strongest use in this file is " +
                    std::string(to_string(strongest->severity)) + ": line " + std::to_string(strongest->at.line) +
                    "; no code here calls compiled CUDA code on the path)";
}

}  // namespace

std::vector<std::string> modules_of_distribution(std::string_view distribution) {
  std::string name = to_lower(distribution);
  std::replace_if(
      name.begin(), name.end(), [](char c) { return c == '-' || c == '.'; }, '_');
  std::vector<std::string_view> words;
  for (std::string_view rest = name; !rest.empty();) {
    const auto cut = rest.find('_');
    words.push_back(rest.substr(0, cut));
    if (cut == std::string_view::npos) break;
    rest.remove_prefix(cut + 1);
  }
  std::vector<std::string> out{name};
  for (std::size_t from = 0; from < words.size(); ++from) {
    std::string run;
    for (std::size_t to = from; to < words.size(); ++to) {
      if (to > from) run += '_';
      run += words[to];
      if (to == from && generic_word(words[to])) break;  // a run starts at a word that names the package
      if (!generic_word(words[to]) && std::find(out.begin(), out.end(), run) == out.end()) out.push_back(run);
    }
  }
  return out;
}

void weigh_imports_by_use(std::vector<Finding>& findings, const RuleSet& rules) {
  std::map<std::string_view, std::vector<std::size_t>> by_path;
  for (std::size_t i = 0; i < findings.size(); ++i) by_path[findings[i].path].push_back(i);
  for (Finding& import : findings) {
    const Rule* rule = rules.find(import.rule_id);
    if (rule == nullptr || !rule->weighed_by_use || rule->subject != SubjectKind::import || import.meta) continue;
    if (import.severity <= Severity::medium) {
      weigh_symbol_import(import, by_path[import.path], findings, rules);
      continue;
    }
    const std::string library = top_module(import.subject);
    const Finding* strongest = nullptr;
    for (const std::size_t i : by_path[import.path]) {
      const Finding& use = findings[i];
      if (&use == &import || use.meta || top_module(use.subject) != library) continue;
      const Rule* use_rule = rules.find(use.rule_id);
      if (use_rule == nullptr || use_rule->subject == SubjectKind::import ||
          use_rule->subject == SubjectKind::dependency)
        continue;
      if (strongest == nullptr || weight(use) > weight(*strongest)) strongest = &use;
    }
    // No use found here says nothing: it may be used through another name or from another file. A use
    // on the path (medium or above) makes the library a dependency of the run, and the import with it.
    if (strongest == nullptr || weight(*strongest) > Severity::low) continue;
    import.severity = Severity::medium;
    import.message += " (its strongest use in this file is " + std::string(to_string(strongest->severity)) + ": line " +
                      std::to_string(strongest->at.line) +
                      "; the import alone fails where the package is missing: guard it or import it where it "
                      "is used)";
  }
}

void weigh_dependencies_by_use(std::vector<Finding>& findings, const RuleSet& rules,
                               const std::vector<CodeFile>& code) {
  const std::unordered_set<std::string> shipped = shipped_modules(code);
  for (Finding& dependency : findings) {
    const Rule* rule = rules.find(dependency.rule_id);
    if (rule == nullptr || !rule->weighed_by_use || dependency.meta || dependency.severity <= Severity::low) continue;
    const std::vector<std::string> modules = modules_of_distribution(dependency.subject);
    const auto names_module = [&](const std::string& top) {
      return std::find(modules.begin(), modules.end(), top) != modules.end();
    };
    if (std::any_of(modules.begin(), modules.end(), [&](const std::string& m) { return shipped.count(m) > 0; }))
      continue;
    if (development_manifest(dependency.path) && !is_container_file(dependency.path)) {
      dependency.severity = Severity::low;
      dependency.message += " (a development manifest: a training run does not install it)";
      continue;
    }
    const std::string scope = scope_of(dependency.path, code);
    const Finding* strongest = nullptr;
    for (const Finding& use : findings) {
      if (use.meta || !starts_with(use.path, scope)) continue;
      const Rule* use_rule = rules.find(use.rule_id);
      if (use_rule == nullptr || use_rule->subject == SubjectKind::dependency) continue;
      if (!use_rule->library.matches(dependency.subject) && !names_module(top_module(use.subject))) continue;
      if (strongest == nullptr || weight(use) > weight(*strongest)) strongest = &use;
    }
    const std::string where = scope.empty() ? "the repo's code" : "the code in `" + scope + "`";
    if (strongest == nullptr) {
      const bool imported = std::any_of(code.begin(), code.end(), [&](const CodeFile& file) {
        return starts_with(file.path, scope) && std::any_of(file.imported.begin(), file.imported.end(), names_module);
      });
      if (imported) continue;  // used where no rule reports it: the manifest's own finding stands
      dependency.severity = Severity::low;
      dependency.message += " (nothing in " + where + " imports, calls or configures it: an install pin only)";
    } else if (weight(*strongest) < dependency.severity) {
      dependency.severity = std::max(weight(*strongest), Severity::low);
      dependency.message += " (its strongest use in " + where + " is " + std::string(to_string(weight(*strongest))) +
                            ": " + strongest->path + ":" + std::to_string(strongest->at.line) + ")";
    }
  }
}

void weigh_config_settings_by_reference(std::vector<Finding>& findings, const RuleSet& rules,
                                        const std::vector<std::string>& named_files) {
  for (Finding& setting : findings) {
    if (setting.meta || setting.severity <= Severity::low) continue;
    const Rule* rule = rules.find(setting.rule_id);
    if (rule == nullptr || !rule->weighed_by_use || rule->subject != SubjectKind::setting) continue;
    const auto slash = setting.path.rfind('/');
    const std::string_view name =
        slash == std::string::npos ? std::string_view(setting.path) : std::string_view(setting.path).substr(slash + 1);
    const bool named = std::any_of(named_files.begin(), named_files.end(), [&](const std::string& value) {
      for (auto at = value.find(name); at != std::string::npos; at = value.find(name, at + 1)) {
        const bool starts = at == 0 || value[at - 1] == '/' || value[at - 1] == '\\' || value[at - 1] == '"' ||
                            value[at - 1] == '\'' || value[at - 1] == ' ' || value[at - 1] == '=';
        if (starts) return true;
      }
      return false;
    });
    if (named) continue;
    setting.severity = Severity::low;
    setting.message += " (no script, config or code in the repo names `" + std::string(name) +
                       "`: a config file nothing here launches)";
  }
}

void weigh_extension_builds_by_use(std::vector<Finding>& findings, const RuleSet& rules,
                                   const std::vector<ExtensionBuild>& builds) {
  if (builds.empty()) return;
  const auto uses_module = [](std::string_view subject, std::string_view module) {
    if (subject == module ||
        (starts_with(subject, module) && subject.size() > module.size() && subject[module.size()] == '.'))
      return true;
    // `scaled_masked_softmax_cuda` built bare is imported bare; `pkg._C` is imported as `pkg._C` or `from pkg import
    // _C`.
    return module.find('.') == std::string_view::npos && subject.substr(0, subject.find('.')) == module;
  };
  for (Finding& build : findings) {
    if (build.meta || build.severity <= Severity::low) continue;
    const auto it = std::find_if(builds.begin(), builds.end(), [&](const ExtensionBuild& b) {
      return b.path == build.path && b.line == build.at.line;
    });
    if (it == builds.end()) continue;
    const Finding* strongest = nullptr;
    for (const Finding& use : findings) {
      if (use.meta || use.path == build.path || use.category != Category::cuda_extension ||
          !uses_module(use.subject, it->module))
        continue;
      const Rule* use_rule = rules.find(use.rule_id);
      if (use_rule == nullptr || (use_rule->subject != SubjectKind::import && use_rule->subject != SubjectKind::call))
        continue;
      if (strongest == nullptr || weight(use) > weight(*strongest)) strongest = &use;
    }
    if (strongest == nullptr || weight(*strongest) >= build.severity) continue;
    build.severity = std::max(weight(*strongest), Severity::low);
    build.message += " (a kernel package built on its own, and the strongest use of `" + it->module + "` is " +
                     std::string(to_string(weight(*strongest))) + ": " + strongest->path + ":" +
                     std::to_string(strongest->at.line) + ")";
  }
}

}  // namespace tr2audit::rules
