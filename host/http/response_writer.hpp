// ResponseWriter: sends a response on a Connection and arranges what follows it. It frames the
// response (Connection: close when the connection is not kept), sends what the socket takes and
// waits for room for the rest (kWriting), then re-arms the connection for its next request, or
// half-closes it and lingers (reading and dropping what the client still sends, so it reads the
// answer rather than a reset), or leaves it to the I/O thread to close.
//
// Thread-safety: any thread (the I/O thread, a worker, a plugin's lane thread) with the
// connection's `mu` held; the writer itself holds nothing that changes.
#pragma once

#include <atomic>
#include <string>
#include <string_view>

#include "http/connection.hpp"
#include "http/epoll.hpp"
#include "http/exchange.hpp"
#include "http/server_settings.hpp"
#include "opbase/error_code.hpp"
#include "opbase/status.hpp"

namespace opbase::host::http {

// The refusal for a limit that passes soon: RATE_LIMIT_EXCEEDED with retry_after and `reason`.
inline Status busy(std::string message, std::string_view reason) {
  return Status(code::kRateLimitExceeded, std::move(message),
                {{"retry_after", 1}, {"reason", reason}});
}

class ResponseWriter {
 public:
  // `stopping` is the server's: once set, no connection is kept for another request.
  ResponseWriter(const ServerSettings& settings, const Handler& handler, Epoll& epoll,
                 const std::atomic<bool>& stopping)
      : settings_(settings), handler_(handler), epoll_(epoll), stopping_(stopping) {}

  // Sends `response` (as much as the socket takes now) and arranges what follows: `then`, except
  // that a connection not to be kept lingers instead of taking a next request.
  void queue_response(Connection& c, Response response, Connection::Then then);
  // The handler's refusal for `status` and `why`, sent as queue_response does. `head` is the
  // request's when it was parsed, or nullptr.
  void answer_and_close(Connection& c, int status, const Status& why, Connection::Then then,
                        const RequestHead* head = nullptr) {
    queue_response(c, handler_.refuse(status, why, head), then);
  }

  // Sends more of the response being written (on a write-ready event).
  void send_out(Connection& c);
  // Ends a streamed request, whose stream sent the response itself: what follows as after any
  // response, but the connection is reused only when `whole` (body read, response sent).
  void finish_stream(Connection& c, bool whole);
  // Reads and drops what a lingering connection's client sends; closes it when that ends.
  void linger(Connection& c);

  // Closing belongs to the I/O thread: a worker leaves the connection to it.
  void schedule_close(Connection& c) {
    c.phase = Connection::Phase::kClosing;
    epoll_.arm(c, EPOLLOUT);  // reported at once (or as an error), so the I/O thread comes round
  }

 private:
  // Whether `c` may take another request after the one just counted in `requests_served`.
  bool keeps_alive(const Connection& c) const {
    return c.request.head.keep_alive && settings_.keep_alive && !stopping_.load() &&
           (settings_.max_keep_alive_requests == 0 ||
            c.requests_served < settings_.max_keep_alive_requests);
  }
  void after_response(Connection& c);

  const ServerSettings& settings_;
  const Handler& handler_;
  Epoll& epoll_;
  const std::atomic<bool>& stopping_;
};

}  // namespace opbase::host::http
