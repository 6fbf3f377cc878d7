#include <algorithm>
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

TEST_CASE("rules::fill_snippet_and_fingerprint places a multi-line method call on the method's line", "[rules]") {
  const std::string text =
      "import torch\n"                         // 1
      "def build(dim):\n"                      // 2
      "    rf = RF(\n"                         // 3
      "        MMDiT(dim=dim, name=\")\"),\n"  // 4
      "        True,\n"                        // 5
      "    ).cuda()\n"                         // 6
      "    torch.cuda.set_device(\n"           // 7
      "        rank)\n";                       // 8
  const auto span_of = [&](std::string_view from, std::string_view to) {
    const auto start = static_cast<std::uint32_t>(text.find(from));
    const auto end = static_cast<std::uint32_t>(text.find(to, start) + to.size());
    const auto line = [&](std::uint32_t byte) {
      return static_cast<std::uint32_t>(std::count(text.begin(), text.begin() + byte, '\n') + 1);
    };
    return Span(line(start), 10, line(end), 13, start, end);
  };
  Finding chain;
  chain.rule_id = "cuda-api.cuda-method";
  chain.at = span_of("RF(", ").cuda()");
  Finding statement = chain;  // not a method rule's finding (a whole statement): it stays
  fill_snippet_and_fingerprint(statement, text);
  CHECK(statement.at.line == 3);
  fill_snippet_and_fingerprint(chain, text, true);
  CHECK(chain.at.line == 6);
  CHECK(chain.at.column == 7);  // the `c` of `cuda`
  CHECK(chain.at.end_line == 6);
  CHECK(chain.snippet == ").cuda()");
  // A call whose own name is on its first line stays there.
  Finding call;
  call.rule_id = "cuda-api.cuda-device-management";
  call.at = span_of("torch.cuda.set_device(", "rank)");
  fill_snippet_and_fingerprint(call, text, true);
  CHECK(call.at.line == 7);
}

TEST_CASE("rules::guard_names lists guards in bit order", "[rules]") {
  const std::uint16_t all = 0x3FF;
  CHECK(guard_names(all) == std::vector<std::string>{"cuda-available", "import-error-fallback", "device-branch",
                                                     "neuron-branch", "main-block", "type-checking", "no-grad",
                                                     "except-handler", "periodic", "step-closure"});
  CHECK(guard_names(0).empty());
}
