// pilot/burden (private): the compile-burden estimate from the shape sources the rules found.
#pragma once
#include "pilot/settings.hpp"

namespace tr2audit::pilot::detail {

CompileBurden estimate_burden(const std::vector<rules::Finding>& findings, const SettingTable& table);

/// Pad targets that cap the number of sequence shapes: multiples of 128 up to max_length, or
/// powers of two from 128 when that would be more than 8 buckets (max_length always included).
std::vector<std::uint32_t> propose_buckets(std::uint32_t max_length);

}  // namespace tr2audit::pilot::detail
