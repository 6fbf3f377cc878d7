// cli/resources: where the built-in rules live (next to the binary in a build tree, under
// <prefix>/share/tr2audit/rules when installed, or TR2AUDIT_RULES_DIR when set).
#pragma once
#include <filesystem>
#include <string>

namespace tr2audit::cli {

/// The built-in rules folder, or an empty path when none can be found.
std::filesystem::path builtin_rules_dir(const char* argv0_hint = nullptr);
/// Where builtin_rules_dir looked, for the message when it found nothing.
std::string builtin_rules_search_note();

}  // namespace tr2audit::cli
