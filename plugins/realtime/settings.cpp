#include "settings.hpp"

#include <string>

namespace opbase::realtime {

Result<Settings> Settings::load(const Host& host) {
  Settings s;
  // On MongoDB, daemons sharing the store write events whose ids are a few milliseconds apart
  // and land out of order; waiting a little lets the late ones in before the reader passes.
  const bool mongodb = host.config_or("storage.driver", "sqlite") == "mongodb";
  s.settle_ms = mongodb ? 300 : 0;
  struct Key {
    const char* name;
    int64_t min, max;
    int64_t* target;
  };
  const Key keys[] = {
      {"realtime.retention_s", 10, 86'400, &s.retention_s},
      {"realtime.heartbeat_s", 1, 3'600, &s.heartbeat_s},
      {"realtime.max_queued_bytes", 4'096, 64 << 20, &s.max_queued_bytes},
      {"realtime.max_clients", 1, 1 << 22, &s.max_clients},
      {"realtime.max_clients_per_address", 1, 1 << 22, &s.max_clients_per_address},
      {"realtime.max_clients_per_user", 1, 1 << 20, &s.max_clients_per_user},
      {"realtime.max_subscriptions_per_client", 1, 10'000, &s.max_subscriptions_per_client},
      {"realtime.poll_ms", 10, 60'000, &s.poll_ms},
      {"realtime.settle_ms", 0, 10'000, &s.settle_ms},
      {"realtime.rules_refresh_s", 1, 3'600, &s.rules_refresh_s},
  };
  for (const Key& key : keys) {
    auto value = host.config_int_in(key.name, *key.target, key.min, key.max);
    if (!value) return value.status();
    *key.target = *value;
  }
  return s;
}

}  // namespace opbase::realtime
