// score/names: the report spellings of Verdict and Effort.
#include "tr2audit/score/assessment.hpp"

namespace tr2audit::score {

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::gpu_keep:
      return "gpu-keep";
    case Verdict::trainium2_pilot:
      return "trainium2-pilot";
    case Verdict::dual_run:
      return "dual-run";
  }
  return "dual-run";
}

std::optional<Verdict> parse_verdict(std::string_view text) {
  for (Verdict verdict : {Verdict::gpu_keep, Verdict::trainium2_pilot, Verdict::dual_run}) {
    if (to_string(verdict) == text) return verdict;
  }
  return std::nullopt;
}

std::string_view to_string(Effort effort) {
  switch (effort) {
    case Effort::none:
      return "none";
    case Effort::low:
      return "low";
    case Effort::medium:
      return "medium";
    case Effort::high:
      return "high";
  }
  return "none";
}

}  // namespace tr2audit::score
