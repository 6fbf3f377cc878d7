// facts/facts_json: FileFacts as JSON, for `tr2audit debug facts` and for tests that compare facts.
#pragma once
#include <iterator>
#include <nlohmann/json.hpp>

#include "tr2audit/facts/facts.hpp"

namespace tr2audit::facts {

/// Every fact with its span and context (function and class by qualname, guards by name).
nlohmann::ordered_json to_json(const FileFacts& file);

/// Every guard, in bit order: the one list that reports, rule files and debug output name guards from.
inline constexpr Guard k_all_guards[] = {
    Guard::cuda_available, Guard::import_error_fallback, Guard::device_branch, Guard::neuron_branch,
    Guard::main_block,     Guard::type_checking,         Guard::no_grad,       Guard::except_handler,
    Guard::periodic,       Guard::step_closure,          Guard::opt_in,        Guard::not_training,
    Guard::message_only,   Guard::error_message,         Guard::failure_path,  Guard::non_finite};
static_assert(std::size(k_all_guards) == k_guard_count, "k_all_guards must list every Guard");

/// The kebab-case name of a guard ("cuda-available").
std::string_view to_string(Guard guard);

/// Kebab names of the guards in a Guard bit set, in bit order ("cuda-available", ...).
std::vector<std::string> guard_names(std::uint16_t guards);

std::string_view to_string(ImportOrigin origin);
std::string_view to_string(LiteralKind kind);
std::string_view to_string(DeviceUse use);

}  // namespace tr2audit::facts
