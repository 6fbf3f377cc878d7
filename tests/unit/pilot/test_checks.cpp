// Platform checks on manifests a real repo ships: Dockerfiles (FROM a CUDA image vs a Neuron DLC,
// pip pins, ENV compile-cache settings) and requirements pins; and the Dockerfile reader itself.
#include <catch2/catch.hpp>

#include "unit/pilot/pilot_test_support.hpp"

using namespace tr2audit;
using discover::FileKind;
using pilot::CheckStatus;
using testing::check;
using testing::manifest;
using testing::pilot_of;

namespace {

constexpr std::string_view k_cuda_docker = R"(# syntax=docker/dockerfile:1
ARG CUDA=12.1.0
FROM nvidia/cuda:12.1.0-cudnn8-devel-ubuntu22.04 AS build
RUN pip install --no-cache-dir torch==2.3.0 \
    flash-attn>=2.5 \
    -r requirements.txt && rm -rf /root/.cache
ENV TORCH_CUDA_ARCH_LIST="8.0 9.0"
)";

constexpr std::string_view k_neuron_docker =
    R"(FROM public.ecr.aws/neuron/pytorch-training-neuronx:2.9.0-neuronx-py311-sdk2.26.0-ubuntu22.04
RUN pip install torch-neuronx==2.9.0.2.10.1 neuronx-cc==2.21.18209.0
ENV NEURON_CC_FLAGS="--model-type transformer --cache_dir=/mnt/cache"
ENV NEURON_COMPILE_CACHE_URL s3://bucket/neuron-cache
)";

}  // namespace

TEST_CASE("dockerfile reader: base images, pip packages, ENV and ARG", "[pilot][docker]") {
  const auto deps = facts::extract_dependencies(FileKind::dockerfile, k_cuda_docker);
  REQUIRE(deps.size() >= 5);
  CHECK(deps[0].section == "docker-env");  // ARG CUDA=12.1.0
  CHECK(deps[0].name == "CUDA");
  CHECK(deps[1].section == "docker-from");
  CHECK(deps[1].name == "nvidia/cuda");
  CHECK(deps[1].spec == "nvidia/cuda:12.1.0-cudnn8-devel-ubuntu22.04");
  CHECK(deps[1].at.line == 3);
  CHECK(deps[2].section == "docker-pip");
  CHECK(deps[2].name == "torch");
  CHECK(deps[2].spec == "torch==2.3.0");
  CHECK(deps[2].at.line == 4);  // a continued RUN is reported at its first line
  CHECK(deps[3].name == "flash-attn");
  CHECK(deps.back().name == "TORCH_CUDA_ARCH_LIST");
  CHECK(deps.back().spec == "8.0 9.0");
  for (const auto& dep : deps) CHECK(dep.name != "requirements-txt");  // -r takes a value
}

TEST_CASE("dockerfile reader: legacy ENV, digests, comments in continuations, garbage", "[pilot][docker]") {
  const auto deps =
      facts::extract_dependencies(FileKind::dockerfile,
                                  "FROM --platform=linux/amd64 repo/img@sha256:abc\nENV A b c\nRUN apt-get install \\\n"
                                  "# a comment\n  git && pip3 install 'numpy<2' $EXTRA ./local\n\\\n");
  REQUIRE(deps.size() == 3);
  CHECK(deps[0].name == "repo/img");
  CHECK(deps[1].name == "A");
  CHECK(deps[1].spec == "b c");
  CHECK(deps[2].name == "numpy");
  CHECK(deps[2].at.line == 5);  // the package's own line, two lines into the RUN's continuation
  CHECK(facts::extract_dependencies(FileKind::dockerfile, std::string(70000, '\\')).empty());
}

TEST_CASE("platform checks: a CUDA Dockerfile and no Neuron pin fail, with locations", "[pilot][checks]") {
  const auto facts = pilot_of(
      {{{"train.py", "import torch\n"}}, {}, {manifest("docker/Dockerfile", FileKind::dockerfile, k_cuda_docker)}, {}});
  const auto& base = check(facts, "container-base");
  CHECK(base.status == CheckStatus::fail);
  CHECK(base.where == std::vector<std::string>{"docker/Dockerfile:3"});
  CHECK_THAT(base.detail, Catch::Contains("CUDA base image"));
  CHECK(check(facts, "neuron-version-pinned").status == CheckStatus::fail);
  CHECK(check(facts, "compile-cache").status == CheckStatus::fail);
}

TEST_CASE("platform checks: a Neuron DLC with pinned packages and a cache location pass", "[pilot][checks]") {
  const auto facts = pilot_of({{{"train.py", "import torch\n"}},
                               {},
                               {manifest("Dockerfile.neuron", FileKind::dockerfile, k_neuron_docker)},
                               {}});
  CHECK(check(facts, "container-base").status == CheckStatus::pass);
  CHECK_THAT(check(facts, "container-base").detail, Catch::Contains("no longer published"));
  CHECK(check(facts, "neuron-version-pinned").status == CheckStatus::pass);
  CHECK(check(facts, "neuron-version-pinned").where.front() == "Dockerfile.neuron:2");
  const auto& cache = check(facts, "compile-cache");
  CHECK(cache.status == CheckStatus::pass);
  CHECK(cache.where == std::vector<std::string>{"Dockerfile.neuron:3", "Dockerfile.neuron:4"});
}

TEST_CASE("platform checks: requirements with a loose Neuron pin fail and say where", "[pilot][checks]") {
  const auto facts =
      pilot_of({{{"train.py", "import torch\n"}},
                {},
                {manifest("requirements.txt", FileKind::requirements, "torch-neuronx>=2.5\nneuronx-cc\n")},
                {}});
  const auto& pin = check(facts, "neuron-version-pinned");
  CHECK(pin.status == CheckStatus::fail);
  CHECK_THAT(pin.detail, Catch::Contains("requirements.txt:1 (torch-neuronx>=2.5)"));
  CHECK(check(facts, "container-base").status == CheckStatus::unknown);
}

TEST_CASE("platform checks: native TorchNeuron cache artifacts count as a cache", "[pilot][checks]") {
  constexpr std::string_view code = R"PY(import torch

def save_cache(path):
    artifacts = torch.compiler.save_cache_artifacts()
    open(path, "wb").write(artifacts[0])
)PY";
  const auto facts = pilot_of({{{"cache.py", std::string(code)}}, {}, {}, {}});
  CHECK(check(facts, "compile-cache").status == CheckStatus::pass);
  CHECK(check(facts, "compile-cache").where.front() == "cache.py:4");
}
