// rules/yaml_load: the rules' name for the one bounded YAML loader, which lives in core
// (core/yaml_load) so that facts can read config files through it too.
#pragma once
#include "tr2audit/core/yaml_load.hpp"

namespace tr2audit::rules {
using tr2audit::expanded_node_count;
using tr2audit::load_yaml_document;
using tr2audit::YamlDocument;
using tr2audit::YamlLimits;
}  // namespace tr2audit::rules
