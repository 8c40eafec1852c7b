// An Apertium mode as programs to start: the command line `apertium-wblank-mode -z <mode file>`
// prints (a pipeline in which every program flushes at each NUL) parsed into one argument vector
// per program, with $1 and $2 replaced, and no shell involved. Only the little shell syntax that
// command uses is accepted: words, '...' and "..." quoting, backslash escapes, | between
// programs, and $1/$2 (a bare one that is empty vanishes, as in a shell). Anything else (;, &,
// redirections, other expansions) is refused rather than guessed at.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "opbase/status.hpp"

namespace opbase::ai {

// One program: argv[0] is the program as the mode names it.
using Stage = std::vector<std::string>;

// `positional` gives $1, $2...; a missing one is empty. The error is a validation Status whose
// message says what was refused.
Result<std::vector<Stage>> parse_pipeline(std::string_view command,
                                          const std::vector<std::string>& positional);

}  // namespace opbase::ai
