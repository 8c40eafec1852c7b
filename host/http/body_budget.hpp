// BodyBudget: the memory all requests may hold for their bodies at once
// (server.max_inflight_body_bytes), shared by every connection. A request reserves its body's
// size (a chunked one, as it grows) before holding it, and gives it back with its body once
// answered or closed, so a flood of large uploads meets a 503 instead of the memory's end. The
// bytes held are the counter ServerCounters::inflight_body_bytes.
//
// Thread-safety: any thread; the total is one atomic. A Connection's own share (its
// `reserved_body_bytes`) is changed with its `mu` held, or by the thread that has it.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "http/connection.hpp"

namespace opbase::host::http {

class BodyBudget {
 public:
  BodyBudget(size_t max_bytes, std::atomic<int64_t>& held)
      : max_(static_cast<int64_t>(max_bytes)), held_(held) {}

  // Takes `bytes` more for `c`; false, taking nothing, when the budget has not that much left.
  bool reserve(Connection& c, size_t bytes) {
    int64_t held = held_.load();
    do {
      if (held + static_cast<int64_t>(bytes) > max_) return false;
    } while (!held_.compare_exchange_weak(held, held + static_cast<int64_t>(bytes)));
    c.reserved_body_bytes += bytes;
    return true;
  }

  // Gives back all `c` holds, and the memory of its body.
  void release(Connection& c) {
    held_.fetch_sub(static_cast<int64_t>(c.reserved_body_bytes));
    c.reserved_body_bytes = 0;
    std::string().swap(c.request.body);
  }

 private:
  const int64_t max_;
  std::atomic<int64_t>& held_;
};

}  // namespace opbase::host::http
