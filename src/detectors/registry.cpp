#include "tr2audit/detectors/detector.hpp"

namespace tr2audit::detectors {

#define X(Class, id) std::unique_ptr<Detector> make_##Class();
#include "detectors/detectors.def"
#undef X

std::vector<std::unique_ptr<Detector>> make_all_detectors() {
  std::vector<std::unique_ptr<Detector>> all;
#define X(Class, id) all.push_back(make_##Class());
#include "detectors/detectors.def"
#undef X
  return all;
}

std::vector<std::string> detector_ids() {
  return {
#define X(Class, id) id,
#include "detectors/detectors.def"
#undef X
  };
}

}  // namespace tr2audit::detectors
