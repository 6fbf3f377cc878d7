// The HTML report's charts: the readiness gauge (inline SVG) and horizontal bar charts (HTML grid). Coordinates are
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

std::string bar_chart(std::string_view title, const std::vector<std::pair<std::string, std::uint32_t>>& bars) {
  std::uint32_t max = 1;
  for (const auto& bar : bars) max = std::max(max, bar.second);
  std::string html = "<figure class=\"chart\"><figcaption>" + escape(title) + "</figcaption><div class=\"bars\">";
  if (bars.empty()) html += "<span class=\"muted\">no findings</span>";
  for (const auto& [label, count] : bars) {
    // Labels wrap at '/' boundaries and stay whole (never clipped on the left); the bar scales to the row.
    std::string text;
    for (char c : escape(label)) text += c == '/' ? std::string("/<wbr>") : std::string(1, c);
    html += "<span class=\"bar-label\" title=\"" + escape(label) + "\">" + text +
            "</span><span class=\"bar-track\"><span class=\"bar\" style=\"width:" +
            fixed(std::max(1.0, 100.0 * count / max)) + "%\"></span></span><span class=\"bar-count\">" +
            std::to_string(count) + "</span>";
  }
  return html + "</div></figure>";
}

}  // namespace tr2audit::report::html
