#include <catch2/catch.hpp>

#include "tr2audit/rules/match.hpp"

using namespace tr2audit;
using namespace tr2audit::rules;

TEST_CASE("rules::fill_snippet_and_fingerprint is stable across moved lines, not changed code", "[rules]") {
  Finding f;
  f.rule_id = "cuda-api.sync";
  f.path = "train.py";
  f.function = "train";
  f.at.line = 2;
  fill_snippet_and_fingerprint(f, "import torch\n    torch.cuda.synchronize()  \n");
  CHECK(f.snippet == "torch.cuda.synchronize()");
  CHECK(f.fingerprint.size() == 16);

  Finding moved = f;
  moved.at.line = 4;
  fill_snippet_and_fingerprint(moved, "import torch\n\n\n  torch.cuda.synchronize( )\n");
  CHECK(moved.fingerprint == f.fingerprint);

  Finding changed = f;
  fill_snippet_and_fingerprint(changed, "import torch\n    torch.cuda.synchronize(device)\n");
  CHECK(changed.fingerprint != f.fingerprint);

  Finding other_function = f;
  other_function.function = "evaluate";
  fill_snippet_and_fingerprint(other_function, "import torch\n    torch.cuda.synchronize()  \n");
  CHECK(other_function.fingerprint != f.fingerprint);

  Finding long_line = f;
  long_line.at.line = 1;
  fill_snippet_and_fingerprint(long_line, std::string(150, 'x') + std::string(100, 'y') + "\n");
  CHECK(long_line.snippet == std::string(150, 'x') + std::string(50, 'y'));
  fill_snippet_and_fingerprint(long_line, std::string(199, 'x') + "\xC3\xA9\xC3\xA9" + "\n");
  CHECK(long_line.snippet == std::string(199, 'x') + "\xC3\xA9");
}

TEST_CASE("rules::guard_names lists guards in bit order", "[rules]") {
  const std::uint16_t all = 0x3FF;
  CHECK(guard_names(all) == std::vector<std::string>{"cuda-available", "import-error-fallback", "device-branch",
                                                     "neuron-branch", "main-block", "type-checking", "no-grad",
                                                     "except-handler", "periodic", "step-closure"});
  CHECK(guard_names(0).empty());
}
