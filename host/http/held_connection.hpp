// HeldConnection: a response held open on its connection (exchange.hpp, HeldResponse): the bytes
// handlers push from any thread wait in a queue of their own, and the I/O thread moves them to
// the socket when it is ready (phase kHeld). A push only queues and, the first time since the
// I/O thread last took the queue, re-arms the connection for writing, so pushers never wait for
// the client. The queue is bounded: a push past the bound drops it for the farewell and ends the
// response, so a client that stopped reading costs a bounded amount and delays no one else.
//
// Thread-safety: push, close and queued_bytes from any thread; the rest on the I/O thread with the
// connection's `mu` held (the lock order is the connection's `mu`, then the queue's).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "http/connection.hpp"
#include "http/epoll.hpp"
#include "http/exchange.hpp"
#include "http/server_counters.hpp"

namespace opbase::host::http {

class HeldConnection final : public HeldResponse {
 public:
  // Takes `c` over (its `mu` held by the caller) once the response head has been sent.
  HeldConnection(Connection& c, Epoll& epoll, ServerCounters& counters,
                 std::chrono::seconds send_timeout, HoldOptions options);

  bool push(std::string_view bytes) override;
  void close(std::string_view last) override;
  size_t queued_bytes() const override;

  // ---- the I/O thread's, with the connection's `mu` held ----

  // Sends what it can of the queue and reads (and drops) what the client sent; arranges the
  // next event, or schedules the close once the response has ended.
  void serve();
  // Whether bytes have waited for the client longer than the send time, with none taken.
  bool stalled(SteadyClock::time_point now) const;
  // Why the response ends, when the front ends it (the first reason noted wins).
  void note_end(HeldEnd why);
  // The connection closes: pushes fail from now on and on_end runs, once.
  void closed();

 private:
  // With mu_ held: arms the connection for the events it waits for now.
  void arm_locked();
  // With mu_ held: the response ends after what is queued now.
  void end_locked(HeldEnd why);

  Connection* c_;  // nullptr once closed
  Epoll& epoll_;
  ServerCounters& counters_;
  const std::chrono::seconds send_timeout_;
  const size_t max_queued_;
  const std::string too_slow_farewell_;
  std::function<void(HeldEnd)> on_end_;

  mutable std::mutex mu_;
  std::string queued_;   // pushed, not yet moved to the connection's `out`
  size_t unsent_ = 0;    // of the connection's `out`, as the I/O thread last left it
  bool ending_ = false;  // nothing more is queued; close once the queue is sent
  // Since when bytes wait for the client: the first push to find nothing waiting, or the last
  // send that took some.
  SteadyClock::time_point waiting_since_;
  std::optional<HeldEnd> end_reason_;
};

}  // namespace opbase::host::http
