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
#include "opbase/held_stream.hpp"
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
// The head of a response held open (Stream::hold): no Content-Length, Connection: close.
std::string held_head_bytes(const Response& response);
// The interim response a client that sent "Expect: 100-continue" waits for before its body.
inline constexpr std::string_view kContinueBytes = "HTTP/1.1 100 Continue\r\n\r\n";

// How a held response ended: the plugins' own type (opbase/held_stream.hpp), so the front's
// reason reaches them as it is.
using HeldEnd = opbase::HeldEnd;

// What a handler holding a response open (Stream::hold) gives the front.
struct HoldOptions {
  // The most bytes pushed and not yet sent; a push past it ends the response (kTooSlow): what is
  // queued is dropped and `too_slow_farewell` sent in its place before the connection closes.
  size_t max_queued_bytes = size_t{1} << 20;
  std::string too_slow_farewell;
  // Called once when the response ends, on the front's I/O thread: must be cheap, never block,
  // and not call back into the HeldResponse.
  std::function<void(HeldEnd)> on_end;
};

// A response that stays open after its head, its body pushed in pieces as they come from any
// thread (server-sent events). Each push is queued and sent by the front's I/O thread, so a
// pusher never waits for the client, and a held connection costs no thread. The body ends with
// the connection (no Content-Length, Connection: close).
//
// Thread-safety: every method from any thread.
class HeldResponse {
 public:
  virtual ~HeldResponse() = default;
  // Queues `bytes` for the client; false once the response has ended (nothing more is sent).
  virtual bool push(std::string_view bytes) = 0;
  // Sends what is queued, then `last`, and ends the response (kClosed).
  virtual void close(std::string_view last) = 0;
  // Bytes pushed and not yet taken by the client's socket.
  virtual size_t queued_bytes() const = 0;
};

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
  // Sends `head` (its body unused) without a length and hands the connection back to the front,
  // which holds it open for the returned response's pushes. The exchange is over for the
  // stream: finish() does nothing more. nullptr when the client is gone.
  virtual std::shared_ptr<HeldResponse> hold(const Response& head, HoldOptions options) = 0;
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
