// pilot/checks (private): the platform checks and the logging the comparison record needs.
#pragma once
#include "pilot/settings.hpp"

namespace tr2audit::pilot::detail {

std::vector<PlatformCheck> platform_checks(const PilotInput& input, const SettingTable& table,
                                           const std::vector<LoggedField>& logged);

/// For each field of the comparison record the code can log: where it already does.
std::vector<LoggedField> logged_fields(const PilotInput& input, const SettingTable& table);

}  // namespace tr2audit::pilot::detail
