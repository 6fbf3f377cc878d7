// facts/launch_flags: the command-line flags a shell script passes to a training launch
// (`torchrun ... train.py --tf32 True --deepspeed ds.json`), as settings the config rules judge like a
// recipe's keys. Read from the text; nothing in the script is run.
#pragma once
#include <string_view>
#include <vector>

#include "tr2audit/facts/facts.hpp"

namespace tr2audit::facts {

/// One SettingFact per `--name value` / `--name=value` / bare `--name` (value "True") on the logical lines
/// (backslash continuations joined) whose command is python/python3, torchrun, deepspeed, accelerate or
/// `python -m torch.distributed.run` (after `VAR=value` prefixes). key: the flag without its dashes; at: the
/// flag's own line and column. At most k_max_settings per script.
std::vector<SettingFact> read_launch_flags(std::string_view text);
/// The script each such launch line runs (its first `*.py` word, or the module after `-m`), in order,
/// whether or not the line passes flags.
std::vector<FactString> read_launched_programs(std::string_view text);

}  // namespace tr2audit::facts
