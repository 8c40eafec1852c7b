// LatencyHistogram: one Prometheus histogram series of durations in seconds, over the buckets
// every latency of /metrics shares (0.5 ms … 10 s): the requests of each op, the store's calls,
// the plugins' own histograms.
// Thread-safety: observe() and render() from any thread, without locks.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

namespace opbase::host {

class LatencyHistogram {
 public:
  static constexpr std::array<double, 14> kBuckets = {
      0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

  // A negative or non-finite duration counts as 0.
  void observe(double seconds);

  // Appends the series' <name>_bucket (cumulative), <name>_sum and <name>_count lines to `out`.
  // `labels` is "" or the series' own labels, e.g. `op="echo.ping"`.
  void render(std::string& out, std::string_view name, std::string_view labels) const;

  uint64_t count() const { return count_.load(std::memory_order_relaxed); }

 private:
  std::array<std::atomic<uint64_t>, kBuckets.size()> buckets_{};
  std::atomic<uint64_t> count_{0};
  std::atomic<uint64_t> sum_us_{0};
};

}  // namespace opbase::host
