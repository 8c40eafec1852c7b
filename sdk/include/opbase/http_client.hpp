// http_send: one HTTP request from a plugin to another server (a model server, an object store,
// a webhook receiver), over libcurl, with the rules every such call needs written into the
// request: a connect time-out and a total one, a bound on the answer's body, TLS certificates
// verified, no redirects followed (a signed or checked request would not hold at another
// address), only http and https. The proxy environment variables (https_proxy, no_proxy) apply
// as they do to curl. Call it from a lane (a handler that waits on another server belongs on
// one, docs/plugin-guide.md#lanes-ops-that-wait-on-another-server) or from a thread of the
// plugin's own.
//
// An answer of any status is a response (HttpResult::response()): a 404 or a 503 is the other
// server's word, for the caller to read. Only a request that got no whole answer is an error,
// of one of the HttpFailure kinds.
//
// Each thread keeps one libcurl handle of its own, so a thread's requests reuse its connections
// (and TLS sessions) to a server. libcurl is set up once, on the first request of any thread.
//
// Thread-safety: http_send() may be called from any number of threads at once; a request and
// the cancel flag it points to are the caller's and must outlive the call.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace opbase {

struct HttpHeader {
  std::string name;
  std::string value;
};

// What to do with an answer whose body passes HttpRequest::max_response_bytes.
enum class HttpBodyLimit {
  kRefuse,     // the request fails with HttpFailure::kTooLarge
  kKeepFirst,  // the response stands with the body's first max_response_bytes (body_cut)
};

struct HttpRequest {
  std::string method = "GET";  // GET, HEAD, POST, PUT, DELETE, ...
  std::string url;             // http:// or https://
  // Sent as given, after Host, User-Agent and Accept. No Content-Type is added for a body: give
  // one when the server needs it. "Expect: 100-continue" is never sent.
  std::vector<HttpHeader> headers;
  // Sent with its Content-Length for POST and PUT (even empty), and for other methods when not
  // empty.
  std::string body;
  std::chrono::milliseconds connect_timeout{10'000};  // to connect, within `timeout`
  std::chrono::milliseconds timeout{30'000};          // the whole exchange; at least 1 ms
  size_t max_response_bytes = size_t{1} << 20;        // of the body, as decoded
  HttpBodyLimit over_limit = HttpBodyLimit::kRefuse;
  std::string user_agent = "opbase/1";
  // Asks for a compressed answer (every encoding libcurl decodes) and decodes it.
  bool accept_compressed = false;
  // "host:port:address" (an IPv6 address in brackets): connects to the URL's host and port at
  // that address instead of asking DNS, so the address a caller checked is the one reached. The
  // entry stays in this thread's DNS cache for later requests to that host and port: a plugin
  // that pins does so on threads of its own. Empty: the host is resolved as usual.
  std::string pin;
  // When it turns true, a request in flight is abandoned (HttpFailure::kCancelled). May be null.
  const std::atomic<bool>* cancel = nullptr;
};

struct HttpResponse {
  int status = 0;
  // The final response's header fields (not a 100 Continue's), names in lowercase, values
  // without surrounding blanks, in the order they came.
  std::vector<HttpHeader> headers;
  std::string body;       // empty for HEAD
  bool body_cut = false;  // HttpBodyLimit::kKeepFirst kept only the body's start

  bool is_success() const { return status >= 200 && status < 300; }
  // The first field named `lowercase_name`, or nullopt.
  std::optional<std::string_view> header(std::string_view lowercase_name) const;
};

// Why no answer came.
enum class HttpFailure {
  kNoConnection,  // refused, no such host, the TLS handshake or certificate failed
  kTimedOut,      // the connect time-out or the total time-out passed
  kDropped,       // connected, but the answer broke off or never came
  kTooLarge,      // the body passed max_response_bytes under HttpBodyLimit::kRefuse
  kCancelled,     // the cancel flag turned true
  kOther,         // a malformed URL, an unsupported scheme, out of memory, ...
};

struct HttpError {
  HttpFailure kind = HttpFailure::kOther;
  // libcurl's words ("Failed to connect to 127.0.0.1 port 9 ..."): they may name the URL's host
  // and port, never a header or the body.
  std::string message;
};

// Either the response that came or the error of a request that got none.
class HttpResult {
 public:
  HttpResult(HttpResponse response)
      : v_(std::move(response)) {}                       // NOLINT(google-explicit-constructor)
  HttpResult(HttpError error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  // True when an answer came, of any status.
  bool answered() const { return std::holds_alternative<HttpResponse>(v_); }
  explicit operator bool() const { return answered(); }

  HttpResponse& response() { return std::get<HttpResponse>(v_); }
  const HttpResponse& response() const { return std::get<HttpResponse>(v_); }
  const HttpError& error() const { return std::get<HttpError>(v_); }

 private:
  std::variant<HttpResponse, HttpError> v_;
};

// Sends `request` with this thread's handle and waits for the answer (at most request.timeout).
HttpResult http_send(const HttpRequest& request);

}  // namespace opbase
