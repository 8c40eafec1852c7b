// The webhooks plugin's settings (`webhooks.*`, docs/api.md#webhooks; conf/opbase.properties lists
// them with their defaults). Read once at init; a bad value refuses the plugin with its key.
// Thread-safety: a plain value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "opbase/host.hpp"
#include "opbase/status.hpp"

namespace opbase::webhooks {

struct WebhooksConfig {
  // The endpoint every project gets from the configuration (empty url: none).
  std::string url;
  std::string secret;  // whsec_...; empty: one is made and kept in the store
  std::vector<std::string> events = {"document.created", "document.updated", "document.deleted",
                                     "user.signedup",    "file.uploaded",    "file.deleted"};
  std::string signature_content = "id.timestamp.body";
  // The waits before each retry: 5 after the first attempt (docs/api.md#delivery), each +-20 %.
  std::vector<int64_t> retry_delays_ms = {5'000, 30'000, 120'000, 600'000, 3'600'000};
  int64_t timeout_ms = 15'000;
  bool allow_private_targets = false;
  int workers = 8;
  // How long a claimed attempt stays another daemon's: longer than the time-out, so a live
  // attempt is never taken over; a dead daemon's attempts are retried after it.
  int64_t lease_ms = 60'000;
  // How often each project's outbox is looked at when no event wakes the workers.
  int64_t poll_ms = 1'000;
  // How long delivered and failed messages stay listable (and resendable) before they go.
  int64_t retention_ms = 7 * 86'400'000LL;
};

// "5s", "250ms", "2m", "1h" or a plain number of milliseconds.
Result<int64_t> parse_duration_ms(std::string_view text);

Result<WebhooksConfig> read_config(const Host& host);

}  // namespace opbase::webhooks
