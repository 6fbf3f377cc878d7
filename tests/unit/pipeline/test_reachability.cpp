#include <catch2/catch.hpp>

#include "support/extract_helpers.hpp"
#include "tr2audit/facts/region.hpp"
#include "tr2audit/pipeline/projects.hpp"
#include "tr2audit/pipeline/reachability.hpp"

using namespace tr2audit;
using tr2audit::testing::call_at;
using tr2audit::testing::facts_of;

TEST_CASE("pipeline::mark_reachable_functions carries forward and training-step roles across files", "[pipeline]") {
  std::vector<facts::FileFacts> files;
  files.push_back(
      facts_of("from .ops import route_tokens\n"
               "import torch.nn as nn\n"
               "class MoE(nn.Module):\n"
               "    def forward(self, x):\n"
               "        idx = route_tokens(x)\n"
               "        return self._combine(x, idx)\n"
               "    def _combine(self, x, idx):\n"
               "        return x[idx].sum().item()\n",
               "pkg/model.py"));
  files.push_back(
      facts_of("def route_tokens(x):\n"
               "    n = x.argmax(-1).max().item()\n"
               "    return n\n"
               "def log_metrics(loss):\n"
               "    return loss.item()\n"
               "def unused(loss):\n"
               "    return loss.item()\n",
               "pkg/ops.py"));
  files.push_back(
      facts_of("from pkg.ops import log_metrics\n"
               "for batch in loader:\n"
               "    loss = model(batch)\n"
               "    loss.backward()\n"
               "    log_metrics(loss)\n",
               "train.py"));
  pipeline::mark_reachable_functions(files);
  const auto region = [&](std::size_t file, std::uint32_t line) {
    const auto* call = call_at(files[file], line, "item");
    REQUIRE(call);
    return facts::region_of(files[file], call->ctx);
  };
  CHECK(region(0, 8) == facts::Region::forward);        // self._combine from forward
  CHECK(region(1, 2) == facts::Region::forward);        // route_tokens imported by the model
  CHECK(region(1, 5) == facts::Region::training_step);  // called inside the training loop
  CHECK(region(1, 7) == facts::Region::other);          // never called
  CHECK(files[1].functions[0].reached_from == "pkg/model.py:MoE.forward");
}

TEST_CASE("pipeline::find_projects reports a verdict per project only for two or more", "[pipeline]") {
  const auto train = [](const std::string& path) {
    return facts_of("for b in dl:\n    loss = m(b)\n    loss.backward()\n", path);
  };
  std::vector<discover::SourceFile> files(5);
  std::vector<facts::FileFacts> facts;
  const char* paths[] = {"examples/lora/train.py", "examples/lora/requirements.txt", "examples/pretrain/run.py",
                         "lib/core.py", "tools/setup.py"};
  for (int i = 0; i < 5; ++i) {
    files[i].rel_path = paths[i];
    if (i == 1) files[i].kind = discover::FileKind::requirements;
    facts.push_back(i == 0 || i == 2 ? train(paths[i]) : facts_of("x = 1\n", paths[i]));
  }
  const auto projects = pipeline::find_projects(files, facts);
  CHECK(projects == std::vector<std::string>{"examples/lora", "examples/pretrain"});
  CHECK(pipeline::project_of("examples/lora/model/attn.py", projects) == "examples/lora");
  CHECK(pipeline::project_of("lib/core.py", projects).empty());
  facts.pop_back();
  files.pop_back();
  files.erase(files.begin() + 2);
  facts.erase(facts.begin() + 2);
  CHECK(pipeline::find_projects(files, facts).empty());
}
