// Inline SVG for the HTML report: the readiness gauge and horizontal bar charts. Coordinates are
// printed with fixed precision so the same report gives the same bytes.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "html_assets.hpp"

namespace tr2audit::report::html {
namespace {

std::string fixed(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", value);
  return buffer;
}

/// The point at `fraction` (0..1) along the upper half circle, from the left end to the right end.
std::string arc_point(double cx, double cy, double r, double fraction) {
  const double angle = M_PI * (1.0 - fraction);
  return fixed(cx + r * std::cos(angle)) + " " + fixed(cy - r * std::sin(angle));
}

}  // namespace

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string gauge_svg(std::uint32_t readiness, std::string_view tone, std::string_view caption) {
  const double fraction = std::min<std::uint32_t>(readiness, 100) / 100.0;
  const double cx = 110, cy = 110, r = 90;
  std::string svg =
      "<svg class=\"gauge\" role=\"img\" width=\"220\" height=\"140\" viewBox=\"0 0 220 140\" "
      "xmlns=\"http://www.w3.org/2000/svg\"><title>Readiness " +
      std::to_string(readiness) + " of 100</title>";
  svg += "<path d=\"M " + arc_point(cx, cy, r, 0) + " A 90 90 0 0 1 " + arc_point(cx, cy, r, 1) +
         "\" fill=\"none\" stroke=\"#d0d7de\" stroke-width=\"18\"/>";
  if (fraction > 0) {
    svg += "<path d=\"M " + arc_point(cx, cy, r, 0) + " A 90 90 0 0 1 " + arc_point(cx, cy, r, fraction) +
           "\" fill=\"none\" stroke=\"" + escape(tone) + "\" stroke-width=\"18\"/>";
  }
  svg += "<text x=\"110\" y=\"100\" text-anchor=\"middle\" font-size=\"34\" font-weight=\"700\" fill=\"#1b1f24\">" +
         std::to_string(readiness) + "</text>";
  svg += "<text x=\"110\" y=\"130\" text-anchor=\"middle\" font-size=\"13\" fill=\"#57606a\">" + escape(caption) +
         "</text></svg>";
  return svg;
}

std::string bar_chart_svg(std::string_view title, const std::vector<std::pair<std::string, std::uint32_t>>& bars) {
  std::uint32_t max = 1;
  for (const auto& bar : bars) max = std::max(max, bar.second);
  const int row = 22, label_width = 180, bar_width = 220;
  const int height = std::max<int>(row, static_cast<int>(bars.size()) * row) + 4;
  std::string svg = "<figure class=\"chart\"><figcaption>" + escape(title) + "</figcaption><svg role=\"img\" width=\"" +
                    std::to_string(label_width + bar_width + 50) + "\" height=\"" + std::to_string(height) +
                    "\" xmlns=\"http://www.w3.org/2000/svg\">";
  if (bars.empty()) svg += "<text x=\"0\" y=\"15\">no findings</text>";
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const int y = static_cast<int>(i) * row;
    const double width = std::max(2.0, static_cast<double>(bar_width) * bars[i].second / max);
    svg += "<text x=\"" + std::to_string(label_width - 6) + "\" y=\"" + std::to_string(y + 15) +
           "\" text-anchor=\"end\">" + escape(bars[i].first) + "</text>";
    svg += "<rect x=\"" + std::to_string(label_width) + "\" y=\"" + std::to_string(y + 3) + "\" width=\"" +
           fixed(width) + "\" height=\"16\" rx=\"3\" fill=\"#0969da\"/>";
    svg += "<text x=\"" + fixed(label_width + width + 6) + "\" y=\"" + std::to_string(y + 15) + "\">" +
           std::to_string(bars[i].second) + "</text>";
  }
  return svg + "</svg></figure>";
}

}  // namespace tr2audit::report::html
