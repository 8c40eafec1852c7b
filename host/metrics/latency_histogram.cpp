#include "metrics/latency_histogram.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace opbase::host {

void LatencyHistogram::observe(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) seconds = 0;
  for (size_t i = 0; i < kBuckets.size(); ++i) {
    if (seconds <= kBuckets[i]) {
      buckets_[i].fetch_add(1, std::memory_order_relaxed);
      break;
    }
  }
  count_.fetch_add(1, std::memory_order_relaxed);
  // Whole microseconds, rounded: truncating would lose up to 1 µs a call.
  sum_us_.fetch_add(static_cast<uint64_t>(std::llround(std::min(seconds, 1e9) * 1e6)),
                    std::memory_order_relaxed);
}

void LatencyHistogram::render(std::string& out, std::string_view name,
                              std::string_view labels) const {
  const std::string prefix = labels.empty() ? "{" : "{" + std::string(labels) + ",";
  const std::string own = labels.empty() ? "" : "{" + std::string(labels) + "}";
  char number[64];
  uint64_t cumulative = 0;
  for (size_t i = 0; i < kBuckets.size(); ++i) {
    cumulative += buckets_[i].load(std::memory_order_relaxed);
    std::snprintf(number, sizeof number, "%g", kBuckets[i]);
    out.append(name).append("_bucket").append(prefix).append("le=\"").append(number);
    out.append("\"} ").append(std::to_string(cumulative)).append("\n");
  }
  const uint64_t total = count();
  out.append(name).append("_bucket").append(prefix).append("le=\"+Inf\"} ");
  out.append(std::to_string(total)).append("\n");
  std::snprintf(number, sizeof number, "%.6f",
                static_cast<double>(sum_us_.load(std::memory_order_relaxed)) / 1e6);
  out.append(name).append("_sum").append(own).append(" ").append(number).append("\n");
  out.append(name).append("_count").append(own).append(" ").append(std::to_string(total));
  out.append("\n");
}

}  // namespace opbase::host
