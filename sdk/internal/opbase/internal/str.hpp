// Conversions between the ABI's byte strings (opbase_str) and std::string_view, used on both
// sides of the plugin edge. A NULL pointer reads as empty. Thread-safe.
#pragma once

#include <string_view>

#include "opbase/abi.h"

namespace opbase {

inline std::string_view view(opbase_str s) {
  return s.ptr ? std::string_view{s.ptr, s.len} : std::string_view{};
}

// OWNERSHIP: the result borrows `s`'s bytes; keep them alive while it is used.
inline opbase_str str(std::string_view s) { return {s.data(), s.size()}; }

}  // namespace opbase
