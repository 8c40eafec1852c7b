// The realtime plugin's settings (`realtime.*`, docs/configuration.md#realtime; conf/ lists them
// with their defaults). Read once at init; a bad value refuses the plugin with its key.
// Thread-safety: a plain value.
#pragma once

#include <cstdint>

#include "opbase/host.hpp"
#include "opbase/status.hpp"

namespace opbase::realtime {

struct Settings {
  // How long the store keeps events for resuming; a client that comes back later gets `reset`.
  int64_t retention_s = 300;
  // A comment line sent on every idle stream this often, so proxies keep it open.
  int64_t heartbeat_s = 15;
  // The most bytes waiting for one client: the budget of a client's memory, bursts included.
  int64_t max_queued_bytes = 256 * 1024;
  int64_t max_clients = 20'000;           // streams held by this daemon
  int64_t max_clients_per_address = 100;  // by one TCP peer address
  int64_t max_clients_per_user = 20;      // by one user, counted at their first subscription
  int64_t max_subscriptions_per_client = 100;
  // How often each project's events are read when no write of this daemon's wakes the reader
  // (another daemon's writes reach it this way).
  int64_t poll_ms = 250;
  // How old an event must be before it is sent: 0 on sqlite, whose writes commit in the order
  // of their ids; on MongoDB the time other daemons' writes may take to land (default 300 ms).
  int64_t settle_ms = 0;
  // How long a subscription's rules are trusted before they are asked again.
  int64_t rules_refresh_s = 10;

  static Result<Settings> load(const Host& host);
};

}  // namespace opbase::realtime
