#include <array>

#include "renderers.hpp"
#include "tr2audit/report/report.hpp"

namespace tr2audit::report {
namespace {

constexpr std::array k_formats{
    Format{"text", "txt", "human-readable report: verdict, reasons, plan, findings with code", render_text},
    Format{"json", "json", "the report contract (docs/report-format.md) for dashboards and scripts", render_json},
    Format{"sarif", "sarif", "SARIF 2.1.0 for GitHub code scanning and SARIF viewers", render_sarif},
    Format{"markdown", "md", "a pull-request comment: verdict badge, reasons, top findings, plan", render_markdown},
    Format{"html", "html", "one self-contained page: gauge, charts, sortable findings table, plan", render_html},
    Format{"plan", "yaml", "the pilot request as YAML: fields with locations, compile burden, platform checks",
           render_plan_yaml},
};

}  // namespace

std::span<const Format> formats() {
  return k_formats;
}

const Format* find_format(std::string_view name) {
  for (const Format& format : k_formats) {
    if (format.name == name) return &format;
  }
  return nullptr;
}

}  // namespace tr2audit::report
