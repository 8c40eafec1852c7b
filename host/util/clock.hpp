// Time for the host: the wall clock in Unix milliseconds and its ISO 8601 form.
// Thread-safe.
#pragma once

#include <cstdint>
#include <string>

namespace opbase::host {

int64_t system_now_ms();
// "2026-11-22T10:00:00.123Z" (UTC, milliseconds).
std::string format_iso8601_ms(int64_t unix_ms);

}  // namespace opbase::host
