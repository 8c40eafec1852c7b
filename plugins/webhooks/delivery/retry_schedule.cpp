#include "delivery/retry_schedule.hpp"

#include <algorithm>
#include <cmath>

namespace opbase::webhooks {

std::optional<int64_t> retry_delay_ms(const std::vector<int64_t>& delays_ms, int attempts_made,
                                      double unit_random) {
  if (attempts_made < 1 || attempts_made > static_cast<int>(delays_ms.size())) return std::nullopt;
  const double spread = 0.8 + 0.4 * std::clamp(unit_random, 0.0, 1.0);
  return std::llround(static_cast<double>(delays_ms[attempts_made - 1]) * spread);
}

}  // namespace opbase::webhooks
