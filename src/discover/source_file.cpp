// discover/source_file: FileKind names and the notebook line mapping of LoadedSource.
#include "tr2audit/discover/source_file.hpp"

#include <algorithm>

namespace tr2audit::discover {

std::string_view to_string(FileKind kind) {
  switch (kind) {
    case FileKind::python:
      return "python";
    case FileKind::python_stub:
      return "python-stub";
    case FileKind::notebook:
      return "notebook";
    case FileKind::cuda_source:
      return "cuda-source";
    case FileKind::cxx_header:
      return "cxx-header";
    case FileKind::requirements:
      return "requirements";
    case FileKind::pyproject:
      return "pyproject";
    case FileKind::setup_cfg:
      return "setup-cfg";
    case FileKind::dockerfile:
      return "dockerfile";
    case FileKind::conda_env:
      return "conda-env";
    case FileKind::config:
      return "config";
  }
  return "unknown";
}

CellLocation LoadedSource::map_line(std::uint32_t line) const {
  if (cell_first_lines.empty() || line < cell_first_lines.front()) return {0, line};
  // The last cell whose first line is at or before `line`.
  const auto after = std::upper_bound(cell_first_lines.begin(), cell_first_lines.end(), line);
  const auto index = static_cast<std::size_t>(after - cell_first_lines.begin()) - 1;
  const std::uint32_t cell = index < cell_numbers.size() ? cell_numbers[index] : static_cast<std::uint32_t>(index + 1);
  return {cell, line - cell_first_lines[index] + 1};
}

}  // namespace tr2audit::discover
