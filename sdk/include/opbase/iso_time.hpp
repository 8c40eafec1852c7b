// Times as documents and events carry them: ISO 8601 UTC with milliseconds.
// Thread-safety: pure function.
#pragma once

#include <cstdint>
#include <string>

namespace opbase {

// "2026-11-22T08:05:23.123Z". A negative time reads as the epoch.
std::string iso_time(int64_t unix_ms);

}  // namespace opbase
