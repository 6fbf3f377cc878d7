// facts::extract_settings over real-looking config files (Hydra, torchtune, Lightning, JSON), the
// files that configure other tools (CI, pre-commit, docs, Kubernetes, conda: no settings), and bad
// input; and the package-index facts of Dockerfiles and shell scripts.
#include <catch2/catch.hpp>

#include "tr2audit/facts/facts.hpp"
#include "tr2audit/facts/launch_flags.hpp"

using namespace tr2audit;
using facts::extract_settings;
using facts::SettingFact;

namespace {

/// "key=value@line" per setting.
std::vector<std::string> summary(const std::vector<SettingFact>& settings) {
  std::vector<std::string> out;
  for (const SettingFact& s : settings) out.push_back(s.key + "=" + s.value + "@" + std::to_string(s.at.line));
  return out;
}

constexpr std::string_view k_hydra = R"(# @package _global_
defaults:
  - override /optimizer: adamw-apex
trainer:
  accelerator: gpu
  precision: 16
train:
  optimizer:
    _target_: apex.optimizers.FusedAdam
    lr: 6e-4
callbacks:
  - _target_: src.callbacks.SpeedMonitor
    every_n: 10
)";

}  // namespace

TEST_CASE("extract_settings: a Hydra experiment config gives key paths, values and lines", "[facts][settings]") {
  const auto settings = extract_settings("configs/experiment/owt/base.yaml", k_hydra);
  CHECK(summary(settings) == std::vector<std::string>{
                                 "defaults.override /optimizer=adamw-apex@3",
                                 "trainer.accelerator=gpu@5",
                                 "trainer.precision=16@6",
                                 "train.optimizer._target_=apex.optimizers.FusedAdam@9",
                                 "train.optimizer.lr=6e-4@10",
                                 "callbacks._target_=src.callbacks.SpeedMonitor@12",
                                 "callbacks.every_n=10@13",
                             });
  REQUIRE(settings.size() > 1);
  CHECK(settings[1].at.column == 3);
  CHECK(settings[1].at.end_column == 3 + std::string_view("accelerator: gpu").size());
}

TEST_CASE("extract_settings: JSON configs and quoted scalars", "[facts][settings]") {
  const auto settings = extract_settings("configs/ds_config.json",
                                         "{\n  \"model\": {\"load_in_8bit\": true},\n  \"device\": \"cuda:0\"\n}\n");
  CHECK(summary(settings) == std::vector<std::string>{"model.load_in_8bit=true@2", "device=cuda:0@3"});
}

TEST_CASE("extract_settings: other tools' files and non-YAML give none", "[facts][settings]") {
  const std::string_view device = "device: cuda\n";
  CHECK_FALSE(extract_settings("recipes/configs/lora.yaml", device).empty());
  for (const char* path :
       {".github/workflows/gpu.yml", ".pre-commit-config.yaml", "mkdocs.yml", "docs/conf/x.yaml", ".readthedocs.yaml",
        "environment.yml", "docker-compose.yml", "launch/train.sh", ".gitlab-ci.yml", "codecov.yml"}) {
    INFO(path);
    CHECK(extract_settings(path, device).empty());
  }
  CHECK(extract_settings("deploy/job.yaml", "apiVersion: batch/v1\nkind: Job\nspec: {device: cuda}\n").empty());
  CHECK(extract_settings("ci.yaml", "on: push\njobs:\n  t: {device: cuda}\n").empty());
  CHECK(extract_settings("env.yaml", "channels: [nvidia]\ndependencies: [pytorch-cuda=12.1]\n").empty());
  CHECK(extract_settings("t.yaml", "{{ jinja }}: [\n").empty());
  CHECK(extract_settings("t.yaml", "a: 1\n---\nb: 2\n").empty());
  CHECK(extract_settings("t.yaml", "").empty());
  CHECK(extract_settings("t.yaml", "- just\n- a list\n").empty());  // a list at the root has no keys
}

TEST_CASE("extract_settings: deep nesting and aliases stay bounded", "[facts][settings]") {
  std::string deep;
  for (int i = 0; i < 200; ++i) deep += std::string(static_cast<std::size_t>(i) * 2, ' ') + "k:\n";
  deep += std::string(400, ' ') + "device: cuda\n";
  CHECK(extract_settings("deep.yaml", deep).size() <= facts::k_max_settings);
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'k'; ++c)
    bomb += std::string(1, c) + ": &" + c + " [*" + std::string(1, c - 1) + ", *" + std::string(1, c - 1) + ", *" +
            std::string(1, c - 1) + ", *" + std::string(1, c - 1) + "]\n";
  CHECK(extract_settings("bomb.yaml", bomb).empty());  // refused by the loader's expanded-node limit
}

TEST_CASE("package indexes: Dockerfile RUN continuations and shell scripts, at the URL's line", "[facts][settings]") {
  const auto docker = facts::extract_dependencies(
      discover::FileKind::dockerfile,
      "FROM nvidia/cuda:11.8.0-devel-ubuntu22.04\n"
      "RUN apt-get update \\\n"
      "# a comment inside the continuation\n"
      "    && pip install --pre torch --index-url https://download.pytorch.org/whl/nightly/cu118 \\\n"
      "    && pip install -f=https://data.pyg.org/whl/torch-2.1.0+cu118.html torch-scatter\n");
  std::vector<std::string> indexes;
  for (const auto& dep : docker) {
    if (dep.section == "package-index") indexes.push_back(dep.name + "@" + std::to_string(dep.at.line));
    if (dep.section == "docker-pip") CHECK(dep.at.line == (dep.name == "torch" ? 4U : 5U));  // each on its own line
  }
  CHECK(indexes == std::vector<std::string>{"https://download.pytorch.org/whl/nightly/cu118@4",
                                            "https://data.pyg.org/whl/torch-2.1.0+cu118.html@5"});
  const auto script = facts::read_shell_script(
      "#!/bin/bash\n# pip install x --index-url https://example.com/commented\n"
      "pip install torch \\\n  --extra-index-url=\"https://download.pytorch.org/whl/cu121\"\npip install $PKG -i "
      "$URL\n"
      "pip install --no-build-isolation --no-binary flash-attn flash-attn==2.5.6 -e . && echo done\n"
      "conda install -y -c nvidia nvidia::cuda-compiler pytorch-cuda=12.1 --file env.txt\n");
  std::vector<std::string> found;
  for (const auto& dep : script)
    found.push_back(dep.section.str() + ":" + dep.name.str() + "@" + std::to_string(dep.at.line));
  // The packages a script installs (pip's and conda's, option values skipped) and the index pip uses.
  CHECK(found == std::vector<std::string>{"shell-pip:torch@3", "package-index:https://download.pytorch.org/whl/cu121@4",
                                          "shell-pip:flash-attn@6", "shell-conda:cuda-compiler@7",
                                          "shell-conda:pytorch-cuda@7"});
}

TEST_CASE("read_launch_flags: each flag names the script its launch line runs", "[facts][settings]") {
  const auto flags = facts::read_launch_flags(
      "#!/bin/bash\n"
      "MODEL=x070 torchrun --nproc_per_node 8 ./train.py \\\n"
      "  --strategy deepspeed_stage_2 --precision bf16\n"
      "python -m pkg.finetune --lr 1e-4\n"
      "deepspeed --num_gpus 8 --no_script\n");
  REQUIRE(flags.size() == 6);
  CHECK(flags[0].key == "nproc_per_node");  // the launcher's own flags come first, with the same script
  CHECK(flags[0].program == "./train.py");
  CHECK(flags[1].key == "strategy");
  CHECK(flags[1].value == "deepspeed_stage_2");
  CHECK(flags[1].program == "./train.py");
  CHECK(flags[1].at.line == 3);
  CHECK(flags[3].key == "lr");
  CHECK(flags[3].program == "pkg.finetune");
  // A launch whose script is not written on the line names none.
  CHECK(flags[4].key == "num_gpus");
  CHECK(flags[4].program.empty());
  // A flag's value given as a shell variable takes the script's last assignment above the launch line
  // (RWKV-LM's demo scripts: `MODEL_TYPE="x070"` then `--my_testing $MODEL_TYPE`); an unassigned one stays as written.
  const auto resolved = facts::read_launch_flags(
      "MODEL_TYPE=\"x052\"\n"
      "# MODEL_TYPE=\"mamba\" # pip install mamba_ssm\n"
      "MODEL_TYPE=\"x070\" # x070 => rwkv-7.0\n"
      "export KERNEL=@rwkv3\n"
      "python train.py --my_testing $MODEL_TYPE --kernel=${KERNEL} --proj_dir $PROJ_DIR\n"
      "MODEL_TYPE=x060\n");
  REQUIRE(resolved.size() == 3);
  CHECK(resolved[0].value == "x070");
  CHECK(resolved[1].value == "@rwkv3");
  CHECK(resolved[2].value == "$PROJ_DIR");
  // The scripts launched, with flags or without.
  const auto programs = facts::read_launched_programs(
      "python networks/probe.py\necho python x.py\n"
      "torchrun --nproc_per_node 2 -m pkg.train --lr 1\n");
  REQUIRE(programs.size() == 2);
  CHECK(programs[0] == "networks/probe.py");
  CHECK(programs[1] == "pkg.train");
}
