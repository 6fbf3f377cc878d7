// cli/exit_codes: the documented process exit codes (README "Exit codes").
#pragma once

namespace tr2audit::cli {

inline constexpr int k_exit_ok = 0;           ///< scan finished, gate passed
inline constexpr int k_exit_gate_failed = 1;  ///< scan finished, gate failed
inline constexpr int k_exit_usage = 2;        ///< usage or configuration error (bad flag, rule file, config)
inline constexpr int k_exit_internal = 3;     ///< internal error or incomplete scan

}  // namespace tr2audit::cli
