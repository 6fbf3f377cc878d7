// rules::match over names and values: catch-all rules, reference facts, conditional branches and
// keyword values that are local names judged by their defaults.
#include <catch2/catch.hpp>

#include "support/extract_helpers.hpp"
#include "tr2audit/rules/match.hpp"

using namespace tr2audit;
using namespace tr2audit::rules;

namespace {

RuleSet rules_from(const std::vector<std::pair<std::string, std::string>>& texts) {
  std::vector<Rule> rules;
  for (const auto& [id, body] : texts) {
    const std::string category = id.substr(0, id.find('.'));
    const std::string yaml = "id: " + id + "\ntitle: T\ncategory: " + category +
                             "\nseverity: medium\nconfidence: high\nmessage: 'hit {subject} {value}'\nwhy: W\n"
                             "fix: F\nsources: [S]\n" +
                             body;
    std::vector<Problem> problems;
    auto rule = load_rule_text(yaml, "", problems);
    INFO(yaml);
    REQUIRE(problems.empty());
    rules.push_back(std::move(*rule));
  }
  return RuleSet(std::move(rules));
}

std::vector<std::string> hits(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const Finding& f : findings) out.push_back(f.rule_id + "@" + std::to_string(f.at.line));
  return out;
}

}  // namespace

TEST_CASE("rules::match drops a catch-all finding where another rule reports the line", "[rules]") {
  const RuleSet rules = rules_from({
      {"cuda-api.sync", "match:\n  call: [torch.cuda.synchronize]\n"},
      {"cuda-api.net", "catch_all: true\nmatch:\n  call: ['torch.cuda.*']\n"},
      {"cuda-api.net-ref", "catch_all: true\nmatch:\n  reference: ['torch.cuda.*']\n"},
  });
  const auto file = tr2audit::testing::facts_of(
      "import torch\n"
      "torch.cuda.synchronize()\n"
      "torch.cuda.ipc_collect(); torch.cuda.init()\n"
      "ok = isinstance(t, torch.cuda.FloatTensor) and torch.cuda.is_initialized()\n"
      "x = torch.zeros(3)\n");
  const auto found = hits(tr2audit::testing::match_one(file, rules, TargetProfile::native));
  // Line 2: the specific rule only. Line 3: one catch-all finding for two calls. Line 4: the first of the
  // two nets (the reference comes first on the line).
  CHECK(found == std::vector<std::string>{"cuda-api.sync@2", "cuda-api.net@3", "cuda-api.net-ref@4"});
}

TEST_CASE("rules::match reads a conditional's literal branches and says which one is the default", "[rules]") {
  const RuleSet rules = rules_from({{"cuda-api.nccl",
                                     "match:\n  call: [torch.distributed.init_process_group]\n"
                                     "  any_argument: [nccl, NCCL]\n"}});
  const auto file = tr2audit::testing::facts_of(
      "import torch.distributed as dist\n"
      "dist.init_process_group(backend='NCCL' if has_gpu else 'GLOO')\n"
      "dist.init_process_group(backend='gloo' if cpu_only else 'nccl')\n"
      "dist.init_process_group(backend='gloo')\n");
  const auto findings = tr2audit::testing::match_one(file, rules, TargetProfile::native);
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].message.find("\"NCCL\" when `has_gpu`, else \"GLOO\"") != std::string::npos);
  CHECK(findings[1].at.line == 3);
}

TEST_CASE("rules::match judges a keyword's local name by its default; other defaults make it opt-in", "[rules]") {
  const RuleSet rules = rules_from({{"dynamic-shape.ragged",
                                     "match:\n  call: [torch.utils.data.DataLoader]\n"
                                     "  keyword:\n    drop_last: ['False']\n"},
                                    {"neuron-ready.dropped",
                                     "match:\n  call: [torch.utils.data.DataLoader]\n"
                                     "  keyword:\n    drop_last: ['True']\n"}});
  const auto file = tr2audit::testing::facts_of(
      "from torch.utils.data import DataLoader\n"
      "class DataModule:\n"
      "    def __init__(self, ds, drop_last=False):\n"
      "        self.drop_last = drop_last\n"
      "    def train_dataloader(self):\n"
      "        return DataLoader(self.ds,\n"
      "                          drop_last=self.drop_last)\n"
      "def build(ds, keep_tail=True, drop=True):\n"
      "    a = DataLoader(ds, drop_last=drop)\n"
      "    return a\n");
  const auto findings = tr2audit::testing::match_one(file, rules, TargetProfile::native);
  REQUIRE(findings.size() == 3);
  // The finding points at the keyword, not at the call's first line.
  CHECK(findings[0].rule_id == "dynamic-shape.ragged");
  CHECK(findings[0].at.line == 7);
  CHECK(findings[0].severity == Severity::medium);
  CHECK(findings[0].message.find("the default of `self.drop_last`") != std::string::npos);
  // `drop` defaults to True: the ragged rule holds only if someone changes it (opt-in, low) ...
  CHECK(findings[1].rule_id == "dynamic-shape.ragged");
  CHECK(findings[1].at.line == 9);
  CHECK(findings[1].severity == Severity::low);
  CHECK(findings[1].opt_in == "drop");
  // ... and the positive signal holds by the default itself.
  CHECK(findings[2].rule_id == "neuron-ready.dropped");
  CHECK(findings[2].at.line == 9);
}

TEST_CASE("rules::match not_chained_into reports a call chain once, at its last listed call", "[rules]") {
  const RuleSet rules = rules_from({{"dynamic-graph.copy",
                                     "match:\n  method: [cpu, tolist]\n"
                                     "  not_chained_into: [item, tolist]\n"}});
  const auto file = tr2audit::testing::facts_of(
      "def step(loss, ts, values):\n"
      "    a = loss.detach().cpu().item()\n"
      "    b = ts.cpu().tolist()\n"
      "    c = values.detach().cpu().numpy()\n"
      "    d = ts.cpu() .tolist()\n"
      "    e = ts.tolist()\n");
  // Line 2: `.item()` reads the copy (the `.item()` rules report it). Line 3: one finding, at `.tolist()`.
  // Line 4: `.numpy()` is not listed, so the copy is reported. Line 5: a space before `.tolist()` is not
  // "right after it": both calls are reported. Line 6: one call.
  const auto findings = tr2audit::testing::match_one(file, rules, TargetProfile::native);
  std::vector<std::string> found;
  for (const Finding& f : findings) found.push_back(std::to_string(f.at.line) + ":" + std::to_string(f.at.column));
  CHECK(found == std::vector<std::string>{"3:9", "4:9", "5:9", "5:9", "6:9"});
}
