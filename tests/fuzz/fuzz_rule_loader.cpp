// libFuzzer target: arbitrary bytes as a rule file through the bounded YAML loader, the rule
// validator and compiler; a compiled rule is then matched against a small fixed file's facts.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "tr2audit/program/program.hpp"
#include "tr2audit/facts/extract.hpp"
#include "tr2audit/rules/match.hpp"
#include "tr2audit/rules/rule_set.hpp"

namespace {

constexpr std::string_view k_code = R"(import torch
def train(model, loader, opt):
    for x, y in loader:
        loss = model(x.cuda()).sum()
        loss.backward()
        opt.step()
        print(loss.item())
)";

tr2audit::facts::FileFacts fixed_facts() {
  tr2audit::discover::SourceFile file;
  file.rel_path = "train.py";
  tr2audit::discover::LoadedSource source;
  source.text = std::string(k_code);
  tr2audit::facts::Extractor extractor;
  return extractor.extract(file, source);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const tr2audit::program::Program model = [] {
    std::vector<tr2audit::facts::FileFacts> files{fixed_facts()};
    return tr2audit::program::Program::build(std::move(files));
  }();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<tr2audit::Problem> problems;
  std::optional<tr2audit::rules::Rule> rule =
      tr2audit::rules::load_rule_text(text, "rules/fuzz/fuzz-rule.yaml", problems);
  if (!rule) return 0;
  std::vector<tr2audit::rules::Rule> one;
  one.push_back(std::move(*rule));
  const tr2audit::rules::RuleSet set(std::move(one));
  (void)tr2audit::rules::match(tr2audit::program::FileView{model, tr2audit::program::FileId{0}}, set,
                               tr2audit::TargetProfile::native);
  return 0;
}
