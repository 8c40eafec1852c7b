// RequestReader: reads requests off a Connection as their bytes arrive, a state machine over
// Connection::phase. In kHead it looks for the end of the head within server.max_header_bytes,
// parses it, and has the Handler admit it (or claim it for a stream) before any of the body is
// read; then, in kBody, it collects the body by Content-Length or through the ChunkedDecoder,
// within server.max_body_bytes and the BodyBudget shared by all requests, answering
// "Expect: 100-continue" when asked. It never hands a request over itself: it says what it read
// (a whole request, or a head to stream), and the server passes that to a worker. What it
// refuses (400, 411, 413, 503) it answers through the ResponseWriter; a request too slow to
// arrive is the DeadlineSweep's to answer.
//
// Thread-safety: the I/O thread, with the connection's `mu` held.
#pragma once

#include <optional>

#include "http/body_budget.hpp"
#include "http/connection.hpp"
#include "http/epoll.hpp"
#include "http/exchange.hpp"
#include "http/response_writer.hpp"
#include "http/server_counters.hpp"
#include "http/server_settings.hpp"
#include "opbase/status.hpp"

namespace opbase::host::http {

class RequestReader {
 public:
  enum class Outcome {
    kWaiting,    // more bytes are owed; the connection is armed for them unless the client ended
    kDealtWith,  // answered, refused or to be closed: nothing more to do with it now
    kWhole,      // `c.request` holds a whole request, head and body: for Handler::handle
    kStream,     // `c.request.head` is admitted for Handler::stream, its body not read
  };

  RequestReader(const ServerSettings& settings, const Handler& handler, ServerCounters& counters,
                BodyBudget& budget, ResponseWriter& writer, Epoll& epoll)
      : settings_(settings),
        handler_(handler),
        counters_(counters),
        budget_(budget),
        writer_(writer),
        epoll_(epoll) {}

  // On a read-ready event of a connection in kHead or kBody: reads what arrived and uses it.
  Outcome read_request(Connection& c);

 private:
  Outcome read_to_end(Connection& c);
  // Uses what `c.in` holds; `at_end`: the client has sent all it will.
  Outcome advance(Connection& c, bool at_end);
  // These answer nullopt when the head is taken and the body is to be read next.
  std::optional<Outcome> read_head(Connection& c, bool at_end);
  std::optional<Outcome> take_head(Connection& c, size_t length);
  std::optional<Outcome> admit_head(Connection& c);
  std::optional<Outcome> start_body(Connection& c);
  Outcome head_incomplete(Connection& c, size_t scanned, bool at_end);
  Outcome check_stream_head(Connection& c);
  Outcome take_body(Connection& c);
  Outcome take_chunks(Connection& c);
  Outcome take_sized(Connection& c);
  bool reserve(Connection& c, size_t bytes);
  Outcome wait_for_bytes(Connection& c, bool at_end);
  Status too_large() const;

  const ServerSettings& settings_;
  const Handler& handler_;
  ServerCounters& counters_;
  BodyBudget& budget_;
  ResponseWriter& writer_;
  Epoll& epoll_;
};

}  // namespace opbase::host::http
