#include "vocabulary.hpp"

#include "tr2audit/facts/facts_json.hpp"

namespace tr2audit::rules {

const Vocabulary<facts::Guard>& guard_vocabulary() {
  static const Vocabulary<facts::Guard> k_words = [] {
    Vocabulary<facts::Guard> words;
    for (facts::Guard guard : facts::k_all_guards) words.emplace_back(facts::to_string(guard), guard);
    return words;
  }();
  return k_words;
}

const Vocabulary<facts::DeviceUse>& device_use_vocabulary() {
  static const Vocabulary<facts::DeviceUse> k_words{
      {"call-argument", facts::DeviceUse::call_argument},
      {"assignment", facts::DeviceUse::assignment},
      {"comparison", facts::DeviceUse::comparison},
      {"other", facts::DeviceUse::other},
      {"parameter-default", facts::DeviceUse::parameter_default},
  };
  return k_words;
}

const Vocabulary<facts::ImportOrigin>& origin_vocabulary() {
  static const Vocabulary<facts::ImportOrigin> k_words{
      {"external", facts::ImportOrigin::external},
      {"local-source", facts::ImportOrigin::local_source},
      {"local-missing", facts::ImportOrigin::local_missing},
  };
  return k_words;
}

const Vocabulary<facts::Region>& region_vocabulary() {
  static const Vocabulary<facts::Region> k_words = [] {
    Vocabulary<facts::Region> words;
    for (facts::Region region : facts::all_regions()) words.emplace_back(facts::to_string(region), region);
    return words;
  }();
  return k_words;
}

const Vocabulary<discover::FileKind>& file_kind_vocabulary() {
  static const Vocabulary<discover::FileKind> k_words{
      {"python", discover::FileKind::python},         {"python-stub", discover::FileKind::python_stub},
      {"notebook", discover::FileKind::notebook},     {"cuda-source", discover::FileKind::cuda_source},
      {"cxx-header", discover::FileKind::cxx_header}, {"requirements", discover::FileKind::requirements},
      {"pyproject", discover::FileKind::pyproject},   {"setup-cfg", discover::FileKind::setup_cfg},
      {"dockerfile", discover::FileKind::dockerfile}, {"conda-env", discover::FileKind::conda_env},
      {"config", discover::FileKind::config},
  };
  return k_words;
}

}  // namespace tr2audit::rules
