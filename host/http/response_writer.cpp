#include "http/response_writer.hpp"

#include <sys/socket.h>

#include <cerrno>
#include <chrono>

namespace opbase::host::http {
namespace {

using std::chrono::seconds;

// How long a connection closed after an answer keeps reading (and dropping) what its client still
// sends, and how much, so the client can read the answer instead of meeting a reset.
constexpr seconds kLingerTime{2};
constexpr size_t kMaxLingerBytes = size_t{64} << 20;

}  // namespace

void ResponseWriter::queue_response(Connection& c, Response response, Connection::Then then) {
  ++c.requests_served;
  const bool keep = then == Connection::Then::kNextRequest && !response.close && keeps_alive(c);
  if (!keep && then == Connection::Then::kNextRequest) then = Connection::Then::kLinger;
  c.then = then;
  c.out = response_bytes(response, !keep, c.request.head.method == "HEAD");
  c.out_sent = 0;
  c.phase = Connection::Phase::kWriting;
  c.deadline = SteadyClock::now() + seconds(settings_.send_timeout_s);
  send_out(c);
}

void ResponseWriter::send_out(Connection& c) {
  switch (c.send_some()) {
    case SendResult::kFull:
      return epoll_.arm(c, EPOLLOUT);
    case SendResult::kBroken:
      return schedule_close(c);
    case SendResult::kAll:
      break;
  }
  std::string().swap(c.out);
  c.out_sent = 0;
  after_response(c);
}

void ResponseWriter::finish_stream(Connection& c, bool whole) {
  std::lock_guard lock(c.mu);
  ++c.requests_served;
  c.then = whole && keeps_alive(c) ? Connection::Then::kNextRequest : Connection::Then::kClose;
  std::string().swap(c.out);
  c.out_sent = 0;
  after_response(c);
}

void ResponseWriter::after_response(Connection& c) {
  switch (c.then) {
    case Connection::Then::kNextRequest:
      c.phase = Connection::Phase::kHead;
      c.request_started = false;
      c.request.head = {};
      c.deadline = SteadyClock::now() + seconds(settings_.keep_alive_timeout_s);
      // Bytes of a next (pipelined) request may be here already: a write-ready event comes at
      // once and the I/O thread reads them; otherwise wait for the client.
      return epoll_.arm(c, c.in.empty() ? EPOLLIN : EPOLLOUT);
    case Connection::Then::kLinger:
      ::shutdown(c.fd, SHUT_WR);
      c.phase = Connection::Phase::kLingering;
      c.deadline = SteadyClock::now() + kLingerTime;
      std::string().swap(c.in);
      return epoll_.arm(c, EPOLLIN);
    case Connection::Then::kClose:
      return schedule_close(c);
  }
}

void ResponseWriter::linger(Connection& c) {
  const size_t before = c.lingered_bytes;
  size_t got = 0;
  const ReadResult read = c.read_some(&got);
  c.lingered_bytes = before + got;
  std::string().swap(c.in);
  if (read != ReadResult::kMore || c.lingered_bytes > kMaxLingerBytes || stopping_.load()) {
    return schedule_close(c);
  }
  epoll_.arm(c, EPOLLIN);
}

}  // namespace opbase::host::http
