// Tests for facts::extract_dependencies over requirements.txt, pyproject.toml and setup.cfg.
#include <catch2/catch.hpp>

#include "tr2audit/facts/facts.hpp"

using tr2audit::discover::FileKind;
using tr2audit::facts::DependencyFact;
using tr2audit::facts::extract_dependencies;
using tr2audit::facts::normalize_distribution_name;

namespace {

/// "name|section|line" per fact, for compact comparisons.
std::vector<std::string> summary(const std::vector<DependencyFact>& facts) {
  std::vector<std::string> out;
  for (const DependencyFact& fact : facts) {
    out.push_back(fact.name + "|" + fact.section + "|" + std::to_string(fact.at.line));
  }
  return out;
}

}  // namespace

TEST_CASE("facts::normalize_distribution_name follows PEP 503", "[facts][dependencies]") {
  CHECK(normalize_distribution_name("Flash_Attn") == "flash-attn");
  CHECK(normalize_distribution_name("flash-attn") == "flash-attn");
  CHECK(normalize_distribution_name("zope.interface") == "zope-interface");
  CHECK(normalize_distribution_name("Foo__Bar-.-baz") == "foo-bar-baz");
  CHECK(normalize_distribution_name("torch") == "torch");
  CHECK(normalize_distribution_name("NVIDIA-CUDNN-CU12") == "nvidia-cudnn-cu12");
}

TEST_CASE("facts::extract_dependencies reads a realistic requirements.txt", "[facts][dependencies]") {
  const std::string text =
      "# training stack\n"                                                                       // 1
      "--extra-index-url https://download.pytorch.org/whl/cu121\n"                               // 2
      "torch==2.3.0 --extra-index-url https://download.pytorch.org/whl/cu121\n"                  // 3
      "flash-attn>=2.5.8  # needs CUDA\n"                                                        // 4
      "\n"                                                                                       // 5
      "-r requirements-base.txt\n"                                                               // 6
      "-c constraints.txt\n"                                                                     // 7
      "-e git+https://github.com/NVIDIA/apex.git@23.08#egg=apex\n"                               // 8
      "xformers[triton]==0.0.26 ; platform_system == \"Linux\" and python_version < \"3.12\"\n"  // 9
      "Triton_Nightly ; sys_platform == 'linux'\r\n"                                             // 10
      "deepspeed @ git+https://github.com/microsoft/DeepSpeed.git@v0.14.0\n"                     // 11
      "https://github.com/Dao-AILab/flash-attention/releases/download/v2.5.8/"
      "flash_attn-2.5.8+cu122torch2.3cxx11abiFALSE-cp310-cp310-linux_x86_64.whl\n"  // 12
      "bitsandbytes \\\n"                                                           // 13
      "    >=0.43\n"                                                                // 14
      "-e .\n"                                                                      // 15
      "./third_party/local_pkg\n"                                                   // 16
      "numpy>=1.24 --hash=sha256:abc123\n"                                          // 17
      "--index-url https://pypi.org/simple\n"                                       // 18
      "git+https://github.com/huggingface/transformers.git\n";                      // 19
  std::vector<DependencyFact> facts = extract_dependencies(FileKind::requirements, text);
  // pip's index options are facts of their own (the URL, lower case), on their line.
  std::vector<std::string> indexes;
  for (const DependencyFact& fact : facts) {
    if (fact.section == "package-index") indexes.push_back(fact.name + "|" + std::to_string(fact.at.line));
  }
  CHECK(indexes == std::vector<std::string>{"https://download.pytorch.org/whl/cu121|2",
                                            "https://download.pytorch.org/whl/cu121|3", "https://pypi.org/simple|18"});
  std::erase_if(facts, [](const DependencyFact& fact) { return fact.section == "package-index"; });
  CHECK(summary(facts) == std::vector<std::string>{
                              "torch|requirements|3",
                              "flash-attn|requirements|4",
                              "apex|requirements|8",
                              "xformers|requirements|9",
                              "triton-nightly|requirements|10",
                              "deepspeed|requirements|11",
                              "flash-attn|requirements|12",
                              "bitsandbytes|requirements|13",
                              "numpy|requirements|17",
                              "transformers|requirements|19",
                          });
  REQUIRE(facts.size() == 10);
  CHECK(facts[0].spec == "torch==2.3.0");
  CHECK(facts[1].spec == "flash-attn>=2.5.8");
  CHECK(facts[2].spec == "-e git+https://github.com/NVIDIA/apex.git@23.08#egg=apex");
  CHECK(facts[3].spec == "xformers[triton]==0.0.26 ; platform_system == \"Linux\" and python_version < \"3.12\"");
  CHECK(facts[4].spec == "Triton_Nightly ; sys_platform == 'linux'");
  CHECK(facts[8].spec == "numpy>=1.24");
  CHECK(facts[0].at.column == 1);
  CHECK(facts[0].at.end_line == 3);
}

TEST_CASE("facts::extract_dependencies reads PEP 621 pyproject.toml", "[facts][dependencies]") {
  const std::string text = R"([build-system]
requires = ["setuptools>=68", "wheel", "torch>=2.1"]
build-backend = "setuptools.build_meta"

[project]
name = "llm-trainer"
version = "0.3.0"
description = "Train [big] models = fast"  # brackets in a string are not a table
dependencies = [
    "torch>=2.1",
    'transformers[torch]>=4.40',  # literal string
    "flash-attn>=2.5; platform_machine == 'x86_64'",

    # a comment inside the array
    "bitsandbytes",
]
keywords = ["cuda", "training"]

[project.optional-dependencies]
gpu = ["apex", "xformers==0.0.26"]
dev = [
  "pytest>=8",
]

[project.scripts]
train = "llm_trainer.cli:main"

[tool.ruff]
select = ["E", "F"]
)";
  const std::vector<DependencyFact> facts = extract_dependencies(FileKind::pyproject, text);
  CHECK(summary(facts) == std::vector<std::string>{
                              "setuptools|build-system.requires|2",
                              "wheel|build-system.requires|2",
                              "torch|build-system.requires|2",
                              "torch|dependencies|10",
                              "transformers|dependencies|11",
                              "flash-attn|dependencies|12",
                              "bitsandbytes|dependencies|15",
                              "apex|optional-dependencies.gpu|20",
                              "xformers|optional-dependencies.gpu|20",
                              "pytest|optional-dependencies.dev|22",
                          });
  REQUIRE(facts.size() == 10);
  CHECK(facts[5].spec == "flash-attn>=2.5; platform_machine == 'x86_64'");
  CHECK(facts[4].spec == "transformers[torch]>=4.40");
}

TEST_CASE("facts::extract_dependencies reads Poetry and dependency groups", "[facts][dependencies]") {
  const std::string text = R"([tool.poetry]
name = "diffusion-lab"

[tool.poetry.dependencies]
python = "^3.10"
torch = { version = "2.3.0", source = "pytorch-cu121" }
flash-attn = "^2.5"
"Triton" = ">=2.3"
accelerate = [
  { version = "^0.30", python = ">=3.10" },
]

[tool.poetry.group.dev.dependencies]
pytest = "^8.0"

[tool.poetry.dependencies.xformers]
version = "^0.0.26"
optional = true

[[tool.poetry.source]]
name = "pytorch-cu121"
url = "https://download.pytorch.org/whl/cu121"

[dependency-groups]
lint = ["ruff>=0.4", {include-group = "typing"}]
)";
  const std::vector<DependencyFact> facts = extract_dependencies(FileKind::pyproject, text);
  CHECK(summary(facts) == std::vector<std::string>{
                              "torch|tool.poetry.dependencies|6",
                              "flash-attn|tool.poetry.dependencies|7",
                              "triton|tool.poetry.dependencies|8",
                              "accelerate|tool.poetry.dependencies|9",
                              "pytest|tool.poetry.group.dev.dependencies|14",
                              "xformers|tool.poetry.dependencies|16",
                              "ruff|dependency-groups.lint|25",
                          });
  REQUIRE(facts.size() == 7);
  CHECK(facts[1].spec == "flash-attn = \"^2.5\"");
  CHECK(facts[0].spec == "torch = { version = \"2.3.0\", source = \"pytorch-cu121\" }");
}

TEST_CASE("facts::extract_dependencies reads the folders setuptools installs packages from", "[facts][dependencies]") {
  const std::string inline_table = R"([project]
name = "llms-from-scratch"
dependencies = ["torch>=2.2"]

[tool.setuptools]
package-dir = {"" = "pkg"}

[tool.setuptools.packages.find]
where = ["pkg", "./extras/"]
)";
  CHECK(summary(extract_dependencies(FileKind::pyproject, inline_table)) ==
        std::vector<std::string>{"torch|dependencies|3", "pkg|package-root|6", "pkg|package-root|9",
                                 "extras|package-root|9"});
  const std::string table = R"([tool.setuptools.package-dir]
"" = "lib"
"other" = "vendor/other"
)";
  CHECK(summary(extract_dependencies(FileKind::pyproject, table)) == std::vector<std::string>{"lib|package-root|2"});
  // A parent folder or the project's own folder is no package root.
  const std::string outside = R"([tool.setuptools.packages.find]
where = ["..", "."]
)";
  CHECK(extract_dependencies(FileKind::pyproject, outside).empty());
}

TEST_CASE("facts::extract_dependencies reads setup.cfg", "[facts][dependencies]") {
  const std::string text =
      "[metadata]\n"                                     // 1
      "name = fastattn\n"                                // 2
      "\n"                                               // 3
      "[options]\n"                                      // 4
      "packages = find:\n"                               // 5
      "install_requires =\n"                             // 6
      "    torch>=2.0\n"                                 // 7
      "    # flash attention kernels\n"                  // 8
      "    flash_attn>=2.0; platform_system=='Linux'\n"  // 9
      "\n"                                               // 10
      "    einops\n"                                     // 11
      "python_requires = >=3.9\n"                        // 12
      "setup_requires = ninja; packaging\n"              // 13
      "\n"                                               // 14
      "[options.extras_require]\n"                       // 15
      "gpu =\n"                                          // 16
      "    apex\n"                                       // 17
      "    triton==2.3.0\n"                              // 18
      "test = pytest; python_version>='3.9'\n"           // 19
      "\n"                                               // 20
      "[flake8]\n"                                       // 21
      "install_requires = notadep\n";                    // 22
  const std::vector<DependencyFact> facts = extract_dependencies(FileKind::setup_cfg, text);
  CHECK(summary(facts) == std::vector<std::string>{
                              "torch|install_requires|7",
                              "flash-attn|install_requires|9",
                              "einops|install_requires|11",
                              "ninja|setup_requires|13",
                              "packaging|setup_requires|13",
                              "apex|extras_require.gpu|17",
                              "triton|extras_require.gpu|18",
                              "pytest|extras_require.test|19",
                          });
  REQUIRE(facts.size() == 8);
  CHECK(facts[1].spec == "flash_attn>=2.0; platform_system=='Linux'");
  CHECK(facts[7].spec == "pytest; python_version>='3.9'");
}

TEST_CASE("facts::extract_dependencies reads one requirement string and ignores Python files",
          "[facts][dependencies]") {
  const auto one = extract_dependencies(FileKind::requirements, "Flash_Attn>=2.5.6");
  REQUIRE(one.size() == 1);
  CHECK(one[0].name == "flash-attn");
  CHECK(one[0].spec == "Flash_Attn>=2.5.6");
  CHECK(extract_dependencies(FileKind::python, "install_requires = ['torch']").empty());
  CHECK(extract_dependencies(FileKind::requirements, "").empty());
  CHECK(extract_dependencies(FileKind::pyproject, "[project\ndependencies = [\"torch\"").empty());
}

TEST_CASE("facts::extract_dependencies reads a conda environment's packages and its pip list", "[facts]") {
  const std::string text =
      "name: difftrain\n"                            // 1
      "channels: [pytorch, nvidia]\n"                // 2
      "dependencies:\n"                              // 3
      "  - python >= 3.10\n"                         // 4
      "  - pytorch-cuda=11.7\n"                      // 5
      "  - nvidia::cuda-toolkit=12.1\n"              // 6
      "  - _libgcc_mutex=0.1=main\n"                 // 7
      "  - pip:\n"                                   // 8
      "    - flash-attn==2.5.7\n"                    // 9
      "    - git+https://github.com/org/apex.git\n"  // 10
      "    - -e .\n";                                // 11
  const std::vector<DependencyFact> facts = extract_dependencies(FileKind::conda_env, text);
  CHECK(summary(facts) == std::vector<std::string>{
                              "python|conda|4",
                              "pytorch-cuda|conda|5",
                              "cuda-toolkit|conda|6",
                              "flash-attn|conda-pip|9",
                              "apex|conda-pip|10",
                          });
  REQUIRE(facts.size() == 5);
  CHECK(facts[1].spec == "pytorch-cuda=11.7");
  // Not a map, no `dependencies:` list, or not YAML at all: nothing.
  CHECK(extract_dependencies(FileKind::conda_env, "- a\n- b\n").empty());
  CHECK(extract_dependencies(FileKind::conda_env, "name: x\n").empty());
  CHECK(extract_dependencies(FileKind::conda_env, "dependencies: [\n").empty());
}

TEST_CASE("tr2audit::facts::looks_like_conda_environment tells a conda environment by its top-level keys", "[facts]") {
  CHECK(tr2audit::facts::looks_like_conda_environment(
      "name: mdlm\nchannels:\n  - pytorch\ndependencies:\n  - python=3.9\n"));
  CHECK_FALSE(tr2audit::facts::looks_like_conda_environment("dependencies:\n  - a\n"));  // no channels: a recipe's key
  CHECK_FALSE(tr2audit::facts::looks_like_conda_environment("model:\n  channels: 3\n  dependencies: []\n"));
}
