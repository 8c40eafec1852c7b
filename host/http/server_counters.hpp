// ServerCounters: what the HTTP front counts (connections, refusals, deadlines, malformed
// requests, body bytes held), and their rendering for /metrics.
//
// Thread-safety: every counter is atomic; the server's threads add to them, any thread reads them.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

namespace opbase::host::http {

struct ServerCounters {
  std::atomic<int64_t> open{0};
  std::atomic<uint64_t> accepted{0};
  std::atomic<uint64_t> refused_server_full{0};
  std::atomic<uint64_t> refused_address_full{0};
  std::atomic<uint64_t> refused_busy{0};  // queue full or body memory used up
  std::atomic<uint64_t> timed_out_idle{0};
  std::atomic<uint64_t> timed_out_request{0};  // head or body too slow
  std::atomic<uint64_t> timed_out_send{0};
  std::atomic<uint64_t> malformed{0};
  std::atomic<int64_t> inflight_body_bytes{0};
  std::atomic<int64_t> held_open{0};       // responses held open (server-sent events)
  std::atomic<uint64_t> held_too_slow{0};  // held responses ended for a client reading too slowly
};

// The counters in the Prometheus text format (opbase_http_* series).
std::string metrics_text(const ServerCounters& counters);

}  // namespace opbase::host::http
