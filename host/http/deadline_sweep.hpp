// DeadlineSweep: keeps the HTTP front's deadlines. Each Connection carries the deadline of what
// it waits for (its head: server.header_timeout_s, its body: receive_timeout_s, the next request
// on a kept connection: keep_alive_timeout_s, room to send: send_timeout_s, the end of a linger).
// sweep() scans for the connections past theirs, and close_some_expired() closes them a bounded
// number per turn of the loop, with a best-effort 408 to a request too slow. While the server
// stops, idle, lingering and held connections count as expired (a held one is past its time
// when what was pushed to it waits longer than send_timeout_s: HeldConnection::stalled). A
// connection with a worker has none.
//
// Thread-safety: the I/O thread's alone; it takes each connection's `mu` to look at it.
#pragma once

#include <atomic>
#include <vector>

#include "http/connection.hpp"
#include "http/connection_table.hpp"
#include "http/exchange.hpp"
#include "http/held_connection.hpp"
#include "http/server_counters.hpp"
#include "http/server_settings.hpp"

namespace opbase::host::http {

class DeadlineSweep {
 public:
  // `stopping` is the server's.
  DeadlineSweep(const ServerSettings& settings, const Handler& handler, ServerCounters& counters,
                ConnectionTable& connections, const std::atomic<bool>& stopping)
      : settings_(settings),
        handler_(handler),
        counters_(counters),
        connections_(connections),
        stopping_(stopping) {}

  // Finds the connections past their deadline at `now`, unless the last scan's are still being
  // closed.
  void sweep(SteadyClock::time_point now);
  // Closes some of what the last scan found; whether some are left is closing().
  void close_some_expired();
  bool closing() const { return !expired_.empty(); }

 private:
  // With c.mu held.
  bool expired(const Connection& c, SteadyClock::time_point now) const {
    if (c.phase == Connection::Phase::kWithWorker) return false;
    if (now >= c.deadline) return true;
    if (c.phase == Connection::Phase::kHeld && c.held->stalled(now)) return true;
    const bool idle = c.phase == Connection::Phase::kHead && !c.request_started;
    return stopping_.load() && (idle || c.phase == Connection::Phase::kLingering ||
                                c.phase == Connection::Phase::kHeld);
  }
  void time_out(Connection& c, SteadyClock::time_point now);
  void count_time_out(Connection& c);
  void answer_too_slow(Connection& c);

  const ServerSettings& settings_;
  const Handler& handler_;
  ServerCounters& counters_;
  ConnectionTable& connections_;
  const std::atomic<bool>& stopping_;
  std::vector<int> expired_;  // descriptors the last sweep found past their deadline
};

}  // namespace opbase::host::http
