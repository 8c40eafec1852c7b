#include "metrics/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>

namespace opbase::host {

std::string prometheus_label(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

Metrics::Series& Metrics::series_for(std::string_view op, std::string_view code) {
  std::string key;
  key.reserve(op.size() + code.size() + 1);
  key.append(op).push_back('\0');
  key.append(code);
  {
    std::shared_lock lock(mu_);
    auto it = requests_.find(key);
    if (it != requests_.end()) return *it->second;
  }
  std::unique_lock lock(mu_);
  auto& slot = requests_[key];
  if (!slot) slot = std::make_unique<Series>();
  return *slot;
}

LatencyHistogram& Metrics::histogram_for(std::string_view op) {
  const std::string key(op);
  {
    std::shared_lock lock(mu_);
    auto it = latency_.find(key);
    if (it != latency_.end()) return *it->second;
  }
  std::unique_lock lock(mu_);
  auto& slot = latency_[key];
  if (!slot) slot = std::make_unique<LatencyHistogram>();
  return *slot;
}

void Metrics::record_request(std::string_view op, std::string_view code, double seconds) {
  series_for(op, code).count.fetch_add(1, std::memory_order_relaxed);
  histogram_for(op).observe(seconds);
}

std::string Metrics::render() const {
  std::string out;
  out += "# HELP opbase_requests_total API requests by op and result code.\n";
  out += "# TYPE opbase_requests_total counter\n";
  std::map<std::string, uint64_t> sorted_requests;
  std::map<std::string, const LatencyHistogram*> sorted_latency;
  {
    std::shared_lock lock(mu_);
    for (const auto& [key, series] : requests_) sorted_requests[key] = series->count.load();
    for (const auto& [key, hist] : latency_) sorted_latency[key] = hist.get();
  }
  for (const auto& [key, count] : sorted_requests) {
    const auto nul = key.find('\0');
    out += "opbase_requests_total{op=\"" + key.substr(0, nul) + "\",code=\"" + key.substr(nul + 1) +
           "\"} " + std::to_string(count) + "\n";
  }
  out += "# HELP opbase_request_duration_seconds Time from request read to response written.\n";
  out += "# TYPE opbase_request_duration_seconds histogram\n";
  for (const auto& [op, h] : sorted_latency) {
    h->render(out, "opbase_request_duration_seconds", "op=\"" + op + "\"");
  }
  out += "# HELP opbase_requests_in_flight API requests being handled now.\n";
  out += "# TYPE opbase_requests_in_flight gauge\n";
  out += "opbase_requests_in_flight " + std::to_string(in_flight()) + "\n";
  if (extra_) out += extra_();
  return out;
}

}  // namespace opbase::host
