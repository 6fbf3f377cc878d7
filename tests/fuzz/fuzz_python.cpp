// libFuzzer target: arbitrary bytes as a Python file (or, when they start with '{', a notebook)
// through parse -> facts -> match -> snippets with the built-in rules. Build: docs/fuzzing.md.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "tr2audit/program/program.hpp"
#include "tr2audit/discover/discover.hpp"
#include "tr2audit/facts/extract.hpp"
#include "tr2audit/rules/match.hpp"
#include "tr2audit/rules/rule_set.hpp"

namespace {

struct Fixture {
  tr2audit::rules::RuleSet rules = tr2audit::rules::load_rules({TR2AUDIT_SOURCE_DIR "/rules"}).rules;
  tr2audit::facts::Extractor extractor{tr2audit::facts::ExtractOptions{std::chrono::milliseconds(2000), 5}};
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Fixture fixture;  // loaded once per process; each input is independent of the others
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  tr2audit::discover::SourceFile file;
  file.rel_path = "fuzz/train.py";
  tr2audit::discover::LoadedSource source;
  if (!bytes.empty() && bytes.front() == '{') {
    file.rel_path = "fuzz/notebook.ipynb";
    file.kind = tr2audit::discover::FileKind::notebook;
    tr2audit::discover::LoadResult loaded = tr2audit::discover::notebook_to_python(bytes, file.rel_path);
    if (!loaded.ok) return 0;
    source = std::move(loaded.source);
  } else {
    source.text = std::string(bytes);
  }
  std::vector<tr2audit::facts::FileFacts> files{fixture.extractor.extract(file, source)};
  const auto model = tr2audit::program::Program::build(std::move(files), true);  // parse -> facts -> program -> match
  const tr2audit::program::FileView view{model, tr2audit::program::FileId{0}};
  for (auto& finding : tr2audit::rules::match(view, fixture.rules, tr2audit::TargetProfile::native)) {
    tr2audit::rules::fill_snippet_and_fingerprint(finding, source.text);
  }
  (void)tr2audit::rules::match(view, fixture.rules, tr2audit::TargetProfile::xla);
  return 0;
}
