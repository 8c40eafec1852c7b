#include "http/connection_stream.hpp"

#include <poll.h>
#include <sys/sendfile.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "http/held_connection.hpp"

namespace opbase::host::http {

int64_t ConnectionStream::read(char* buffer, size_t capacity) {
  if (body_left_ == 0 || capacity == 0) return 0;
  if (broken_ || ended_early_) return -1;
  ask_for_body();
  const size_t want = static_cast<size_t>(std::min<uint64_t>(capacity, body_left_));
  if (!c_.in.empty()) return take_buffered(buffer, want);
  return receive(buffer, want);
}

// Bytes that arrived with the head.
int64_t ConnectionStream::take_buffered(char* buffer, size_t want) {
  const size_t take = std::min(want, c_.in.size());
  std::memcpy(buffer, c_.in.data(), take);
  c_.in.erase(0, take);
  body_left_ -= take;
  return static_cast<int64_t>(take);
}

int64_t ConnectionStream::receive(char* buffer, size_t want) {
  while (true) {
    const ssize_t got = ::recv(c_.fd, buffer, want, 0);
    if (got > 0) {
      body_left_ -= static_cast<uint64_t>(got);
      return got;
    }
    if (got == 0) {
      // The client shut its sending side down (or closed): the handler's answer, a 400 for a
      // body cut short, may still reach it. The body is not whole, so the connection closes.
      ended_early_ = true;
      return -1;
    }
    if (errno == EINTR) continue;
    if ((errno == EAGAIN || errno == EWOULDBLOCK) &&
        wait_for(POLLIN, settings_.receive_timeout_s)) {
      continue;
    }
    broken_ = true;  // failed, or silent past the idle time
    return -1;
  }
}

bool ConnectionStream::start(const Response& response, uint64_t content_length) {
  response_left_ = head_only_ ? 0 : content_length;
  return send_all(response_head_bytes(response, content_length, closes(response)));
}

bool ConnectionStream::write(std::string_view bytes) {
  if (head_only_) return true;
  if (bytes.size() > response_left_) return false;  // more than the head announced
  if (!send_all(bytes)) return false;
  response_left_ -= bytes.size();
  return true;
}

bool ConnectionStream::send_file(int fd, uint64_t offset, uint64_t length) {
  if (head_only_) return true;
  if (length > response_left_) return false;
  auto at = static_cast<off_t>(offset);
  uint64_t left = length;
  while (left > 0 && !broken_) {
    const ssize_t sent =
        ::sendfile(c_.fd, fd, &at, static_cast<size_t>(std::min<uint64_t>(left, kSendFileStep)));
    if (sent > 0) {
      left -= static_cast<uint64_t>(sent);
    } else if (sent == 0 || !may_send_again()) {
      broken_ = true;  // the file ended early (sent == 0) or the socket failed
    }
  }
  response_left_ -= length - left;
  return left == 0;
}

void ConnectionStream::respond(Response response) {
  const bool close = closes(response);
  response_left_ = 0;
  if (send_all(response_bytes(response, close, head_only_)) && close) broken_ = true;
}

std::shared_ptr<HeldResponse> ConnectionStream::hold(const Response& head, HoldOptions options) {
  if (finished_ || head_only_) {
    respond(head);
    return nullptr;
  }
  if (!send_all(held_head_bytes(head))) return nullptr;
  finished_ = true;
  std::lock_guard lock(c_.mu);
  ++c_.requests_served;
  std::string().swap(c_.out);
  c_.out_sent = 0;
  c_.phase = Connection::Phase::kHeld;
  c_.deadline = SteadyClock::time_point::max();
  auto held = std::make_shared<HeldConnection>(
      c_, epoll_, counters_, std::chrono::seconds(settings_.send_timeout_s), std::move(options));
  c_.held = held;
  // Reported at once: the I/O thread's first turn reads what the client sent after its head.
  epoll_.arm(c_, EPOLLIN | EPOLLRDHUP | EPOLLOUT);
  return held;
}

void ConnectionStream::finish() {
  if (finished_) return;
  finished_ = true;
  writer_.finish_stream(c_, !broken_ && body_left_ == 0 && response_left_ == 0);
}

// A client that sent "Expect: 100-continue" waits for this before the body.
void ConnectionStream::ask_for_body() {
  if (!c_.request.head.expect_continue || continued_ || !c_.in.empty()) return;
  continued_ = true;
  if (!send_all(kContinueBytes)) broken_ = true;
}

bool ConnectionStream::send_all(std::string_view bytes) {
  while (!bytes.empty() && !broken_) {
    const ssize_t sent = ::send(c_.fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent > 0) {
      bytes.remove_prefix(static_cast<size_t>(sent));
    } else if (sent == 0 || !may_send_again()) {
      broken_ = true;
    }
  }
  return !broken_;
}

bool ConnectionStream::may_send_again() {
  if (errno == EINTR) return true;
  return (errno == EAGAIN || errno == EWOULDBLOCK) && wait_for(POLLOUT, settings_.send_timeout_s);
}

// Whether the socket became ready for `events` within `timeout_s`.
bool ConnectionStream::wait_for(short events, int timeout_s) const {
  pollfd ready{c_.fd, events, 0};
  while (true) {
    const int n = ::poll(&ready, 1, timeout_s * 1000);
    if (n < 0 && errno == EINTR) continue;
    return n > 0 && (ready.revents & events) != 0;
  }
}

}  // namespace opbase::host::http
