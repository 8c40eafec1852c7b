// The request log: one line per request the daemon answered (log.requests), "request" under the
// component "http", with the fields an operator filters on. Never a key, token or body: the
// route is a template ("/api/{endpoint_key}"), not the path, and the op one a plugin registered.
//
//   2026-11-25T10:00:00.123Z INFO  [http] request method=POST route=/api/{endpoint_key}
//     op=collection.find project=default status=200 code=OK duration_ms=0.412 request_id=6f1c...
//
// Thread-safety: any thread.
#pragma once

#include <string>
#include <string_view>

namespace opbase::host {

struct RequestRecord {
  std::string_view method{};
  std::string_view path{};     // as requested; only its route is logged
  std::string_view op{};       // a registered op, "unknown", or "" when none was read
  std::string_view project{};  // "" when no project was found
  int status = 0;
  std::string_view code{};  // the error code, or "OK"
  double seconds = 0;
  std::string_view request_id{};
};

// The route `path` takes, with the endpoint key replaced by a placeholder; other paths are cut
// to 128 bytes.
std::string route_of(std::string_view path);

void log_request(const RequestRecord& record);

}  // namespace opbase::host
