// discover/discover: the iterative walk over the scan root. Real folders are walked depth-first
// with an explicit stack; symlinked folders are deferred and followed afterwards in rel_path order,
// so which path "wins" for a folder reachable twice never depends on directory listing order.
#include "tr2audit/discover/discover.hpp"

#include <algorithm>
#include <deque>
#include <fstream>
#include <sstream>
#include <system_error>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "discover/classify.hpp"
#include "discover/gitignore.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::discover {
namespace {

namespace fs = std::filesystem;

/// The patterns of one .gitignore, chained to the .gitignore files of enclosing folders.
struct IgnoreScope {
  const IgnoreScope* parent = nullptr;
  RuleSet rules;
};

struct PendingDir {
  fs::path abs;
  std::string rel;        ///< "" for the root
  std::string canonical;  ///< canonical path, for loop detection
  const IgnoreScope* scope = nullptr;
};

enum class EntryType { file, directory, symlink, other };

constexpr std::uint64_t k_max_gitignore_bytes = 1u << 20;

struct Entry {
  fs::directory_entry entry;
  std::string name;
  EntryType type = EntryType::other;
};

std::string join_rel(std::string_view dir_rel, std::string_view name) {
  if (dir_rel.empty()) return std::string(name);
  std::string out;
  out.reserve(dir_rel.size() + 1 + name.size());
  out.append(dir_rel).append("/").append(name);
  return out;
}

std::string display_rel(std::string_view rel) {
  return rel.empty() ? std::string(".") : std::string(rel);
}

std::string_view last_segment(std::string_view rel) {
  const std::size_t slash = rel.rfind('/');
  return slash == std::string_view::npos ? rel : rel.substr(slash + 1);
}

/// Type from the directory listing (d_type): no stat for regular files and folders.
EntryType type_of(const fs::directory_entry& entry) {
  std::error_code ec;
  if (entry.is_symlink(ec)) return EntryType::symlink;
  if (entry.is_directory(ec)) return EntryType::directory;
  if (entry.is_regular_file(ec)) return EntryType::file;
  return EntryType::other;
}

/// True when a folder named like a virtualenv holds a Python interpreter (bin/python*, lib/python*, Lib).
bool holds_interpreter(const fs::path& dir, const std::vector<Entry>& entries) {
  for (const Entry& entry : entries) {
    if (entry.type != EntryType::directory && entry.type != EntryType::symlink) continue;
    if (entry.name == "Lib") return true;
    if (entry.name != "bin" && entry.name != "lib" && entry.name != "Scripts") continue;
    std::error_code ec;
    for (fs::directory_iterator it(dir / entry.name, ec), end; !ec && it != end; it.increment(ec)) {
      if (starts_with(it->path().filename().string(), "python")) return true;
    }
  }
  return false;
}

std::optional<std::string> read_small_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return std::move(buffer).str();
}

class Walker {
 public:
  explicit Walker(const DiscoveryOptions& options) : m_options(options) {
    std::vector<GlobPattern> patterns;
    for (const std::string& exclude : options.excludes) {
      if (auto pattern = compile_glob(exclude)) patterns.push_back(std::move(*pattern));
    }
    m_excludes = RuleSet("", std::move(patterns));
  }

  DiscoveryResult run(const fs::path& root);

 private:
  void walk_from(PendingDir start);
  void visit(const PendingDir& dir, std::vector<PendingDir>& stack);
  bool list(const PendingDir& dir, std::vector<Entry>& entries);
  const IgnoreScope* scope_for(const PendingDir& dir, const std::vector<Entry>& entries);
  void handle_entry(const PendingDir& dir, const IgnoreScope* scope, Entry& entry, std::vector<PendingDir>& stack);
  void handle_symlink(const IgnoreScope* scope, Entry& entry, const std::string& rel);
  void follow_links();
  void add_file(const fs::path& abs, std::string rel, std::uint64_t size, FileKind kind);
  static std::string cpu_twin(const fs::path& cuda_file);
  bool ignored(const std::string& rel, bool is_dir, const IgnoreScope* scope) const;
  void problem(ProblemKind kind, std::string path, std::string message) {
    m_result.problems.push_back(Problem{kind, std::move(path), 0, 0, std::move(message)});
  }

  bool outside_root(const fs::path& link, const std::string& rel, bool is_dir);

  const DiscoveryOptions& m_options;
  RuleSet m_excludes;
  std::string m_root;                ///< the root's canonical path: symlink targets must lie under it
  std::deque<IgnoreScope> m_scopes;  ///< stable addresses for PendingDir::scope
  std::unordered_map<std::string, std::string> m_visited;  ///< canonical folder -> rel_path it was scanned as
  std::vector<PendingDir> m_links;                         ///< symlinked folders, followed after the walk
  DiscoveryResult m_result;
};

DiscoveryResult Walker::run(const fs::path& root) {
  std::error_code ec;
  const fs::path abs = fs::absolute(root, ec);
  const fs::file_status status = fs::status(abs, ec);
  if (ec || !fs::exists(status)) {
    problem(ProblemKind::unreadable, root.generic_string(),
            "cannot read the scan root: " + (ec ? ec.message() : std::string("no such file or directory")));
  } else if (!fs::is_directory(status)) {
    const std::string name = abs.filename().string();
    if (const auto kind = classify_file(name)) add_file(abs, name, fs::file_size(abs, ec), *kind);
  } else {
    fs::path canonical = fs::canonical(abs, ec);
    m_root = ec ? abs.generic_string() : canonical.generic_string();
    walk_from(PendingDir{abs, "", ec ? abs.generic_string() : canonical.generic_string(), nullptr});
    follow_links();
  }
  std::sort(m_result.files.begin(), m_result.files.end(),
            [](const SourceFile& a, const SourceFile& b) { return a.rel_path < b.rel_path; });
  std::sort(m_result.problems.begin(), m_result.problems.end(), [](const Problem& a, const Problem& b) {
    return std::tie(a.path, a.line, a.column, a.kind, a.message) <
           std::tie(b.path, b.line, b.column, b.kind, b.message);
  });
  return std::move(m_result);
}

void Walker::walk_from(PendingDir start) {
  std::vector<PendingDir> stack;
  stack.push_back(std::move(start));
  while (!stack.empty()) {
    PendingDir dir = std::move(stack.back());
    stack.pop_back();
    visit(dir, stack);
  }
}

/// Lists a folder; false (with an unreadable problem) when it cannot be listed at all.
bool Walker::list(const PendingDir& dir, std::vector<Entry>& entries) {
  std::error_code ec;
  fs::directory_iterator it(dir.abs, ec);
  if (ec) {
    problem(ProblemKind::unreadable, display_rel(dir.rel), "cannot list directory: " + ec.message());
    return false;
  }
  for (const fs::directory_iterator end; it != end; it.increment(ec)) {
    Entry entry{*it, it->path().filename().string(), EntryType::other};
    entry.type = type_of(entry.entry);
    entries.push_back(std::move(entry));
  }
  if (ec) problem(ProblemKind::unreadable, display_rel(dir.rel), "error while listing directory: " + ec.message());
  return true;
}

void Walker::visit(const PendingDir& dir, std::vector<PendingDir>& stack) {
  std::vector<Entry> entries;
  if (!list(dir, entries)) return;
  if (!dir.rel.empty()) {
    DirListingTraits traits;
    for (const Entry& entry : entries) {
      if (entry.name == "pyvenv.cfg" && entry.type != EntryType::directory) traits.has_pyvenv_cfg = true;
      if (marks_build_output(entry.name, entry.type == EntryType::directory)) traits.has_build_output = true;
    }
    const std::string_view name = last_segment(dir.rel);
    if (is_venv_like_name(name)) traits.has_interpreter = holds_interpreter(dir.abs, entries);
    if (is_skipped_dir(name, traits)) return;
  }
  m_visited.emplace(dir.canonical, dir.rel);
  const IgnoreScope* scope = scope_for(dir, entries);
  for (Entry& entry : entries) handle_entry(dir, scope, entry, stack);
}

/// The ignore scope of a folder: its parent's, plus its own .gitignore when it has one.
const IgnoreScope* Walker::scope_for(const PendingDir& dir, const std::vector<Entry>& entries) {
  if (!m_options.respect_gitignore) return nullptr;
  for (const Entry& entry : entries) {
    // Only a real file: a .gitignore symlinked to /dev/zero or outside the root is never read.
    if (entry.name != ".gitignore" || entry.type != EntryType::file) continue;
    std::error_code ec;
    if (entry.entry.file_size(ec) > k_max_gitignore_bytes || ec) {
      problem(ProblemKind::too_large, join_rel(dir.rel, entry.name), "not read: over 1 MiB or unreadable");
      return dir.scope;
    }
    const std::optional<std::string> text = read_small_file(entry.entry.path());
    if (!text) return dir.scope;
    RuleSet rules = RuleSet::parse(dir.rel, *text);
    if (rules.empty()) return dir.scope;
    m_scopes.push_back(IgnoreScope{dir.scope, std::move(rules)});
    return &m_scopes.back();
  }
  return dir.scope;
}

void Walker::handle_entry(const PendingDir& dir, const IgnoreScope* scope, Entry& entry,
                          std::vector<PendingDir>& stack) {
  std::string rel = join_rel(dir.rel, entry.name);
  switch (entry.type) {
    case EntryType::directory: {
      if (is_skipped_dir_name(entry.name) || ignored(rel, true, scope)) return;
      std::string canonical = dir.canonical;
      if (canonical.empty() || canonical.back() != '/') canonical.push_back('/');
      canonical.append(entry.name);
      stack.push_back(PendingDir{entry.entry.path(), std::move(rel), std::move(canonical), scope});
      return;
    }
    case EntryType::file: {
      const auto kind = classify_file(rel);
      if (!kind || ignored(rel, false, scope)) return;
      std::error_code ec;
      const std::uint64_t size = entry.entry.file_size(ec);
      if (ec) {
        problem(ProblemKind::unreadable, rel, "cannot read file size: " + ec.message());
        ++m_result.skipped;
        return;
      }
      add_file(entry.entry.path(), std::move(rel), size, *kind);
      return;
    }
    case EntryType::symlink:
      handle_symlink(scope, entry, rel);
      return;
    case EntryType::other:
      return;
  }
}

void Walker::handle_symlink(const IgnoreScope* scope, Entry& entry, const std::string& rel) {
  std::error_code ec;
  const fs::path& link = entry.entry.path();
  const fs::file_status target = fs::status(link, ec);
  if (ec == std::errc::too_many_symbolic_link_levels) {
    problem(ProblemKind::symlink_loop, rel, "symlink chain loops (" + ec.message() + "); not followed");
    return;
  }
  if (ec || !fs::exists(target)) {
    const auto kind = classify_file(rel);
    // Only report links that could have been something we read: a known file kind or a folder name.
    if ((!kind && entry.name.find('.') != std::string::npos) || ignored(rel, false, scope)) return;
    std::error_code read_ec;
    const std::string points_to = fs::read_symlink(link, read_ec).generic_string();
    problem(ProblemKind::unreadable, rel,
            "dangling symlink to '" + points_to + "': " + (ec ? ec.message() : std::string("target does not exist")));
    if (kind) ++m_result.skipped;
    return;
  }
  if (fs::is_directory(target)) {
    if (is_skipped_dir_name(entry.name) || ignored(rel, true, scope)) return;
    if (outside_root(link, rel, true)) return;
    m_links.push_back(PendingDir{link, rel, std::string(), scope});
    return;
  }
  if (!fs::is_regular_file(target)) return;
  const auto kind = classify_file(rel);
  if (!kind || ignored(rel, false, scope)) return;
  if (outside_root(link, rel, false)) {
    ++m_result.skipped;
    return;
  }
  const std::uint64_t size = fs::file_size(link, ec);
  add_file(link, rel, ec ? 0 : size, *kind);
}

/// Follows deferred symlinked folders, in rel_path order, until no new ones appear.
void Walker::follow_links() {
  while (!m_links.empty()) {
    std::vector<PendingDir> round = std::move(m_links);
    m_links.clear();
    std::sort(round.begin(), round.end(), [](const PendingDir& a, const PendingDir& b) { return a.rel < b.rel; });
    for (PendingDir& link : round) {
      std::error_code ec;
      const std::string points_to = fs::read_symlink(link.abs, ec).generic_string();
      const fs::path canonical = fs::canonical(link.abs, ec);
      if (ec) {
        problem(ProblemKind::unreadable, link.rel, "cannot resolve symlink to '" + points_to + "': " + ec.message());
        continue;
      }
      const auto seen = m_visited.find(canonical.generic_string());
      if (seen != m_visited.end()) {
        const std::string& other = seen->second;
        const bool ancestor = other.empty() || starts_with(link.rel, other + "/");
        problem(ProblemKind::symlink_loop, link.rel,
                "symlink to '" + points_to + "' " +
                    (ancestor ? "loops back to its ancestor folder '" : "leads to a folder already scanned as '") +
                    display_rel(other) + "'; not followed");
        continue;
      }
      link.canonical = canonical.generic_string();
      walk_from(std::move(link));
    }
  }
}

/// True (with a problem naming the link, never the target's content) when a symlink resolves
/// outside the scan root and --follow-external-symlinks is off.
bool Walker::outside_root(const fs::path& link, const std::string& rel, bool is_dir) {
  if (m_options.follow_external_symlinks) return false;
  std::error_code ec;
  const std::string target = fs::canonical(link, ec).generic_string();
  const bool inside = !ec && (target == m_root || starts_with(target, m_root == "/" ? m_root : m_root + "/"));
  if (inside) return false;
  const std::string points_to = fs::read_symlink(link, ec).generic_string();
  problem(ProblemKind::outside_root, rel,
          std::string("symlink to ") + (is_dir ? "a folder" : "a file") + " outside the scan root ('" + points_to +
              "'); not followed (--follow-external-symlinks reads it)");
  return true;
}

/// `box_iou_rotated_cuda.cu` -> `box_iou_rotated_cpu.cpp` when that file is beside it (also without a
/// `_kernel` suffix, and .cc/.cxx/.c): the op's CPU implementation. Only its existence is checked.
std::string Walker::cpu_twin(const fs::path& cuda_file) {
  const std::string stem = cuda_file.stem().string();
  std::string lower = stem;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  const auto at = lower.rfind("cuda");
  if (at == std::string::npos) return {};
  const bool upper = std::isupper(static_cast<unsigned char>(stem[at])) != 0;
  std::string base = stem.substr(0, at) + (upper ? "CPU" : "cpu") + stem.substr(at + 4);
  std::vector<std::string> bases{base};
  if (ends_with(base, "_kernel")) bases.push_back(base.substr(0, base.size() - 7));
  for (const auto& b : bases) {
    for (const char* ext : {".cpp", ".cc", ".cxx", ".c"}) {
      std::error_code ec;
      const fs::path twin = cuda_file.parent_path() / (b + ext);
      if (fs::is_regular_file(twin, ec)) return b + ext;
    }
  }
  return {};
}

void Walker::add_file(const fs::path& abs, std::string rel, std::uint64_t size, FileKind kind) {
  if (kind == FileKind::config && (size > k_max_config_bytes || is_test_path(rel))) return;  // data, not settings
  if (size > m_options.max_file_size) {
    problem(ProblemKind::too_large, rel,
            "file is " + format_size(size) + ", over the " + format_size(m_options.max_file_size) +
                " limit (--max-file-size)");
    ++m_result.skipped;
    return;
  }
  SourceFile file;
  file.is_test = is_test_path(rel);
  file.rel_path = std::move(rel);
  file.abs_path = abs;
  file.kind = kind;
  file.size = size;
  if (kind == FileKind::cuda_source) file.cpu_twin = cpu_twin(abs);
  m_result.files.push_back(std::move(file));
}

/// --exclude patterns take precedence; then the deepest .gitignore with a matching pattern decides.
bool Walker::ignored(const std::string& rel, bool is_dir, const IgnoreScope* scope) const {
  if (const auto excluded = m_excludes.decide(rel, is_dir)) return *excluded;
  for (const IgnoreScope* s = scope; s != nullptr; s = s->parent) {
    if (const auto decision = s->rules.decide(rel, is_dir)) return *decision;
  }
  return false;
}

}  // namespace

DiscoveryResult discover(const std::filesystem::path& root, const DiscoveryOptions& options) {
  return Walker(options).run(root);
}

}  // namespace tr2audit::discover
