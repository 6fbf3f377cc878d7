#include "tr2audit/gate/diff.hpp"

#include <algorithm>
#include <limits>

#include "tr2audit/core/text.hpp"
#include "tr2audit/gate/git.hpp"

namespace tr2audit::gate {
namespace {

/// Undoes git's C-style quoting of a path ("a\tb", octal escapes for bytes); plain paths pass through.
std::string unquote_path(std::string_view text) {
  if (text.size() < 2 || text.front() != '"' || text.back() != '"') return std::string(text);
  std::string out;
  for (std::size_t i = 1; i + 1 < text.size(); ++i) {
    if (text[i] != '\\' || i + 2 >= text.size()) {
      out.push_back(text[i]);
      continue;
    }
    const char next = text[++i];
    if (next >= '0' && next <= '7' && i + 2 < text.size()) {
      out.push_back(static_cast<char>(((next - '0') << 6) | ((text[i + 1] - '0') << 3) | (text[i + 2] - '0')));
      i += 2;
    } else {
      out.push_back(next == 't' ? '\t' : next == 'n' ? '\n' : next == 'r' ? '\r' : next);
    }
  }
  return out;
}

std::uint32_t to_number(std::string_view digits) {
  std::uint32_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') break;
    value = value * 10 + static_cast<std::uint32_t>(c - '0');
  }
  return value;
}

/// "+c,d" (d defaults to 1) from "@@ -a,b +c,d @@ ..."; false when the header is malformed.
bool new_side(std::string_view header, std::uint32_t& first, std::uint32_t& count) {
  const std::size_t plus = header.find(" +");
  if (plus == std::string_view::npos) return false;
  std::string_view range = header.substr(plus + 2);
  range = range.substr(0, range.find(' '));
  const std::size_t comma = range.find(',');
  first = to_number(range.substr(0, comma));
  count = comma == std::string_view::npos ? 1 : to_number(range.substr(comma + 1));
  return true;
}

}  // namespace

void ChangedLines::add(const std::string& path, std::uint32_t first, std::uint32_t last) {
  auto& ranges = m_ranges[path];
  ranges.emplace_back(first, last);
  std::sort(ranges.begin(), ranges.end());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> merged;
  for (const auto& range : ranges) {
    if (!merged.empty() && range.first <= merged.back().second + 1) {
      merged.back().second = std::max(merged.back().second, range.second);
    } else {
      merged.push_back(range);
    }
  }
  ranges = std::move(merged);
}

bool ChangedLines::contains(const std::string& path, std::uint32_t line) const {
  const auto it = m_ranges.find(path);
  if (it == m_ranges.end()) return false;
  return std::any_of(it->second.begin(), it->second.end(),
                     [&](const auto& range) { return line >= range.first && line <= range.second; });
}

ChangedLines parse_unified_diff(std::string_view diff) {
  ChangedLines changed;
  std::string current;  // "" while in a deleted file or before the first header
  for (std::string_view line : split(diff, '\n')) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (starts_with(line, "+++ ")) {
      std::string path = unquote_path(line.substr(4));
      current = starts_with(path, "b/") ? path.substr(2) : (path == "/dev/null" ? "" : path);
      continue;
    }
    if (starts_with(line, "diff --git ")) {
      current.clear();
      continue;
    }
    std::uint32_t first = 0, count = 0;
    if (current.empty() || !starts_with(line, "@@ ") || !new_side(line, first, count) || count == 0) continue;
    changed.add(current, first, first + count - 1);
  }
  return changed;
}

std::optional<DiffContext> load_diff(const std::filesystem::path& root, const std::string& ref, std::string& error) {
  std::error_code ec;
  if (!std::filesystem::is_directory(root, ec)) {
    error = "--diff-base needs the scan root to be a folder inside a git work tree";
    return std::nullopt;
  }
  const ProcessResult inside = run_git({"rev-parse", "--is-inside-work-tree", "--show-prefix"}, root);
  if (inside.exit_code != 0 || !starts_with(inside.out, "true")) {
    error = inside.exit_code == -1 || inside.exit_code == 127 ? "cannot run git: " + std::string(trim(inside.err))
                                                              : root.string() + " is not inside a git work tree";
    return std::nullopt;
  }
  DiffContext context;
  context.ref = ref;
  const auto lines = split(trim(inside.out), '\n');
  context.prefix = lines.size() > 1 ? std::string(trim(lines[1])) : "";
  const ProcessResult base = run_git({"merge-base", "--end-of-options", ref, "HEAD"}, root);
  if (base.exit_code != 0) {
    const ProcessResult known =
        run_git({"rev-parse", "--verify", "--quiet", "--end-of-options", ref + "^{commit}"}, root);
    error = known.exit_code != 0 ? "unknown git ref '" + ref + "' (fetch it first, e.g. git fetch origin main)"
                                 : "no merge base between '" + ref + "' and HEAD (is the clone shallow?)";
    return std::nullopt;
  }
  context.merge_base = std::string(trim(base.out));
  const ProcessResult diff = run_git({"diff", "--unified=0", "--no-color", "--no-ext-diff", "--no-textconv", "-M",
                                      "--relative", context.merge_base, "HEAD", "--"},
                                     root);
  if (diff.exit_code != 0) {
    error = "git diff failed: " + std::string(trim(diff.err));
    return std::nullopt;
  }
  context.changed = parse_unified_diff(diff.out);
  return context;
}

}  // namespace tr2audit::gate
