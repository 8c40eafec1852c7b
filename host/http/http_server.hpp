// HttpServer: the daemon's HTTP/1.1 front. One I/O thread waits on every connection at once
// (epoll), reads and parses requests, and hands each whole request to a pool of worker threads;
// a worker handles it and writes the response. A connection that is idle, or has sent only part
// of a request, costs a few hundred bytes and no thread, so slow or idle clients cannot take the
// workers away from the others.
//
// Limits, each refused with an answer in the API's error form rather than silence:
//   - the head must arrive within `header_timeout_s` of its first byte (or of the connection's
//     start), the whole request within `receive_timeout_s`; a kept-alive connection may stay idle
//     `keep_alive_timeout_s` between requests; a response must be taken within `send_timeout_s`;
//   - at most `max_connections` connections (503 + Retry-After), `max_connections_per_address`
//     from one address (429 + Retry-After; 0: no limit);
//   - a body of at most `max_body_bytes` (413, before reading it), and at most
//     `max_inflight_body_bytes` of bodies held at once over all requests (503 + Retry-After);
//   - at most `queue` whole requests waiting for a worker (503 + Retry-After).
// The Handler admits each request from its head before any of its body is read.
//
// Ownership of a connection moves between the I/O thread and one worker: epoll's one-shot mode
// reports a connection once, the I/O thread hands a whole request to a worker, and whoever sends
// the reply (the worker, or a plugin's lane thread the worker passed the request to) re-arms the
// connection when it is done with it. A per-connection mutex orders the hand-back
// with the I/O thread's deadline sweep.
//
// The parts, each in its own file: Epoll (the event loop's waiting and waking), Acceptor (the
// listening socket) and ConnectionTable (the connections and their caps), RequestReader (head and
// body), ResponseWriter (sending, keep-alive, linger), DeadlineSweep, ConnectionStream (a route's
// streamed request) and BodyBudget. The server's loop (http_server.cpp) only passes each event to
// its part and a whole request to the WorkQueue.
//
// Thread-safety: start() and stop() from one thread; everything else runs on the server's threads.
#pragma once

#include <memory>
#include <string>

#include "http/exchange.hpp"
#include "http/server_counters.hpp"
#include "http/server_settings.hpp"
#include "opbase/status.hpp"

namespace opbase::host::http {

class HttpServer {
 public:
  HttpServer(ServerSettings settings, const Handler& handler);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds, listens and starts the I/O thread and the workers. Fails naming the address when the
  // port cannot be had.
  Status start();
  // The bound port (the real one when configured as 0).
  int port() const { return port_; }

  // Stops accepting (new connections are refused by the kernel at once), closes idle connections,
  // lets requests under way finish and be responded to (with Connection: close) for at most
  // `drain_s` seconds, then closes everything and joins the threads.
  void stop(int drain_s);

  const ServerCounters& counters() const { return counters_; }
  // The counters in the Prometheus text format (opbase_http_* series).
  std::string metrics_text() const;

 private:
  class Loop;
  ServerSettings settings_;
  const Handler& handler_;
  ServerCounters counters_;
  std::unique_ptr<Loop> loop_;
  int port_ = 0;
};

}  // namespace opbase::host::http
