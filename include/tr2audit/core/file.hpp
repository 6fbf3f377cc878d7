// core/file: whole-file reads for the small data files tr2audit loads (rules, tables, configs).
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace tr2audit {

/// The file's bytes, or nullopt when it cannot be opened or read.
std::optional<std::string> read_file(const std::filesystem::path& file);

/// Writes content to a temporary file in file's folder and renames it over file, so a reader (or
/// an interrupted run) never sees a half-written file. Returns "" or what went wrong.
std::string write_file_atomically(const std::filesystem::path& file, std::string_view content);

}  // namespace tr2audit
