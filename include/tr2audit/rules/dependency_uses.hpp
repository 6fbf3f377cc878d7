// rules/dependency_uses: a CUDA-only package a manifest declares is as severe as the code that uses it.
// `bitsandbytes` in requirements.txt matters when a training run imports it; when every use is opt-in,
// guarded or off the training path, or nothing uses it, the install pin is a low finding that says so.
#pragma once
#include <string>
#include <vector>

#include "tr2audit/rules/finding.hpp"
#include "tr2audit/rules/rule_set.hpp"

namespace tr2audit::rules {

/// Lowers each finding of a `dependency` rule to the strongest finding (at least low) that uses the same
/// package in the code the manifest serves, and says which one; never raises. `python_paths` are the
/// scan's Python files: a manifest in a folder that holds Python files serves that
/// folder (an example's requirements.txt), any other manifest (the root's, a Dockerfile, a folder of
/// requirement files) the whole repo. A finding uses a package when its rule names it (`library:`) or
/// its subject is a module or call of it (`flash_attn.flash_attn_func` uses `flash-attn`).
/// A package nothing in that code imports (or configures, through a rule's `library:`) is an install pin
/// only: low. A package the code imports with no finding there keeps its severity, as does a package the
/// repo itself ships (a folder or module of that name: flash-attention's own `flash_attn`).
struct CodeFile {
  std::string path;                   ///< repo-relative
  std::vector<std::string> imported;  ///< the first segment of every module the file imports
  bool test = false;                  ///< a test file: its folders (`tests/deepspeed/`) ship no module
};
void weigh_dependencies_by_use(std::vector<Finding>& findings, const RuleSet& rules, const std::vector<CodeFile>& code);

/// Lowers each high (or blocker) finding of a weighed `import` rule to medium when the same file has
/// findings that use the imported library (their subject's first segment) and all of them are low or
/// below (opt-in, guarded or off the training path), and says so: the import alone fails where the
/// package is missing, a one-line fix (guard it, or import it where it is used). A file with no such
/// finding keeps the import's severity (the library may be used through another name or from another
/// file), and so does one with a use at medium or above (the run depends on the library). Run before
/// weigh_dependencies_by_use, whose uses include these imports.
void weigh_imports_by_use(std::vector<Finding>& findings, const RuleSet& rules);

/// A CUDA extension module a nested build script declares (`CUDAExtension(name="scaled_masked_softmax_cuda",
/// ...)` in `megatron/fused_kernels/setup.py`): where, and the module it builds.
struct ExtensionBuild {
  std::string path;  ///< repo-relative path of the setup.py
  std::uint32_t line = 0;
  std::string module;  ///< "scaled_masked_softmax_cuda", "tensormask._C"
};
/// Lowers each finding at an ExtensionBuild (a setup.py below the repo's root: a kernel package built on
/// its own, not the project's install) to the strongest finding elsewhere that uses the module it builds
/// (an import of it, a call into it), at least low, and says which one; never raises. A module nothing
/// uses keeps its build's severity (it may be loaded by a path the facts do not show). Run before
/// weigh_imports_by_use, which then weighs the script's `CUDAExtension` import by these calls.
void weigh_extension_builds_by_use(std::vector<Finding>& findings, const RuleSet& rules,
                                   const std::vector<ExtensionBuild>& builds);

/// Lowers each finding of a weighed `setting` rule (a DeepSpeed ZeRO config) to low when its config file's name
/// appears in none of `named_files`: the values of the repo's settings and launch flags and the string
/// arguments and assignments of its code (`--deepspeed playground/zero3.json`, `deepspeed: ds_z3.json`,
/// `TrainingArguments(deepspeed="ds_config.json")`), and says so.
void weigh_config_settings_by_reference(std::vector<Finding>& findings, const RuleSet& rules,
                                        const std::vector<std::string>& named_files);

/// The module names a distribution may install, as far as its name tells: the whole name and each
/// run of its words ("nv-grouped-gemm" -> grouped_gemm, gemm, ...; "nvidia-cutlass-dsl" -> cutlass, ...),
/// without the words that name a vendor, a CUDA version or a packaging flavour.
std::vector<std::string> modules_of_distribution(std::string_view distribution);

}  // namespace tr2audit::rules
