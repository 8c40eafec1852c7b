// Epoll: the HTTP front's epoll instance and the eventfd that wakes its I/O thread. The listener
// is watched for as long as it accepts; each connection is watched one-shot (EPOLLONESHOT), so
// it is reported once and whoever holds it next re-arms it with arm() when it wants the next
// event. A tag given with a descriptor comes back with each of its events.
//
// Thread-safety: wait() and drain_wake() on the I/O thread; watch, modify, arm and wake from any
// thread (epoll_ctl and eventfd writes are safe to call concurrently). open() before all of them.
#pragma once

#include <sys/epoll.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

#include "http/connection.hpp"

namespace opbase::host::http {

class Epoll {
 public:
  Epoll() = default;
  ~Epoll();
  Epoll(const Epoll&) = delete;
  Epoll& operator=(const Epoll&) = delete;

  // Creates the instance and the wake-up descriptor and watches the latter; false when it cannot.
  bool open();

  void watch(int fd, uint32_t events, void* tag) { control(EPOLL_CTL_ADD, fd, events, tag); }
  void modify(int fd, uint32_t events, void* tag) { control(EPOLL_CTL_MOD, fd, events, tag); }
  void forget(int fd) { ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr); }
  // Re-arms a connection for one more report of `events`.
  void arm(Connection& c, uint32_t events) { modify(c.fd, events | EPOLLONESHOT, &c); }

  // Waits at most `timeout_ms` for events into `events`; how many came (negative on an error).
  int wait(std::vector<epoll_event>& events, int timeout_ms) {
    return epoll_wait(epoll_fd_, events.data(), static_cast<int>(events.size()), timeout_ms);
  }

  // Makes the I/O thread's wait() return soon.
  void wake() {
    const uint64_t one = 1;
    [[maybe_unused]] ssize_t written = ::write(wake_fd_, &one, sizeof one);
  }
  // Whether an event's tag is the wake-up's; drain_wake() then takes the wake-ups sent.
  bool is_wake(const void* tag) const { return tag == &wake_fd_; }
  void drain_wake() {
    uint64_t drained;
    [[maybe_unused]] ssize_t got = ::read(wake_fd_, &drained, sizeof drained);
  }

 private:
  void control(int operation, int fd, uint32_t events, void* tag) {
    epoll_event event{};
    event.events = events;
    event.data.ptr = tag;
    ::epoll_ctl(epoll_fd_, operation, fd, &event);
  }

  int epoll_fd_ = -1;
  int wake_fd_ = -1;
};

}  // namespace opbase::host::http
