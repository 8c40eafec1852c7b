// RouteStream: the host's side of one `opbase_stream*` (abi.h, routes): a plugin route's
// exchange, over the HTTP front's Stream (http/exchange.hpp). It checks what the plugin does with
// it: one answer, a body of exactly the length announced, header lines that cannot split the
// response, and every response carrying X-Request-Id. The route_* functions are the ones of
// the host's function table.
//
// Thread-safety: one exchange belongs to the route handler's thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "http/exchange.hpp"
#include "opbase/abi.h"
#include "opbase/status.hpp"

struct opbase_stream {
  std::unique_ptr<opbase::host::http::Stream> stream;
  std::string request_id;
  std::string project_id;  // on an endpoint route: the project its keys named
  // Headers the host adds to every answer besides X-Request-Id (CORS, on an endpoint route).
  std::vector<std::pair<std::string, std::string>> host_headers;
  bool answered = false;   // respond, respond_error or start was called
  int status = 0;          // the answer's, for the request log
  uint64_t body_left = 0;  // after start: bytes still to send
};

// A response held open (stream_hold), as the plugin holds it until held_release.
struct opbase_held {
  std::shared_ptr<opbase::host::http::HeldResponse> response;
};

namespace opbase::host {

// Headers a plugin gives as "Name: value\r\n" lines; refused (nullopt) when a line is not one
// header or names one the host writes itself.
std::optional<std::vector<std::pair<std::string, std::string>>> route_headers(std::string_view);

// The error envelope as a whole response, when the handler did not answer (500) or the lane
// could not take the request (503).
void route_answer_error(opbase_stream& stream, const Status& status, int http_status = 0);

opbase_rc route_header(opbase_stream* stream, opbase_str name, opbase_config_value_fn on_value,
                       void* caller_ctx);
int64_t route_read(opbase_stream* stream, char* buffer, size_t capacity);
opbase_rc route_respond(opbase_stream* stream, int status, opbase_str content_type,
                        opbase_str headers, opbase_str body);
opbase_rc route_respond_error(opbase_stream* stream, opbase_str code, opbase_str message,
                              opbase_str details, int http_status);
opbase_rc route_start(opbase_stream* stream, int status, opbase_str content_type,
                      opbase_str headers, uint64_t content_length);
opbase_rc route_write(opbase_stream* stream, opbase_str bytes);
opbase_rc route_send_file(opbase_stream* stream, int fd, uint64_t offset, uint64_t length);

// ABI 1.4: responses held open after their head.
opbase_held* route_hold(opbase_stream* stream, int status, opbase_str content_type,
                        opbase_str headers, uint64_t max_queued_bytes, opbase_str too_slow_farewell,
                        opbase_held_end_fn on_end, void* on_end_state);
opbase_rc held_push(opbase_held* held, opbase_str bytes);
void held_close(opbase_held* held, opbase_str last);
uint64_t held_queued_bytes(opbase_held* held);
void held_release(opbase_held* held);

}  // namespace opbase::host
