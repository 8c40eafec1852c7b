// What passes between the HTTP front (HttpServer) and whoever handles the requests (the gateway):
// a whole request, a response to send, and the Handler interface the front calls.
//
// Thread-safety: plain values; see Handler for which thread calls what.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "http/request_head.hpp"
#include "opbase/status.hpp"

namespace opbase::host::http {

// A request whose head and whole body have arrived.
struct Request {
  RequestHead head;
  std::string body;
  std::string client_address;  // the peer's IP address as text
};

struct Response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // beyond the framing ones
  bool close = false;  // end the connection after this response
};

// The bytes of `response` on the wire: status line, Date, Server, Content-Type, Content-Length,
// the extra headers, Connection: close when `close`, and the body unless `head_only`.
std::string response_bytes(const Response& response, bool close, bool head_only);

// Sends the response to a request. Called exactly once per request, from any thread; until then
// the Request stays valid and the connection waits for it.
using Reply = std::function<void(Response)>;

class Handler {
 public:
  virtual ~Handler() = default;

  // On the front's I/O thread, once a request's head has arrived and before any of its body is
  // read: a refusal to send instead (the body is then never read), or nullopt to go on. Must be
  // cheap and never block: every connection waits while it runs.
  virtual std::optional<Response> admit(const RequestHead& head,
                                        std::string_view client_address) const = 0;

  // On a worker thread: answers a whole request through `reply`, at once or later from another
  // thread (an op on a plugin's lane).
  virtual void handle(Request& request, Reply reply) const = 0;

  // The front's own refusals (malformed request, too large, too slow, too many connections),
  // rendered in the API's error form. `why`'s code decides nothing: `http_status` is sent. `head`
  // is the refused request's when it was parsed, else nullptr. Called from the I/O thread: must
  // not block.
  virtual Response refuse(int http_status, const Status& why, const RequestHead* head) const = 0;
};

}  // namespace opbase::host::http
