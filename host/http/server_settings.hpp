// ServerSettings: the HTTP front's configuration (the `server.*` keys): where it listens, how many
// workers and queued requests, the timeouts and the size and connection caps. What each limit does
// is described in http_server.hpp.
//
// Thread-safety: a plain value; the server's parts read it and never change it once it started.
#pragma once

#include <cstddef>
#include <string>

namespace opbase::host::http {

struct ServerSettings {
  std::string host = "127.0.0.1";
  int port = 8080;
  int threads = 64;
  int queue = 256;
  bool keep_alive = true;
  int keep_alive_timeout_s = 15;
  int max_keep_alive_requests = 0;  // 0: no limit
  int header_timeout_s = 10;
  int receive_timeout_s = 30;
  int send_timeout_s = 30;
  size_t max_header_bytes = 16384;
  size_t max_body_bytes = 4 << 20;
  size_t max_inflight_body_bytes = size_t{64} << 20;
  int max_connections = 16384;
  int max_connections_per_address = 1000;  // 0: no limit
};

}  // namespace opbase::host::http
