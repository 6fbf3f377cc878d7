#include "cli/resources.hpp"

#include <cstdlib>
#include <system_error>

namespace tr2audit::cli {
namespace {

std::filesystem::path executable_dir(const char* argv0_hint) {
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) return self.parent_path();
  if (argv0_hint) return std::filesystem::absolute(argv0_hint, ec).parent_path();
  return {};
}

}  // namespace

std::filesystem::path builtin_rules_dir(const char* argv0_hint) {
  std::error_code ec;
  if (const char* env = std::getenv("TR2AUDIT_RULES_DIR"); env && *env) return env;
  const auto dir = executable_dir(argv0_hint);
  for (const auto& candidate : {dir / "rules", dir.parent_path() / "share" / "tr2audit" / "rules"}) {
    if (std::filesystem::is_directory(candidate, ec)) return candidate;
  }
  return {};
}

std::string builtin_rules_search_note() {
  const auto dir = executable_dir(nullptr);
  return "looked in " + (dir / "rules").generic_string() + " and " +
         (dir.parent_path() / "share" / "tr2audit" / "rules").generic_string() + ", and TR2AUDIT_RULES_DIR is not set";
}

}  // namespace tr2audit::cli
