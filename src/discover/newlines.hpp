// discover/newlines (private): line-end normalisation shared by load_source and notebooks.
#pragma once
#include <string>
#include <string_view>

namespace tr2audit::discover {

/// "\r\n" and a lone "\r" become "\n", so every later stage counts lines the same way.
std::string normalize_newlines(std::string_view text);

}  // namespace tr2audit::discover
