// Links from the Markdown and HTML reports to code: repo-relative by default, absolute under --link-base.
#include "renderers.hpp"

namespace tr2audit::report {

std::string repo_path(const Report& report, std::string_view path) {
  std::string out = report.scan.git ? report.scan.git->prefix : std::string();
  out.append(path);
  return out;
}

std::string code_url(const Report& report, const RenderOptions& options, std::string_view path, std::uint32_t line) {
  static constexpr char k_hex[] = "0123456789ABCDEF";
  std::string target;
  if (!options.link_base.empty()) {
    target = options.link_base;
    while (!target.empty() && target.back() == '/') target.pop_back();
    target += '/';
  }
  for (char c : repo_path(report, path)) {
    const auto byte = static_cast<unsigned char>(c);
    const bool keep = (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9') ||
                      byte == '-' || byte == '.' || byte == '_' || byte == '~' || byte == '/';
    if (keep) {
      target += c;
    } else {
      target += '%';
      target += k_hex[byte >> 4];
      target += k_hex[byte & 0xF];
    }
  }
  if (line > 0) target += "#L" + std::to_string(line);
  return target;
}

std::pair<std::string_view, std::uint32_t> split_location(std::string_view location) {
  const std::size_t colon = location.rfind(':');
  if (colon == std::string_view::npos || colon + 1 == location.size()) return {location, 0};
  std::uint32_t line = 0;
  for (char c : location.substr(colon + 1)) {
    if (c < '0' || c > '9') return {location, 0};
    line = line * 10 + static_cast<std::uint32_t>(c - '0');
  }
  return {location.substr(0, colon), line};
}

}  // namespace tr2audit::report
