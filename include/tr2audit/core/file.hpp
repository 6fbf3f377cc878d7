// core/file: whole-file reads for the small data files tr2audit loads (rules, tables, configs).
#pragma once
#include <filesystem>
#include <optional>
#include <string>

namespace tr2audit {

/// The file's bytes, or nullopt when it cannot be opened or read.
std::optional<std::string> read_file(const std::filesystem::path& file);

}  // namespace tr2audit
