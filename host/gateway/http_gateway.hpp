// HttpGateway: the Poco HTTP server in front of the Dispatcher. Routes
//   POST /api/{endpoint_key}   ops, and the statement form      (DECISIONS 1)
//   POST /api                  the same, project chosen by the API key
//   GET  /api/{endpoint_key}/.well-known/jwks.json   the ID token keys (DECISIONS 17; no API key)
//   GET  /healthz              the process answers
//   GET  /readyz               stores reachable, every enabled plugin loaded (503 otherwise)
//   GET  /metrics              Prometheus text format
// Anything else is a JSON error: 404 for an unknown path, 405 (with Allow) for a wrong method.
// Every response carries X-Request-Id.
//
// Thread-safety: start/stop from the main thread; requests are served on Poco's worker threads.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "config/config.hpp"
#include "gateway/dispatcher.hpp"
#include "metrics/metrics.hpp"

namespace Poco {
class ThreadPool;
namespace Net {
class HTTPServer;
class ServerSocket;
}  // namespace Net
}  // namespace Poco

namespace opbase::host {

struct ReadinessReport {
  bool ready = true;
  std::string json;  // {"status": "ready"|"not_ready", "checks": {...}}
};

struct GatewaySettings {
  std::string host = "127.0.0.1";
  int port = 8080;
  int threads = 64;
  int queue = 256;
  bool keep_alive = true;
  int keep_alive_timeout_s = 15;
  int max_keep_alive_requests = 0;
  int receive_timeout_s = 30;
  size_t max_body_bytes = 4 << 20;
  // SHA-256 of `server.admin_key` (at least 32 characters), or empty: the key that, sent as
  // X-Admin-Key, calls admin ops without an admin's token. Only the digest is kept.
  std::string admin_key_digest;

  static Result<GatewaySettings> from(const Config& config);
};

class HttpGateway {
 public:
  HttpGateway(GatewaySettings settings, const Dispatcher& dispatcher, Metrics& metrics,
              std::function<ReadinessReport()> readiness);
  ~HttpGateway();

  // Binds and starts serving. Fails naming the address when the port cannot be had.
  Status start();
  // The bound port (the real one when configured as 0).
  int port() const { return port_; }
  const std::string& host() const { return settings_.host; }

  // Stops accepting, lets in-flight requests finish (at most `drain_s` seconds), closes idle
  // kept-alive connections.
  void stop(int drain_s);

 private:
  GatewaySettings settings_;
  const Dispatcher& dispatcher_;
  Metrics& metrics_;
  std::function<ReadinessReport()> readiness_;
  std::unique_ptr<Poco::ThreadPool> pool_;  // outlives server_, which runs on it
  std::unique_ptr<Poco::Net::HTTPServer> server_;
  std::unique_ptr<Poco::Net::ServerSocket> listener_;  // the server's socket, closed first on stop
  int port_ = 0;
};

}  // namespace opbase::host
