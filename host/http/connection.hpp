// Connection: the state of one client connection of the HTTP front: what has been read and not
// yet used, the request being received, the response being sent, and the deadline of whatever it
// waits for; and the bounded read of what its socket holds. HttpServer's I/O thread and its
// workers take turns on it (see http_server.hpp).
//
// Thread-safety: `mu` is held by the thread acting on it; while `phase` is kWithWorker the
// connection belongs to that worker alone.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "http/chunked_decoder.hpp"
#include "http/exchange.hpp"

namespace opbase::host::http {

using SteadyClock = std::chrono::steady_clock;
class HeldConnection;

// What a read found: bytes or nothing yet (kMore), the client's end of the stream, or an error.
enum class ReadResult { kMore, kEnd, kBroken };
// What a send did: took all of `out` (kAll), filled the socket before that (kFull), or failed.
enum class SendResult { kAll, kFull, kBroken };

struct Connection {
  enum class Phase {
    kHead,        // waiting for (the rest of) a request's head; idle when `in` is empty
    kBody,        // the head is admitted, reading the body
    kWithWorker,  // a worker is handling the request
    kWriting,     // a response is partly sent; the socket was full
    kLingering,   // responded to and half-closed: reading and dropping what the client still sends
    kHeld,        // a response held open (HeldConnection): sending what handlers push
    kClosing,     // to be closed by the I/O thread at its next turn
  };
  // What follows once the response is sent.
  enum class Then { kNextRequest, kLinger, kClose };

  Connection(int fd, std::string address) : fd(fd), address(std::move(address)) {}

  // Appends what has arrived on the socket to `in`, at most 256 KiB (kReadPerTurn) so a fast sender
  // cannot hold the I/O thread; `got_total` (when given) gets how many when it answers kMore.
  ReadResult read_some(size_t* got_total = nullptr);
  // Sends what the socket takes of `out` from `out_sent` on, advancing `out_sent`.
  SendResult send_some();

  const int fd;
  const std::string address;
  std::mutex mu;

  Phase phase = Phase::kHead;
  Then then = Then::kNextRequest;
  SteadyClock::time_point deadline;
  bool request_started = false;  // bytes of the current request have arrived
  size_t head_scanned = 0;       // bytes of `in` already searched for the end of the head
  int requests_served = 0;
  // Accepted over a connection cap only to send the refusal: counts towards no cap.
  bool refused_at_accept = false;

  std::string in;   // read and not yet used
  Request request;  // the request being received, then responded to
  ChunkedDecoder chunked;
  size_t reserved_body_bytes = 0;  // of the server's budget for bodies in flight

  std::string out;                       // the response being sent
  std::shared_ptr<HeldConnection> held;  // while kHeld and until closed
  size_t out_sent = 0;
  size_t lingered_bytes = 0;
};

}  // namespace opbase::host::http
