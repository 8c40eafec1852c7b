// When a failed delivery is tried again (docs/api.md#delivery): after attempt n fails, wait
// delays[n-1] (5 s, 30 s, 2 min, 10 min, 1 h by default) spread by +-20 % so that receivers coming
// back from an outage are not hit by every retry at the same moment; after the last delay's attempt
// fails, the message is failed for good (kept for inspection and a manual resend). Thread-safety:
// pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace opbase::webhooks {

// The wait before the next attempt after `attempts_made` attempts all failed, or nullopt when
// no retry is left. `unit_random` in [0, 1) picks the point in the +-20 % band.
std::optional<int64_t> retry_delay_ms(const std::vector<int64_t>& delays_ms, int attempts_made,
                                      double unit_random);

}  // namespace opbase::webhooks
