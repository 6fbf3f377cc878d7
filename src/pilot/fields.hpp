// pilot/fields (private): the request's fields from the setting table, the calls of the training
// code and the training setup.
#pragma once
#include <string_view>
#include <vector>

#include "pilot/settings.hpp"

namespace tr2audit::pilot::detail {

/// Every key some field (or the compile-burden estimate, or a check) looks up: what config files are read for.
std::vector<std::string_view> known_keys();

/// One FieldValue per Field, in Field order.
std::vector<FieldValue> fill_fields(const PilotInput& input, const SettingTable& table);

/// The first literal value of a key (call keywords resolved through names), or nullopt.
std::optional<Evidence> first_value(const SettingTable& table, std::string_view key);

}  // namespace tr2audit::pilot::detail
