// facts/extract: Python text -> FileFacts. Two cursor walks over one tree: a pre-pass collects
// module-level bindings (imports, aliases), the main pass tracks scopes, context frames and
// guards, records facts and runs detectors. The tree never leaves this stage.
#pragma once
#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tr2audit/detectors/detector.hpp"
#include "tr2audit/discover/source_file.hpp"
#include "tr2audit/facts/facts.hpp"
#include "tr2audit/parse/node_kinds.hpp"
#include "tr2audit/parse/parse.hpp"

namespace tr2audit::facts {

struct ExtractOptions {
  std::chrono::milliseconds parse_budget{20000};  ///< per-file parse time limit (0 = none)
  std::uint32_t max_error_spans = 5;
};

/// Where the last extract() spent its time (for `scan --stats`).
struct ExtractTimes {
  std::chrono::nanoseconds parse{0};
  std::chrono::nanoseconds walk{0};
};

/// Per-thread extraction state: a parser, the kind table and detectors with their dispatch table.
class Extractor {
 public:
  explicit Extractor(ExtractOptions options = {});
  ~Extractor();
  Extractor(const Extractor&) = delete;
  Extractor& operator=(const Extractor&) = delete;

  /// Parses and extracts one Python file (python, python_stub or a converted notebook).
  FileFacts extract(const discover::SourceFile& file, const discover::LoadedSource& source);
  /// Parse and walk time of the last extract().
  const ExtractTimes& last_times() const;
  /// Parses text and prints the syntax tree as an indented S-expression (for `debug tree`).
  std::string dump_tree(std::string_view text);

 private:
  struct State;
  std::unique_ptr<State> m_state;
};

/// The dotted module a repo-relative Python path defines ("src/pkg/a/__init__.py" -> "pkg.a").
std::string module_name_for(std::string_view rel_path);

}  // namespace tr2audit::facts
