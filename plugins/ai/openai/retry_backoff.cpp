#include "openai/retry_backoff.hpp"

#include <algorithm>
#include <random>

namespace opbase::ai {

bool is_retryable_status(int status) {
  return status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
}

std::chrono::milliseconds backoff_delay(int retry, std::chrono::milliseconds base,
                                        double random01) {
  const int doublings = std::clamp(retry - 1, 0, 20);
  const auto full =
      std::min<std::chrono::milliseconds>(base * (int64_t{1} << doublings), kMaxBackoff);
  const double jitter = std::clamp(random01, 0.0, 1.0) * static_cast<double>(full.count()) / 2;
  return full / 2 + std::chrono::milliseconds(static_cast<int64_t>(jitter));
}

// Jitter need only spread retries apart, not be unpredictable: <random>, not the CSPRNG.
double jitter_draw() {
  thread_local std::mt19937_64 generator{std::random_device{}()};
  return std::uniform_real_distribution<double>(0.0, 1.0)(generator);
}

}  // namespace opbase::ai
