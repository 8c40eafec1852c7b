#include "metrics/plugin_metrics.hpp"

#include <cmath>
#include <cstdio>
#include <mutex>

#include "metrics/latency_histogram.hpp"

namespace opbase::host {

// Values are doubles kept as bits in atomics: counters and histogram sums add with a CAS loop.
struct PluginMetrics::Series {
  Kind kind;
  std::atomic<double> value{0};  // counter total, gauge value
  LatencyHistogram histogram;
};

namespace {

void add_to(std::atomic<double>& target, double amount) {
  double current = target.load(std::memory_order_relaxed);
  while (!target.compare_exchange_weak(current, current + amount, std::memory_order_relaxed)) {
  }
}

std::string number(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

}  // namespace

PluginMetrics::PluginMetrics() = default;
PluginMetrics::~PluginMetrics() = default;

bool PluginMetrics::valid_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

PluginMetrics::Series* PluginMetrics::series(std::string_view plugin, std::string_view name,
                                             Kind kind) {
  if (!valid_name(name)) return nullptr;
  const std::string full = "opbase_" + std::string(plugin) + "_" + std::string(name);
  {
    const std::shared_lock lock(mutex_);
    const auto it = series_.find(full);
    if (it != series_.end()) return it->second->kind == kind ? it->second.get() : nullptr;
  }
  const std::unique_lock lock(mutex_);
  auto it = series_.find(full);
  if (it == series_.end()) {
    size_t& used = per_plugin_[std::string(plugin)];
    if (used >= kMostSeries) return nullptr;
    ++used;
    auto made = std::make_unique<Series>();
    made->kind = kind;
    it = series_.emplace(full, std::move(made)).first;
  }
  return it->second->kind == kind ? it->second.get() : nullptr;
}

bool PluginMetrics::add(std::string_view plugin, std::string_view name, double amount) {
  if (!std::isfinite(amount) || amount < 0) return false;
  Series* s = series(plugin, name, Kind::kCounter);
  if (s == nullptr) return false;
  add_to(s->value, amount);
  return true;
}

bool PluginMetrics::set(std::string_view plugin, std::string_view name, double value) {
  if (!std::isfinite(value)) return false;
  Series* s = series(plugin, name, Kind::kGauge);
  if (s == nullptr) return false;
  s->value.store(value, std::memory_order_relaxed);
  return true;
}

bool PluginMetrics::observe(std::string_view plugin, std::string_view name, double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return false;
  Series* s = series(plugin, name, Kind::kHistogram);
  if (s == nullptr) return false;
  s->histogram.observe(seconds);
  return true;
}

std::string PluginMetrics::render() const {
  std::string out;
  const std::shared_lock lock(mutex_);
  for (const auto& [name, s] : series_) {
    switch (s->kind) {
      case Kind::kCounter:
        out += "# TYPE " + name + " counter\n" + name + " " + number(s->value.load()) + "\n";
        break;
      case Kind::kGauge:
        out += "# TYPE " + name + " gauge\n" + name + " " + number(s->value.load()) + "\n";
        break;
      case Kind::kHistogram: {
        out += "# TYPE " + name + " histogram\n";
        s->histogram.render(out, name, "");
        break;
      }
    }
  }
  return out;
}

}  // namespace opbase::host
