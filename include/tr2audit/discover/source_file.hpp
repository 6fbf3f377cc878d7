// discover/source_file: what discovery hands to the parser: one file of the repo, classified.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "tr2audit/core/location.hpp"

namespace tr2audit::discover {

enum class FileKind {
  python,        ///< .py (setup.py included: it is also a dependency source)
  python_stub,   ///< .pyi
  notebook,      ///< .ipynb: code cells are concatenated into Python text
  cuda_source,   ///< .cu / .cuh: recorded, never parsed as Python
  cxx_header,    ///< .h / .hpp / .hxx / .inl: becomes cuda_source in the facts when it defines a __global__ kernel
  requirements,  ///< requirements*.txt
  pyproject,     ///< pyproject.toml
  setup_cfg,     ///< setup.cfg
  dockerfile,    ///< Dockerfile, Dockerfile.*, *.Dockerfile: base images, pip installs and ENV lines
  conda_env,     ///< environment*.yml / conda*.yml: a conda environment's packages and its pip list
  config,        ///< *.yaml / *.yml / *.json: read (bounded) only for training settings, never executed
};

std::string_view to_string(FileKind kind);

/// YAML/JSON files larger than this are data (datasets, tokenizers), not settings: discovery leaves them out.
inline constexpr std::uint64_t k_max_config_bytes = 256 * 1024;

struct SourceFile {
  std::string rel_path;            ///< relative to the scan root, '/' separators; the report's path
  std::filesystem::path abs_path;  ///< what to open
  FileKind kind = FileKind::python;
  std::uint64_t size = 0;
  bool is_test = false;  ///< under tests/ or test/, named test_*.py / *_test.py / conftest.py
  /// For a CUDA source: the name of the CPU implementation beside it (`box_iou_rotated_cpu.cpp` next to
  /// `box_iou_rotated_cuda.cu`), which a build without CUDA compiles instead; empty when there is none.
  std::string cpu_twin;
};

/// The text a file contributes to the scan, after the checks of load_source.
struct LoadedSource {
  std::string text;  ///< Python text (a notebook's code cells joined, magics commented out)
  /// For notebooks: the first line (1-based, in text) of each code cell, in cell order; empty otherwise.
  std::vector<std::uint32_t> cell_first_lines;
  /// For notebooks: the 1-based cell index of each entry of cell_first_lines (markdown cells are skipped).
  std::vector<std::uint32_t> cell_numbers;
  /// For notebooks: where each line of text (index line - 1) starts in the .ipynb JSON, so that
  /// reports point at the line a diff, an editor or a CI annotation shows; empty otherwise.
  std::vector<FilePlace> notebook_places;
  /// For notebooks: the escaped characters of the code (sorted), to turn text columns into JSON ones.
  std::vector<JsonEscape> notebook_escapes;
  /// For notebooks (and Databricks `.py` notebooks): the shell escapes (`!deepspeed train.py \` and the
  /// lines that continue it) at their lines of text, without the `!`, every other line empty; empty when
  /// there is none. Read as a launch script's flags (facts::read_launch_flags).
  std::string shell_lines;

  /// Maps a line of text back to (cell, line in cell); {0, line} for plain files.
  CellLocation map_line(std::uint32_t line) const;
};

}  // namespace tr2audit::discover
