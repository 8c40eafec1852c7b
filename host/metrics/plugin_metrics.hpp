// PluginMetrics: the counters, gauges and histograms plugins keep through the ABI (metric_add,
// metric_set, metric_observe), rendered at GET /metrics as opbase_<plugin>_<name>. A name's kind
// is fixed by its first use, and a plugin may hold at most kMostSeries names, so a plugin bug
// cannot grow the exposition without bound.
// Thread-safety: every method may be called from any thread.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>

namespace opbase::host {

class PluginMetrics {
 public:
  static constexpr size_t kMostSeries = 256;  // per plugin

  PluginMetrics();
  ~PluginMetrics();
  PluginMetrics(const PluginMetrics&) = delete;
  PluginMetrics& operator=(const PluginMetrics&) = delete;

  // False (and nothing recorded) for a malformed name, a name used as another kind, a negative
  // or non-finite amount, or a plugin over its series limit.
  bool add(std::string_view plugin, std::string_view name, double amount);
  bool set(std::string_view plugin, std::string_view name, double value);
  bool observe(std::string_view plugin, std::string_view name, double seconds);

  // Prometheus text, sorted by name; empty when no plugin recorded anything.
  std::string render() const;

  static bool valid_name(std::string_view name);

 private:
  enum class Kind { kCounter, kGauge, kHistogram };
  struct Series;

  // The series of "opbase_<plugin>_<name>", made on first use; nullptr when refused.
  Series* series(std::string_view plugin, std::string_view name, Kind kind);

  mutable std::shared_mutex mutex_;
  std::map<std::string, std::unique_ptr<Series>, std::less<>> series_;  // by full name
  std::map<std::string, size_t, std::less<>> per_plugin_;
};

}  // namespace opbase::host
