#include "http/connection.hpp"

#include <sys/socket.h>

#include <cerrno>

namespace opbase::host::http {
namespace {

// The most one connection reads in one turn, so a fast sender cannot hold the I/O thread.
constexpr size_t kReadPerTurn = 256 * 1024;

}  // namespace

ReadResult Connection::read_some(size_t* got_total) {
  char buffer[65536];
  size_t total = 0;
  while (total < kReadPerTurn) {
    const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
    if (got > 0) {
      in.append(buffer, static_cast<size_t>(got));
      total += static_cast<size_t>(got);
      // Less than asked for: the socket is empty now. Anything arriving later re-arms the
      // event, so the recv that would only say EAGAIN is saved.
      if (static_cast<size_t>(got) < sizeof buffer) break;
      continue;
    }
    if (got == 0) return ReadResult::kEnd;
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) break;
    return ReadResult::kBroken;
  }
  if (got_total) *got_total = total;
  return ReadResult::kMore;
}

SendResult Connection::send_some() {
  while (out_sent < out.size()) {
    const ssize_t sent = ::send(fd, out.data() + out_sent, out.size() - out_sent, MSG_NOSIGNAL);
    if (sent > 0) {
      out_sent += static_cast<size_t>(sent);
    } else if (sent < 0 && errno == EINTR) {
      continue;
    } else if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      return SendResult::kFull;
    } else {
      return SendResult::kBroken;
    }
  }
  return SendResult::kAll;
}

}  // namespace opbase::host::http
