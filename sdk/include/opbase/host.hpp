// Host: the typed C++ face of the host's function table, as one plugin sees it.
// Valid from the start of init until shutdown returns. Thread-safety: every method may be called
// from any thread, concurrently.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/abi.h"
#include "opbase/status.hpp"

namespace opbase {

class Host {
 public:
  Host(const opbase_host_api* api, opbase_plugin* plugin) : api_(api), plugin_(plugin) {}

  // Calls another plugin's service by name. A missing service is a failed Status with code
  // INTERNAL_ERROR naming it, never a crash.
  Result<nlohmann::json> call_service(std::string_view name, std::string_view project_id,
                                      const nlohmann::json& input) const;
  // The same with the JSON as text both ways, for callers that already hold the input as text
  // or pass the answer on without reading all of it.
  Result<std::string> call_service_text(std::string_view name, std::string_view project_id,
                                        std::string_view input) const;

  // Publishes an event to the host's bus. Never blocks on subscribers.
  Status publish(std::string_view type, std::string_view project_id,
                 const nlohmann::json& payload) const;

  // A configuration value (all layers applied), or nullopt when the key is not set.
  std::optional<std::string> config(std::string_view key) const;
  std::string config_or(std::string_view key, std::string_view fallback) const;
  // An integer configuration value; `fallback` when unset; a failed Status naming the key when
  // the value is not an integer.
  Result<int64_t> config_int(std::string_view key, int64_t fallback) const;
  // The same within [min, max]: VALIDATION_ERROR "<key> must be an integer from <min> to <max>"
  // (details.key) for a value outside.
  Result<int64_t> config_int_in(std::string_view key, int64_t fallback, int64_t min,
                                int64_t max) const;
  // A comma-separated list (items trimmed, empty ones dropped), as the host reads its own lists;
  // empty when the key is not set.
  std::vector<std::string> config_list(std::string_view key) const;

  void log(opbase_log_level level, std::string_view message) const;
  void info(std::string_view message) const { log(OPBASE_LOG_INFO, message); }
  void warn(std::string_view message) const { log(OPBASE_LOG_WARNING, message); }
  void error(std::string_view message) const { log(OPBASE_LOG_ERROR, message); }

  int64_t now_ms() const { return api_->now_ms(plugin_); }

  // Metrics at GET /metrics as opbase_<plugin>_<name> (abi.h metric_*). Nothing happens on a
  // host older than ABI 1.1 or for a refused name: metrics never fail an operation.
  void count(std::string_view name, double amount = 1) const;
  void gauge(std::string_view name, double value) const;
  void observe_seconds(std::string_view name, double seconds) const;

  uint16_t abi_minor() const { return api_->abi_minor; }
  const opbase_host_api& api() const { return *api_; }
  opbase_plugin* plugin() const { return plugin_; }

 private:
  const opbase_host_api* api_;
  opbase_plugin* plugin_;
};

}  // namespace opbase
