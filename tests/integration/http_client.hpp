// http_client: the small HTTP/1.1 client the integration tests speak to the daemon with.
//   - Client: one Poco HTTPClientSession kept open across requests (keep-alive), for tests that
//     send many requests or need to see what a reused connection does;
//   - http_request(): a one-shot request on a fresh connection;
//   - raw_exchange(): arbitrary bytes on a plain TCP socket and whatever comes back, for what a
//     well-behaved client cannot send (malformed request lines, truncated bodies).
// Everything goes to 127.0.0.1 only, and every wait is bounded by a timeout. Transport failures
// do not throw: they come back as status 0 with `error` set, so a test thread never dies on one.
//
// Thread-safety: a Client is used by one thread at a time; the free functions are safe from any
// thread.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace Poco::Net {
class HTTPClientSession;
}

namespace opbase::test {

// Request headers, in the order sent. A later entry with the same name replaces an earlier one.
using Headers = std::vector<std::pair<std::string, std::string>>;

inline constexpr std::chrono::milliseconds kDefaultHttpTimeout = std::chrono::seconds(30);

struct HttpResponse {
  int status = 0;  // 0: no HTTP response arrived (see `error`)
  std::string body;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string error;                           // transport failure text; empty on a response

  // The body parsed as JSON. A body that is not JSON fails the current test and returns null.
  nlohmann::json json() const;
  // The value of header `name` (any case), or "" when absent.
  std::string header(std::string_view name) const;
  bool has_header(std::string_view name) const;
  // One line for failure messages: status, error and the start of the body.
  std::string describe() const;
  // The envelope's error.code, or "OK" when the body holds no error.
  std::string error_code() const;
};

// How a request body travels: with Content-Length, or in chunks (Transfer-Encoding: chunked).
enum class BodyEncoding { kContentLength, kChunked };

class Client {
 public:
  explicit Client(int port, std::chrono::milliseconds timeout = kDefaultHttpTimeout);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Sends one request on the kept connection (opening it when needed) and reads the answer.
  HttpResponse send(const std::string& method, const std::string& path,
                    const std::string& body = "", const Headers& headers = {},
                    BodyEncoding encoding = BodyEncoding::kContentLength);

  // Closes the kept connection; the next send opens a new one.
  void reset();

 private:
  std::unique_ptr<Poco::Net::HTTPClientSession> session_;
};

// One request on a fresh connection, closed afterwards.
HttpResponse http_request(int port, const std::string& method, const std::string& path,
                          const std::string& body = "", const Headers& headers = {},
                          BodyEncoding encoding = BodyEncoding::kContentLength,
                          std::chrono::milliseconds timeout = kDefaultHttpTimeout);

struct RawReply {
  std::string bytes;            // everything the server sent before closing or the time-out
  bool closed_by_peer = false;  // the server closed the connection (as opposed to the time-out)
  bool connected = false;       // the TCP connection was accepted
  std::string error;            // why connecting or sending failed, if it did

  // The status code of the first response in `bytes`, or 0 when there is none.
  int status() const;
};

// Connects, sends `bytes`, optionally half-closes (so the server sees end of input and a
// truncated body cannot keep it waiting), then reads until the server closes or `timeout`.
RawReply raw_exchange(int port, std::string_view bytes,
                      std::chrono::milliseconds timeout = std::chrono::seconds(10),
                      bool half_close = true);

// A plain TCP connection kept open across steps, for tests of what a client does over time:
// idle or slow connections, heads sent in pieces, bodies never sent. Optionally from another
// loopback source address (127.0.0.2 ...: Linux routes all of 127.0.0.0/8 to this machine), so
// a test can be several clients. Blocking calls are bounded by their timeouts; failures are
// values (false, or an empty string), never exceptions.
class RawConnection {
 public:
  // Connects to 127.0.0.1:port from `source` (any port); check connected().
  explicit RawConnection(int port, const std::string& source = "",
                         std::chrono::milliseconds timeout = std::chrono::seconds(5));
  ~RawConnection();
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  bool connected() const { return fd_ >= 0; }
  // Sends all of `bytes`; false when the connection is gone.
  bool send(std::string_view bytes);
  // Reads one response: the head, then a Content-Length body. Stops early (with what it has)
  // when the server closes the connection or `timeout` passes.
  RawReply read_response(std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // Whether the server closes the connection (end of input or reset) within `timeout`; what it
  // sends meanwhile is kept in `received`.
  bool closed_by_server(std::chrono::milliseconds timeout);
  // Reads into `received` until it holds `text`, the server closes the connection or `timeout`
  // passes; whether it holds `text`.
  bool receive_until(std::string_view text, std::chrono::milliseconds timeout);
  void close();

  std::string received;  // bytes read and not yet returned as a response

 private:
  int fd_ = -1;
};

// Whether 127.0.0.1:port accepts a TCP connection now; the connection is closed at once.
bool accepts_connections(int port, std::chrono::milliseconds timeout = std::chrono::seconds(2));

}  // namespace opbase::test
