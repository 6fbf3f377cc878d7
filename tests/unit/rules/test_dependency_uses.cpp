#include <catch2/catch.hpp>

#include "rules_test_support.hpp"
#include "tr2audit/rules/dependency_uses.hpp"
#include "tr2audit/rules/rule_set.hpp"

using namespace tr2audit;
using namespace tr2audit::rules;

namespace {

const std::string k_head =
    "title: t\ncategory: cuda-library\nconfidence: medium\nmessage: m\nwhy: w\nfix: f\nsources: "
    "[https://example.org]\n";

/// The rules of (file under rules/, YAML text) pairs; each must load.
RuleSet rules_of(const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<Problem> problems;
  std::vector<Rule> rules;
  for (const auto& [file, text] : files) {
    auto rule = load_rule_text(text, std::filesystem::path("rules") / file, problems);
    REQUIRE(problems.empty());
    rules.push_back(std::move(*rule));
  }
  return RuleSet(std::move(rules));
}

RuleSet rule_set() {
  return rules_of(
      {{"cuda-library/cuda-only-dependency.yaml",
        "id: cuda-library.cuda-only-dependency\nseverity: high\nweighed_by_use: true\n" + k_head +
            "match:\n  dependency: [flash-attn, bitsandbytes, pynvml, nv-grouped-gemm]\n"},
       {"cuda-library/bitsandbytes-import.yaml", "id: cuda-library.bitsandbytes-import\nseverity: high\n" + k_head +
                                                     "match:\n  import: [bitsandbytes, \"bitsandbytes.*\"]\n"},
       {"cuda-library/flash-attention-2-implementation.yaml",
        "id: cuda-library.flash-attention-2-implementation\nseverity: medium\nlibrary: [flash-attn]\n" + k_head +
            "match:\n  call_text: [\"*\"]\n  keyword:\n    attn_implementation: [flash_attention_2]\n"}});
}

Finding finding(std::string rule, std::string path, std::uint32_t line, Severity severity, std::string subject) {
  Finding f;
  f.rule_id = std::move(rule);
  f.category = Category::cuda_library;
  f.path = std::move(path);
  f.at.line = line;
  f.severity = severity;
  f.subject = std::move(subject);
  f.message = "m";
  return f;
}

}  // namespace

TEST_CASE("rules::modules_of_distribution tries each run of the name's words", "[rules]") {
  const auto has = [](const std::vector<std::string>& modules, const std::string& m) {
    return std::find(modules.begin(), modules.end(), m) != modules.end();
  };
  CHECK(has(modules_of_distribution("flash-attn"), "flash_attn"));
  CHECK(has(modules_of_distribution("nv-grouped-gemm"), "grouped_gemm"));
  CHECK(has(modules_of_distribution("nvidia-cutlass-dsl"), "cutlass"));
  CHECK(has(modules_of_distribution("cupy-cuda12x"), "cupy"));
  CHECK_FALSE(has(modules_of_distribution("nvidia-cutlass-dsl"), "nvidia"));  // a vendor, not a module
  CHECK_FALSE(has(modules_of_distribution("cupy-cuda12x"), "cuda12x"));
}

TEST_CASE("rules::weigh_dependencies_by_use lowers a pin to its strongest use, never raises it", "[rules]") {
  const RuleSet rules = rule_set();
  std::vector<Finding> findings{
      finding("cuda-library.cuda-only-dependency", "requirements.txt", 3, Severity::high, "bitsandbytes"),
      finding("cuda-library.cuda-only-dependency", "requirements.txt", 4, Severity::high, "flash-attn"),
      finding("cuda-library.cuda-only-dependency", "requirements.txt", 5, Severity::high, "pynvml"),
      finding("cuda-library.cuda-only-dependency", "requirements.txt", 6, Severity::high, "nv-grouped-gemm"),
      finding("cuda-library.cuda-only-dependency", "examples/sft/requirements.txt", 2, Severity::high, "flash-attn"),
      finding("cuda-library.bitsandbytes-import", "train.py", 20, Severity::low, "bitsandbytes.nn"),
      finding("cuda-library.flash-attention-2-implementation", "train.py", 30, Severity::medium, "transformers.X"),
  };
  const std::vector<CodeFile> code{{"train.py", {"torch", "bitsandbytes", "grouped_gemm"}},
                                   {"examples/sft/sft.py", {"trl"}}};
  weigh_dependencies_by_use(findings, rules, code);
  CHECK(findings[0].severity == Severity::low);  // its only use is opt-in (low)
  CHECK(findings[0].message == "m (its strongest use in the repo's code is low: train.py:20)");
  CHECK(findings[1].severity == Severity::medium);  // configured through attn_implementation (library:)
  CHECK(findings[2].severity == Severity::low);     // nothing imports pynvml
  CHECK(findings[2].message == "m (nothing in the repo's code imports, calls or configures it: an install pin only)");
  CHECK(findings[3].severity == Severity::high);  // imported where no rule reports it: the pin stands
  CHECK(findings[4].severity == Severity::low);   // the example's own code never uses flash-attn
  CHECK(findings[4].message.find("the code in `examples/sft/`") != std::string::npos);
  CHECK(findings[5].severity == Severity::low);  // uses are untouched
}

TEST_CASE("rules::weigh_dependencies_by_use keeps the pin of a package the repo ships", "[rules]") {
  const RuleSet rules = rule_set();
  std::vector<Finding> findings{
      finding("cuda-library.cuda-only-dependency", "training/Dockerfile", 88, Severity::high, "flash-attn")};
  weigh_dependencies_by_use(findings, rules, {{"flash_attn/__init__.py", {"torch"}}, {"training/run.py", {"torch"}}});
  CHECK(findings[0].severity == Severity::high);
}

TEST_CASE("rules::weigh_dependencies_by_use: a module inside a package does not ship a distribution's name",
          "[rules]") {
  const RuleSet rules = rule_set();
  std::vector<Finding> findings{
      finding("cuda-library.cuda-only-dependency", "requirements/flash-attn.txt", 1, Severity::high, "flash-attn"),
      finding("cuda-library.flash-attention-2-implementation", "src/app/train.py", 9, Severity::low, "transformers.X")};
  // `app.plugins.flash_attn` is not `flash_attn`: the pin is weighed by its use.
  weigh_dependencies_by_use(findings, rules,
                            {{"src/app/__init__.py", {}},
                             {"src/app/plugins/__init__.py", {}},
                             {"src/app/plugins/flash_attn.py", {"torch"}},
                             {"src/app/train.py", {"torch"}}});
  CHECK(findings[0].severity == Severity::low);
  // A top-level module beside the package (a folder that is no package) does ship it.
  findings[0].severity = Severity::high;
  weigh_dependencies_by_use(findings, rules, {{"src/app/__init__.py", {}}, {"src/flash_attn.py", {"torch"}}});
  CHECK(findings[0].severity == Severity::high);
}

TEST_CASE("rules::weigh_imports_by_use: an import whose uses in its file are all low is a one-line fix", "[rules]") {
  const RuleSet set =
      rules_of({{"cuda-library/flash-attn-import.yaml",
                 "id: cuda-library.flash-attn-import\nseverity: high\nweighed_by_use: "
                 "true\n" +
                     k_head + "match:\n  import: [flash_attn, \"flash_attn.*\"]\n"},
                {"cuda-library/flash-attn-call.yaml", "id: cuda-library.flash-attn-call\nseverity: high\n" + k_head +
                                                          "match:\n  call: [\"flash_attn.*\"]\n"}});
  std::vector<Finding> findings{
      // patch.py: the import runs at load, its only call is opt-in (low).
      finding("cuda-library.flash-attn-import", "patch.py", 9, Severity::high, "flash_attn.flash_attn_func"),
      finding("cuda-library.flash-attn-call", "patch.py", 71, Severity::low, "flash_attn.flash_attn_func"),
      // model.py: a use on the path keeps the import high.
      finding("cuda-library.flash-attn-import", "model.py", 3, Severity::high, "flash_attn.flash_attn_func"),
      finding("cuda-library.flash-attn-call", "model.py", 40, Severity::high, "flash_attn.flash_attn_func"),
      finding("cuda-library.flash-attn-call", "model.py", 41, Severity::low, "flash_attn.flash_attn_func"),
      // utils.py: no use found in the file says nothing (another file may use what it imports).
      finding("cuda-library.flash-attn-import", "utils.py", 1, Severity::high, "flash_attn.bert_padding.pad_input"),
  };
  weigh_imports_by_use(findings, set);
  CHECK(findings[0].severity == Severity::medium);
  CHECK(findings[0].message.find("its strongest use in this file is low: line 71") != std::string::npos);
  CHECK(findings[1].severity == Severity::low);  // uses are untouched
  CHECK(findings[2].severity == Severity::high);
  CHECK(findings[5].severity == Severity::high);
}

TEST_CASE("rules::weigh_imports_by_use: a medium import of a symbol that always imports weighs as its uses",
          "[rules]") {
  std::string extension_head = k_head;
  extension_head.replace(extension_head.find("cuda-library"), 12, "cuda-extension");
  const RuleSet set =
      rules_of({{"cuda-extension/cpp-extension-import.yaml",
                 "id: cuda-extension.cpp-extension-import\nseverity: medium\nweighed_by_use: true\n" + extension_head +
                     "match:\n  import: [torch.utils.cpp_extension.CUDAExtension]\n"},
                {"cuda-extension/cuda-extension-setup.yaml",
                 "id: cuda-extension.cuda-extension-setup\nseverity: blocker\n" + extension_head +
                     "match:\n  call: [torch.utils.cpp_extension.CUDAExtension]\n"},
                {"cuda-extension/triton-jit-call.yaml", "id: cuda-extension.triton-jit-call\nseverity: high\n" +
                                                            extension_head + "match:\n  call: [\"swap\"]\n"},
                {"cuda-extension/build-extension-command.yaml",
                 "id: cuda-extension.build-extension-command\nseverity: low\n" + extension_head +
                     "match:\n  call: [torch.utils.cpp_extension.BuildExtension]\n"}});
  const std::string cuda = "torch.utils.cpp_extension.CUDAExtension";
  std::vector<Finding> findings{
      // setup.py: CUDAExtension built only under a CUDA check (low): the import is low too.
      finding("cuda-extension.cpp-extension-import", "setup.py", 11, Severity::medium, cuda),
      finding("cuda-extension.cuda-extension-setup", "setup.py", 98, Severity::low, cuda),
      // gpu/setup.py: an unguarded build keeps the import at medium (never raised).
      finding("cuda-extension.cpp-extension-import", "gpu/setup.py", 3, Severity::medium, cuda),
      finding("cuda-extension.cuda-extension-setup", "gpu/setup.py", 9, Severity::blocker, cuda),
      // probe/setup.py: another symbol's low use says nothing about CUDAExtension.
      finding("cuda-extension.cpp-extension-import", "probe/setup.py", 2, Severity::medium, cuda),
      finding("cuda-extension.build-extension-command", "probe/setup.py", 20, Severity::low,
              "torch.utils.cpp_extension.BuildExtension"),
  };
  // tensormask/setup.py: a guarded build too, but the project's Python calls a CUDA-only op of what it
  // builds on the path (an extension call at high): the build matters, the import keeps medium.
  findings.push_back(finding("cuda-extension.cpp-extension-import", "tensormask/setup.py", 8, Severity::medium, cuda));
  findings.push_back(finding("cuda-extension.cuda-extension-setup", "tensormask/setup.py", 49, Severity::low, cuda));
  Finding call = finding("cuda-extension.triton-jit-call", "tensormask/layers/swap.py", 15, Severity::high, "swap");
  call.category = Category::cuda_extension;
  findings.push_back(call);
  // (A call under a nested project says nothing about the root's build: setup.py above stays low.)
  weigh_imports_by_use(findings, set);
  CHECK(findings[0].severity == Severity::low);
  CHECK(findings[0].message.find("its strongest use in this file is low: line 98") != std::string::npos);
  CHECK(findings[2].severity == Severity::medium);
  CHECK(findings[4].severity == Severity::medium);
  CHECK(findings[6].severity == Severity::medium);
}

TEST_CASE("rules::weigh_extension_builds_by_use: a nested kernel build weighs as the uses of the module it builds",
          "[rules]") {
  std::string extension_head = k_head;
  extension_head.replace(extension_head.find("cuda-library"), 12, "cuda-extension");
  const RuleSet set = rules_of({{"cuda-extension/cuda-extension-setup.yaml",
                                 "id: cuda-extension.cuda-extension-setup\nseverity: blocker\n" + extension_head +
                                     "match:\n  call: [torch.utils.cpp_extension.CUDAExtension]\n"},
                                {"cuda-extension/cuda-extension-module-import.yaml",
                                 "id: cuda-extension.cuda-extension-module-import\nseverity: high\n" + extension_head +
                                     "match:\n  import: [\"*_cuda\", \"*._C\"]\n"}});
  const auto extension = [](std::string rule, std::string path, std::uint32_t line, Severity severity,
                            std::string subject) {
    Finding f = finding(std::move(rule), std::move(path), line, severity, std::move(subject));
    f.category = Category::cuda_extension;
    return f;
  };
  const std::string cuda = "torch.utils.cpp_extension.CUDAExtension";
  std::vector<Finding> findings{
      // kernels/setup.py builds three modules: one only an opt-in path imports (low), one the forward
      // imports unguarded (high), one nothing imports.
      extension("cuda-extension.cuda-extension-setup", "kernels/setup.py", 12, Severity::blocker, cuda),
      extension("cuda-extension.cuda-extension-setup", "kernels/setup.py", 20, Severity::blocker, cuda),
      extension("cuda-extension.cuda-extension-setup", "kernels/setup.py", 28, Severity::blocker, cuda),
      extension("cuda-extension.cuda-extension-module-import", "model/softmax.py", 40, Severity::low,
                "scaled_masked_softmax_cuda"),
      extension("cuda-extension.cuda-extension-module-import", "model/softmax.py", 90, Severity::low,
                "scaled_masked_softmax_cuda.forward"),
      extension("cuda-extension.cuda-extension-module-import", "model/rope.py", 7, Severity::high, "pkg._C"),
      // A use in the build script itself says nothing.
      extension("cuda-extension.cuda-extension-module-import", "kernels/setup.py", 40, Severity::high,
                "scaled_masked_softmax_cuda"),
  };
  const std::vector<ExtensionBuild> builds{{"kernels/setup.py", 12, "scaled_masked_softmax_cuda"},
                                           {"kernels/setup.py", 20, "pkg._C"},
                                           {"kernels/setup.py", 28, "unused_cuda"}};
  weigh_extension_builds_by_use(findings, set, builds);
  CHECK(findings[0].severity == Severity::low);
  CHECK(findings[0].message.find("strongest use of `scaled_masked_softmax_cuda` is low: model/softmax.py:40") !=
        std::string::npos);
  CHECK(findings[1].severity == Severity::high);
  CHECK(findings[2].severity == Severity::blocker);
  CHECK(findings[3].severity == Severity::low);  // uses are untouched
}

TEST_CASE("rules::weigh_config_settings_by_reference: a config file nothing names is low", "[rules]") {
  const RuleSet set = rules_of({{"cuda-library/deepspeed-zero-config.yaml",
                                 "id: cuda-library.deepspeed-zero-config\nseverity: medium\nweighed_by_use: true\n" +
                                     k_head + "match:\n  setting: [zero_optimization.stage]\n  value: [\"*\"]\n"}});
  std::vector<Finding> findings{
      finding("cuda-library.deepspeed-zero-config", "playground/zero2.json", 3, Severity::medium,
              "zero_optimization.stage"),
      finding("cuda-library.deepspeed-zero-config", "configs/ds_z3.json", 11, Severity::medium,
              "zero_optimization.stage"),
      finding("cuda-library.deepspeed-zero-config", "old/z1.json", 2, Severity::medium, "zero_optimization.stage"),
  };
  // A launch flag names the first, a recipe key the second; `my_z1.json` is another file than `z1.json`.
  const std::vector<std::string> named{"./playground/zero2.json", "ds_z3.json", "configs/my_z1.json"};
  weigh_config_settings_by_reference(findings, set, named);
  CHECK(findings[0].severity == Severity::medium);
  CHECK(findings[1].severity == Severity::medium);
  CHECK(findings[2].severity == Severity::low);
  CHECK(findings[2].message.find("names `z1.json`") != std::string::npos);
}
