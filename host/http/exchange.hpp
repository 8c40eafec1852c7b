// What passes between the HTTP front (HttpServer) and whoever handles the requests (the gateway):
// a whole request, a response to send, and the Handler interface the front calls.
//
// Thread-safety: plain values; see Handler for which thread calls what.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
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
// The same head alone, with `content_length` for a body sent apart (`response.body` unused).
std::string response_head_bytes(const Response& response, uint64_t content_length, bool close);
// The interim response a client that sent "Expect: 100-continue" waits for before its body.
inline constexpr std::string_view kContinueBytes = "HTTP/1.1 100 Continue\r\n\r\n";

// A request whose handler reads the body itself as it arrives and may write the response in
// pieces: a file's upload or download, too large to hold in memory. The front hands it over
// once the head is admitted, before any of the body is read, with Content-Length required
// (chunked bodies are refused, 411). Each read waits at most server.receive_timeout_s for the
// client's next bytes, each write server.send_timeout_s for room to send; there is no limit on
// the whole, so large files on slow links still pass.
//
// Thread-safety: one thread at a time, the handler's; it must call finish() once (destroying
// the stream does it too).
class Stream {
 public:
  virtual ~Stream() = default;

  // The head and the client's address (the body is read through read()).
  virtual const Request& request() const = 0;

  // Up to `capacity` bytes of the body: how many (0 at its end), or -1 when the client went
  // away or stayed silent past the idle time; then nothing more can be sent to it. Also -1 when
  // the client ended its side of the connection before the whole body (a half-close: it may
  // still read), and then an answer is still sent: body_ended_early() says which.
  virtual int64_t read(char* buffer, size_t capacity) = 0;
  // Whether read() met the end of the client's bytes while the body still owed some.
  virtual bool body_ended_early() const = 0;

  // Sends the response head with `content_length` (response.body is not sent), then write()
  // and send_file() send that many bytes of body. False when the client is gone.
  virtual bool start(const Response& response, uint64_t content_length) = 0;
  virtual bool write(std::string_view bytes) = 0;
  // `length` bytes of the open file `fd` from `offset`, copied by the kernel (sendfile).
  virtual bool send_file(int fd, uint64_t offset, uint64_t length) = 0;

  // A whole response at once (an answer in the API's envelope, a refusal). The request stays
  // readable until finish(), so a handler may still look at it after answering.
  virtual void respond(Response response) = 0;
  // Ends the exchange: the connection takes its next request when the body was read whole and
  // the response sent whole, else it is closed. Nothing may be called after it.
  virtual void finish() = 0;
};

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

  // On the I/O thread, for an admitted head: whether its request goes to stream() rather than
  // being read whole for handle(). Must be cheap and never block.
  virtual bool streams(const RequestHead&) const { return false; }

  // On a worker thread: takes a streamed request; the stream may be passed to another thread.
  virtual void stream(std::unique_ptr<Stream> stream) const { stream->finish(); }

  // The front's own refusals (malformed request, too large, too slow, too many connections),
  // rendered in the API's error form. `why`'s code decides nothing: `http_status` is sent. `head`
  // is the refused request's when it was parsed, else nullptr. Called from the I/O thread: must
  // not block.
  virtual Response refuse(int http_status, const Status& why, const RequestHead* head) const = 0;
};

}  // namespace opbase::host::http
