#include "http/held_connection.hpp"

#include <chrono>
#include <utility>

namespace opbase::host::http {
namespace {

// A sent-out buffer larger than this is given back rather than kept for the next pushes, so a
// burst does not leave every idle client holding its peak.
constexpr size_t kKeptOutCapacity = 16 * 1024;

}  // namespace

HeldConnection::HeldConnection(Connection& c, Epoll& epoll, ServerCounters& counters,
                               std::chrono::seconds send_timeout, HoldOptions options)
    : c_(&c),
      epoll_(epoll),
      counters_(counters),
      send_timeout_(send_timeout),
      max_queued_(options.max_queued_bytes),
      too_slow_farewell_(std::move(options.too_slow_farewell)),
      on_end_(std::move(options.on_end)) {
  counters_.held_open.fetch_add(1, std::memory_order_relaxed);
}

bool HeldConnection::push(std::string_view bytes) {
  std::lock_guard lock(mu_);
  if (c_ == nullptr || ending_) return false;
  if (queued_.size() + unsent_ + bytes.size() > max_queued_) {
    counters_.held_too_slow.fetch_add(1, std::memory_order_relaxed);
    queued_ = too_slow_farewell_;
    end_locked(HeldEnd::kTooSlow);
    return false;
  }
  const bool was_empty = queued_.empty();
  if (was_empty && unsent_ == 0) waiting_since_ = SteadyClock::now();
  queued_.append(bytes);
  // Otherwise the connection is armed already, or the I/O thread arms it after its turn.
  if (was_empty) arm_locked();
  return true;
}

void HeldConnection::close(std::string_view last) {
  std::lock_guard lock(mu_);
  if (c_ == nullptr || ending_) return;
  if (queued_.empty() && unsent_ == 0) waiting_since_ = SteadyClock::now();
  queued_.append(last);
  end_locked(HeldEnd::kClosed);
}

size_t HeldConnection::queued_bytes() const {
  std::lock_guard lock(mu_);
  return queued_.size() + unsent_;
}

void HeldConnection::end_locked(HeldEnd why) {
  ending_ = true;
  if (!end_reason_) end_reason_ = why;
  arm_locked();
}

void HeldConnection::arm_locked() {
  if (c_ == nullptr) return;
  const bool to_send = unsent_ > 0 || !queued_.empty() || ending_;
  epoll_.arm(*c_, EPOLLIN | EPOLLRDHUP | (to_send ? EPOLLOUT : 0u));
}

void HeldConnection::serve() {
  Connection& c = *c_;
  {
    std::lock_guard lock(mu_);
    if (c.out_sent == c.out.size()) {
      c.out.clear();
      c.out_sent = 0;
    }
    c.out += queued_;
    queued_.clear();
  }
  const size_t unsent_before = c.out.size() - c.out_sent;
  const bool sent_ok = c.send_some() != SendResult::kBroken;
  // An event stream's client sends nothing after its request: what it sends is dropped, and its
  // end of the stream is its leaving.
  const ReadResult read = c.read_some();
  std::string().swap(c.in);
  std::lock_guard lock(mu_);
  unsent_ = c.out.size() - c.out_sent;
  if (unsent_ == 0 && c.out.capacity() > kKeptOutCapacity) {
    std::string().swap(c.out);
    c.out_sent = 0;
  }
  if (!sent_ok || read != ReadResult::kMore) {
    ending_ = true;
    if (!end_reason_) end_reason_ = HeldEnd::kClientLeft;
  } else if (!(ending_ && unsent_ == 0 && queued_.empty())) {
    // The client must take what waits within the send time; each bit it takes starts it again.
    if (unsent_ < unsent_before) waiting_since_ = SteadyClock::now();
    return arm_locked();
  }
  c.phase = Connection::Phase::kClosing;
  epoll_.arm(c, EPOLLOUT);  // reported at once, so the I/O thread comes round to close it
}

bool HeldConnection::stalled(SteadyClock::time_point now) const {
  std::lock_guard lock(mu_);
  return (unsent_ > 0 || !queued_.empty()) && now - waiting_since_ >= send_timeout_;
}

void HeldConnection::note_end(HeldEnd why) {
  std::lock_guard lock(mu_);
  if (!end_reason_) end_reason_ = why;
}

void HeldConnection::closed() {
  std::function<void(HeldEnd)> on_end;
  HeldEnd why = HeldEnd::kClientLeft;
  {
    std::lock_guard lock(mu_);
    if (c_ == nullptr) return;
    c_ = nullptr;
    ending_ = true;
    why = end_reason_.value_or(HeldEnd::kClientLeft);
    std::string().swap(queued_);
    unsent_ = 0;
    on_end = std::move(on_end_);
  }
  counters_.held_open.fetch_sub(1, std::memory_order_relaxed);
  if (on_end) on_end(why);
}

}  // namespace opbase::host::http
