// facts/facts_json: FileFacts as JSON, for `tr2audit debug facts` and for tests that compare facts.
#pragma once
#include <nlohmann/json.hpp>

#include "tr2audit/facts/facts.hpp"

namespace tr2audit::facts {

/// Every fact with its span and context (function and class by qualname, guards by name).
nlohmann::ordered_json to_json(const FileFacts& file);

/// Kebab names of the guards in a Guard bit set, in bit order ("cuda-available", ...).
std::vector<std::string> guard_names(std::uint16_t guards);

std::string_view to_string(ImportOrigin origin);
std::string_view to_string(LiteralKind kind);
std::string_view to_string(DeviceUse use);

}  // namespace tr2audit::facts
