// ConnectionStream: a streamed request on its connection (exchange.hpp, Stream), for a plugin's
// route. The handler's thread reads the body and writes the response on the socket itself,
// waiting with poll() when it would block (server.receive_timeout_s for the client's next bytes,
// server.send_timeout_s for room to send), while the connection is out of the I/O thread's hands
// (kWithWorker). finish() gives the connection back through the ResponseWriter: kept for the
// next request only when the body was read whole and the response sent whole. hold() gives it
// back instead as a response held open (HeldConnection), for the handler's pushes.
//
// Thread-safety: as Stream: one thread at a time, the handler's.
#pragma once

#include <cstdint>
#include <string_view>

#include "http/connection.hpp"
#include "http/epoll.hpp"
#include "http/exchange.hpp"
#include "http/response_writer.hpp"
#include "http/server_counters.hpp"
#include "http/server_settings.hpp"

namespace opbase::host::http {

class ConnectionStream final : public Stream {
 public:
  ConnectionStream(ResponseWriter& writer, const ServerSettings& settings, Epoll& epoll,
                   ServerCounters& counters, Connection& c)
      : writer_(writer),
        settings_(settings),
        epoll_(epoll),
        counters_(counters),
        c_(c),
        body_left_(c.request.head.content_length.value_or(0)),
        head_only_(c.request.head.method == "HEAD") {}
  ~ConnectionStream() override {
    if (!finished_) finish();
  }

  const Request& request() const override { return c_.request; }
  int64_t read(char* buffer, size_t capacity) override;
  bool body_ended_early() const override { return ended_early_; }
  bool start(const Response& response, uint64_t content_length) override;
  bool write(std::string_view bytes) override;
  bool send_file(int fd, uint64_t offset, uint64_t length) override;
  void respond(Response response) override;
  std::shared_ptr<HeldResponse> hold(const Response& head, HoldOptions options) override;
  void finish() override;

 private:
  static constexpr uint64_t kSendFileStep = uint64_t{1} << 30;

  int64_t take_buffered(char* buffer, size_t want);
  int64_t receive(char* buffer, size_t want);
  // Whether the connection closes after this exchange, as the response must say.
  bool closes(const Response& response) const {
    return body_left_ > 0 || !c_.request.head.keep_alive || response.close;
  }
  void ask_for_body();
  bool send_all(std::string_view bytes);
  // After a send that failed: whether to try again (interrupted, or room came in time).
  bool may_send_again();
  bool wait_for(short events, int timeout_s) const;

  ResponseWriter& writer_;
  const ServerSettings& settings_;
  Epoll& epoll_;
  ServerCounters& counters_;
  Connection& c_;
  uint64_t body_left_;
  uint64_t response_left_ = 0;
  const bool head_only_;
  bool continued_ = false;
  bool broken_ = false;
  bool ended_early_ = false;  // the client's bytes ended before the body's
  bool finished_ = false;
};

}  // namespace opbase::host::http
