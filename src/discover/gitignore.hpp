// discover/gitignore (private): gitignore-style patterns compiled once and matched against
// '/'-separated paths. A RuleSet is one .gitignore file (or the --exclude list) with the folder it
// applies to; matching walks pattern segments iteratively (no recursion, no regex).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tr2audit::discover {

/// One compiled line of a .gitignore.
struct GlobPattern {
  std::vector<std::string> segments;  ///< split on '/'; "**" is a segment matching any number of segments
  bool negated = false;               ///< "!pattern" re-includes
  bool dir_only = false;              ///< "pattern/" matches directories only
};

/// Compiles one gitignore line; nullopt for blank lines and comments.
std::optional<GlobPattern> compile_glob(std::string_view line);

/// True when the compiled pattern matches path (relative to the pattern's base folder) itself.
/// Parent folders are not tried: the walker never enters an ignored folder.
bool glob_matches(const GlobPattern& pattern, std::string_view path, bool is_dir);

/// The patterns of one .gitignore (or of --exclude), applying to paths under base.
class RuleSet {
 public:
  RuleSet() = default;
  /// base: the folder the patterns are relative to ("" for the scan root, else "a/b" without slash).
  RuleSet(std::string base, std::vector<GlobPattern> patterns);

  /// Parses the text of a .gitignore file.
  static RuleSet parse(std::string base, std::string_view text);

  bool empty() const { return m_patterns.empty(); }
  /// nullopt when no pattern matches rel_path (relative to the scan root); else true = ignored.
  std::optional<bool> decide(std::string_view rel_path, bool is_dir) const;

 private:
  std::string m_base;
  std::vector<GlobPattern> m_patterns;
};

}  // namespace tr2audit::discover
