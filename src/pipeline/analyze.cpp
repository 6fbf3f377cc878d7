// One file: load it, then take its facts from the cache or parse and extract them (and store them).
#include <algorithm>

#include "tr2audit/core/text.hpp"
#include "tr2audit/facts/launch_flags.hpp"
#include "tr2audit/gate/comments.hpp"
#include "tr2audit/pipeline/scan.hpp"

namespace tr2audit::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

bool is_python_kind(discover::FileKind kind) {
  return kind == discover::FileKind::python || kind == discover::FileKind::python_stub ||
         kind == discover::FileKind::notebook;
}

/// A parse timeout depends on the machine's load, not on the file: such facts are never cached.
bool cacheable(const facts::FileFacts& facts) {
  return std::none_of(facts.problems.begin(), facts.problems.end(),
                      [](const Problem& p) { return p.kind == ProblemKind::parse_timeout; });
}

/// Gives back the growth slack of the fact vectors (push_back doubles capacity: up to half of a
/// vector is unused). Facts of every file live until the end of the scan, so the slack adds up. (The
/// lists inside a fact are compact arrays, built to size.)
void shrink(facts::FileFacts& f) {
  const auto fit = [](auto&... vectors) { (vectors.shrink_to_fit(), ...); };
  fit(f.error_spans, f.imports, f.calls, f.decorators, f.assigns, f.bound_calls, f.read_bindings, f.references,
      f.devices, f.patterns, f.dependencies, f.functions, f.classes, f.loops, f.branches, f.directives, f.problems,
      f.settings, f.values, f.name_strings, f.source_file_strings, f.used_names, f.dispatch_entries,
      f.computed_lookups);
}

void extract_python(const discover::SourceFile& file, const discover::LoadedSource& source, facts::Extractor& extractor,
                    FactCache* cache, FileAnalysis& analysis) {
  std::optional<Digest> key;
  if (cache) {
    const auto started = Clock::now();
    key = cache->key(file, source);
    analysis.read += Clock::now() - started;
    const auto loading = Clock::now();
    if (std::optional<facts::FileFacts> cached = cache->load(*key)) {
      analysis.facts = std::move(*cached);
      shrink(analysis.facts);
      analysis.cache_hit = true;
      analysis.extract = Clock::now() - loading;
      return;
    }
  }
  analysis.facts = extractor.extract(file, source);
  shrink(analysis.facts);
  analysis.parsed = true;
  analysis.parse = extractor.last_times().parse;
  analysis.extract = extractor.last_times().walk;
  if (cache && cacheable(analysis.facts)) cache->store(*key, analysis.facts);
}

}  // namespace

FileAnalysis analyze_file(const discover::SourceFile& file, facts::Extractor& extractor, std::uint64_t max_file_size,
                          FactCache* cache) {
  FileAnalysis analysis;
  const auto started = Clock::now();
  discover::LoadResult loaded = discover::load_source(file, max_file_size);
  analysis.read = Clock::now() - started;
  if (!loaded.ok) {
    analysis.facts.path = analysis.facts.strings(file.rel_path);
    analysis.facts.problems.push_back(std::move(loaded.problem));
    return analysis;
  }
  analysis.loaded = true;
  if (is_python_kind(file.kind)) {
    extract_python(file, loaded.source, extractor, cache, analysis);
    // A notebook's `!deepspeed train.py --deepspeed ds.json` launches a run like a shell script's line.
    if (!loaded.source.shell_lines.empty()) {
      for (auto& setting : facts::read_launch_flags(loaded.source.shell_lines))
        analysis.facts.settings.push_back(std::move(setting));
      analysis.facts.launched_programs = facts::read_launched_programs(loaded.source.shell_lines);
    }
  } else {
    analysis.facts.path = analysis.facts.strings(file.rel_path);
    analysis.facts.kind = file.kind;
    analysis.facts.is_test = file.is_test;
    if (!file.cpu_twin.empty()) analysis.facts.cpu_twin = analysis.facts.strings(file.cpu_twin);
    analysis.facts.lines =
        static_cast<std::uint32_t>(std::count(loaded.source.text.begin(), loaded.source.text.end(), '\n'));
    if (file.kind == discover::FileKind::cuda_source || file.kind == discover::FileKind::cxx_header) {
      analysis.facts.patterns = facts::find_cuda_kernels(loaded.source.text);
      // A header that defines a kernel is CUDA source; other headers carry no findings.
      if (!analysis.facts.patterns.empty()) analysis.facts.kind = discover::FileKind::cuda_source;
    } else {
      analysis.facts.dependencies = facts::extract_dependencies(file.kind, loaded.source.text);
      if (file.kind == discover::FileKind::config && ends_with(file.rel_path, ".sh")) {
        analysis.facts.dependencies = facts::read_shell_script(loaded.source.text);
        analysis.facts.settings = facts::read_launch_flags(loaded.source.text);
        analysis.facts.launched_programs = facts::read_launched_programs(loaded.source.text);
      } else if (file.kind == discover::FileKind::config && facts::looks_like_conda_environment(loaded.source.text)) {
        analysis.facts.kind = discover::FileKind::conda_env;  // `requirements.yaml` holding a conda environment
        analysis.facts.dependencies = facts::extract_dependencies(discover::FileKind::conda_env, loaded.source.text);
      } else if (file.kind == discover::FileKind::config) {
        analysis.facts.settings = facts::extract_settings(file.rel_path, loaded.source.text);
      }
    }
    analysis.facts.directives = gate::directive_comments(loaded.source.text, gate::comment_syntax_for(file.rel_path));
  }
  analysis.text = PackedText::pack(loaded.source.text);
  return analysis;
}

}  // namespace tr2audit::pipeline
