#include "http/deadline_sweep.hpp"

#include <sys/socket.h>

#include <mutex>
#include <string>

namespace opbase::host::http {
namespace {

// The most connections closed for a deadline in one turn of the I/O loop, so thousands of
// connections that time out together (an attack that opened them together) do not hold up the
// others while they are closed.
constexpr int kClosesPerTurn = 128;

}  // namespace

void DeadlineSweep::sweep(SteadyClock::time_point now) {
  if (!expired_.empty()) return;  // the last scan's are still being closed
  connections_.for_each([&](int fd, Connection& connection) {
    std::lock_guard lock(connection.mu);
    if (expired(connection, now)) expired_.push_back(fd);
  });
}

void DeadlineSweep::close_some_expired() {
  const auto now = SteadyClock::now();
  for (int n = 0; n < kClosesPerTurn && !expired_.empty(); ++n) {
    const int fd = expired_.back();
    expired_.pop_back();
    // Closed meanwhile, or its descriptor taken by a new connection: the check below sees it.
    if (Connection* connection = connections_.find(fd)) time_out(*connection, now);
  }
}

void DeadlineSweep::time_out(Connection& c, SteadyClock::time_point now) {
  std::unique_lock lock(c.mu);
  if (!expired(c, now)) return;
  count_time_out(c);
  lock.unlock();
  connections_.close(c);
}

// With c.mu held.
void DeadlineSweep::count_time_out(Connection& c) {
  switch (c.phase) {
    case Connection::Phase::kHead:
      if (!c.request_started) {
        if (!stopping_.load()) counters_.timed_out_idle.fetch_add(1, std::memory_order_relaxed);
        break;
      }
      [[fallthrough]];
    case Connection::Phase::kBody:
      counters_.timed_out_request.fetch_add(1, std::memory_order_relaxed);
      answer_too_slow(c);
      break;
    case Connection::Phase::kWriting:
      counters_.timed_out_send.fetch_add(1, std::memory_order_relaxed);
      break;
    case Connection::Phase::kHeld:
      if (stopping_.load() && !c.held->stalled(SteadyClock::now())) {
        c.held->note_end(HeldEnd::kServerStopping);
      } else {
        counters_.timed_out_send.fetch_add(1, std::memory_order_relaxed);
        counters_.held_too_slow.fetch_add(1, std::memory_order_relaxed);
        c.held->note_end(HeldEnd::kTooSlow);
      }
      break;
    default:
      break;
  }
}

// Best effort: a client this slow may not read either, so nothing waits on this send.
void DeadlineSweep::answer_too_slow(Connection& c) {
  const bool in_body = c.phase == Connection::Phase::kBody;
  const int limit = in_body ? settings_.receive_timeout_s : settings_.header_timeout_s;
  const std::string bytes =
      response_bytes(handler_.refuse(408,
                                     Status::validation("the request did not arrive within " +
                                                        std::to_string(limit) + " seconds"),
                                     in_body ? &c.request.head : nullptr),
                     true, false);
  [[maybe_unused]] ssize_t sent = ::send(c.fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
}

}  // namespace opbase::host::http
