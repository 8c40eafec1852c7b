// Metrics: counters and histograms the daemon exposes at GET /metrics in the Prometheus text
// format. Op labels are only ever registered op names (or "unknown"/"none"), so a client cannot
// grow the label set by sending made-up op names.
// Thread-safety: record_* from any thread; render from any thread.
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "metrics/latency_histogram.hpp"

namespace opbase::host {

// A label value escaped for the Prometheus text format (backslash, quote, newline), for values
// that come from outside the host, such as a plugin's version string.
std::string prometheus_label(std::string_view value);

class Metrics {
 public:
  static constexpr auto kLatencyBuckets = LatencyHistogram::kBuckets;

  // One finished API request: `op` a registered name or "unknown"/"none"; `code` "OK" or the
  // error code.
  void record_request(std::string_view op, std::string_view code, double seconds);

  void request_started() { in_flight_.fetch_add(1, std::memory_order_relaxed); }
  void request_finished() { in_flight_.fetch_sub(1, std::memory_order_relaxed); }
  int64_t in_flight() const { return in_flight_.load(std::memory_order_relaxed); }

  // Extra text appended to the exposition (plugins, event bus), produced at scrape time.
  void set_extra_source(std::function<std::string()> source) { extra_ = std::move(source); }

  std::string render() const;

 private:
  struct Series {
    std::atomic<uint64_t> count{0};
  };

  Series& series_for(std::string_view op, std::string_view code);
  LatencyHistogram& histogram_for(std::string_view op);

  mutable std::shared_mutex mu_;
  std::unordered_map<std::string, std::unique_ptr<Series>> requests_;  // key: op + '\0' + code
  std::unordered_map<std::string, std::unique_ptr<LatencyHistogram>> latency_;  // key: op
  std::atomic<int64_t> in_flight_{0};
  std::function<std::string()> extra_;
};

}  // namespace opbase::host
