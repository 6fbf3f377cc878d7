#include <algorithm>

#include "tr2audit/core/text.hpp"
#include "tr2audit/pipeline/scan.hpp"

namespace tr2audit::pipeline {
namespace {

bool is_python_kind(discover::FileKind kind) {
  return kind == discover::FileKind::python || kind == discover::FileKind::python_stub ||
         kind == discover::FileKind::notebook;
}

}  // namespace

FileAnalysis analyze_file(const discover::SourceFile& file, facts::Extractor& extractor, std::uint64_t max_file_size) {
  FileAnalysis analysis;
  discover::LoadResult loaded = discover::load_source(file, max_file_size);
  if (!loaded.ok) {
    analysis.facts.path = file.rel_path;
    analysis.facts.problems.push_back(std::move(loaded.problem));
    return analysis;
  }
  analysis.loaded = true;
  if (is_python_kind(file.kind)) {
    analysis.facts = extractor.extract(file, loaded.source);
  } else {
    analysis.facts.path = file.rel_path;
    analysis.facts.kind = file.kind;
    analysis.facts.is_test = file.is_test;
    analysis.facts.lines =
        static_cast<std::uint32_t>(std::count(loaded.source.text.begin(), loaded.source.text.end(), '\n'));
    if (file.kind == discover::FileKind::cuda_source || file.kind == discover::FileKind::cxx_header) {
      analysis.facts.patterns = facts::find_cuda_kernels(loaded.source.text);
      // A header that defines a kernel is CUDA source; other headers carry no findings.
      if (!analysis.facts.patterns.empty()) analysis.facts.kind = discover::FileKind::cuda_source;
    } else {
      analysis.facts.dependencies = facts::extract_dependencies(file.kind, loaded.source.text);
    }
  }
  analysis.text = std::move(loaded.source.text);
  return analysis;
}

}  // namespace tr2audit::pipeline
