// Time for the host: the wall clock in Unix milliseconds (its ISO 8601 form is
// opbase/iso_time.hpp). Thread-safe.
#pragma once

#include <cstdint>
#include <string>

namespace opbase::host {

int64_t system_now_ms();

}  // namespace opbase::host
