// RouteCall: one request on a plugin's route (Registrar::route; abi.h register_route), as its
// handler sees it: the request line and headers, the body read in pieces as it arrives, and the
// response sent whole, in pieces (from memory or from a file), or held open for pushes from any
// thread (hold: event streams). Made for bodies too large to hold, a file's upload and download,
// and for streams. A route checks its own credentials: the host checks no API key and no token
// on it. On an endpoint route (Registrar::endpoint_route, /api/{endpoint_key}/<name>) the host
// has checked the project's API key, and project_id() names the project.
//
// Thread-safety: a RouteCall belongs to the one handler call it was made for.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "opbase/abi.h"
#include "opbase/held_stream.hpp"
#include "opbase/status.hpp"

namespace opbase {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

class RouteCall {
 public:
  RouteCall(const opbase_host_api& api, const opbase_route_request& request, opbase_stream* stream)
      : api_(api), request_(request), stream_(stream) {}

  std::string_view method() const { return {request_.method.ptr, request_.method.len}; }
  // The path and query as sent.
  std::string_view target() const { return {request_.target.ptr, request_.target.len}; }
  std::string_view client_address() const {
    return {request_.client_address.ptr, request_.client_address.len};
  }
  std::string_view request_id() const { return {request_.request_id.ptr, request_.request_id.len}; }
  uint64_t content_length() const { return static_cast<uint64_t>(request_.content_length); }
  // On an endpoint route, the project its keys named; "" on a plain route.
  std::string_view project_id() const;
  // The query parameter `name`, decoded (url_query.hpp), or nullopt.
  std::optional<std::string> query(std::string_view name) const;
  // The first header of that name (any case), or nullopt.
  std::optional<std::string> header(std::string_view name) const;

  // Up to `capacity` bytes of the body: how many, 0 at its end, -1 when the client is gone (then
  // no answer reaches it).
  int64_t read(char* buffer, size_t capacity);

  // One answer per call: respond, respond_error, or start and then exactly `content_length`
  // bytes through write and send_file. Extra headers may not be ones the host writes
  // (Content-Length, Content-Type, Connection, Date, Server, Transfer-Encoding, X-Request-Id).
  // A failed Status when the answer breaks a rule or the client is gone.
  Status respond(int status, std::string_view content_type, std::string_view body,
                 const HeaderList& headers = {});
  // The API's error envelope (as an op's error), X-Request-Id and Retry-After included.
  Status respond_error(const Status& error, int http_status = 0);
  Status start(int status, std::string_view content_type, uint64_t content_length,
               const HeaderList& headers = {});
  Status write(std::string_view bytes);
  Status send_file(int fd, uint64_t offset, uint64_t length);
  // The head, then the response held open for the returned stream's pushes (held_stream.hpp);
  // nullptr (on_end is never called) when the client is gone or the host (older than ABI 1.4)
  // refused. Either way the call is answered.
  std::unique_ptr<HeldStream> hold(int status, std::string_view content_type, HoldSettings settings,
                                   const HeaderList& headers = {});

  bool answered() const { return answered_; }

 private:
  Status checked(opbase_rc rc, std::string_view what);
  // The same for a call that answers: answered() once one was taken.
  Status answer(opbase_rc rc, std::string_view what);

  const opbase_host_api& api_;
  const opbase_route_request& request_;
  opbase_stream* stream_;
  bool answered_ = false;
};

using RouteHandler = std::function<void(RouteCall&)>;

}  // namespace opbase
