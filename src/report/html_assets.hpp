// Private to the HTML report: the inline stylesheet and script (no network, no external fonts).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tr2audit::report::html {

/// The page's CSS.
std::string_view stylesheet();
/// The page's script: the sortable, filterable findings table over the embedded JSON data; records
/// console errors into #console-errors and sets body[data-ready="1"] when initialised.
std::string_view script();

/// Text escaped for HTML element content and attribute values.
std::string escape(std::string_view text);

/// A semicircular readiness gauge (0..100) as inline SVG, coloured by `tone` (a CSS colour).
std::string gauge_svg(std::uint32_t readiness, std::string_view tone, std::string_view caption);

/// A horizontal bar chart (an HTML grid: label, bar, count): one bar per (label, count), in the given order.
std::string bar_chart(std::string_view title, const std::vector<std::pair<std::string, std::uint32_t>>& bars);

}  // namespace tr2audit::report::html
