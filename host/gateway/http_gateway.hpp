// HttpGateway: the routes of the daemon's HTTP front (http::HttpServer), in front of the
// Dispatcher:
//   POST /api/{endpoint_key}   ops, and the statement form      (docs/api.md#routes)
//   POST /api                  the same, project chosen by the API key
//   GET  /api/{endpoint_key}/.well-known/jwks.json   the ID token keys (no API key)
//   GET  /healthz              whether the process responds
//   GET  /readyz               stores reachable, every enabled plugin loaded (503 otherwise)
//   GET  /metrics              Prometheus text format
//   OPTIONS on the /api routes  CORS preflight (gateway/cors_policy.hpp)
//   any method on a plugin's route (abi.h register_route: /files/ for the file plugin), as a
//   stream on the plugin's lane, without API key or token: the route checks its own credentials
// Anything else is a JSON error: 404 for an unknown path, 405 (with Allow) for a wrong method.
// Every response carries X-Request-Id, and those of the /api routes the CORS headers. An API call's
// endpoint key and API key are checked as soon as its headers arrive, before any of its body is
// read.
//
// Thread-safety: start/stop from the main thread; requests are served on the server's threads.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "config/config.hpp"
#include "gateway/cors_policy.hpp"
#include "gateway/dispatcher.hpp"
#include "http/http_server.hpp"
#include "metrics/metrics.hpp"

namespace opbase::host {

struct ReadinessReport {
  bool ready = true;
  std::string json;  // {"status": "ready"|"not_ready", "checks": {...}}
};

struct GatewaySettings {
  http::ServerSettings server;
  // The most JSON values a request body may hold (server.max_json_values).
  size_t max_json_values = 200000;
  // SHA-256 of `server.admin_key` (at least 32 characters), or empty: the key that, sent as
  // X-Admin-Key, calls admin ops without an admin's token. Only the digest is kept.
  std::string admin_key_digest;
  // Which web origins may call the API from a browser (server.cors_origins).
  CorsPolicy cors = CorsPolicy::any_origin();
  // One log line per request (log.requests).
  bool log_requests = true;

  static Result<GatewaySettings> from(const Config& config);
};

class HttpGateway final : public http::Handler {
 public:
  HttpGateway(GatewaySettings settings, const Dispatcher& dispatcher, Metrics& metrics,
              std::function<ReadinessReport()> readiness);
  ~HttpGateway() override;

  // Binds and starts serving. Fails naming the address when the port cannot be had.
  Status start();
  // The bound port (the real one when configured as 0).
  int port() const { return server_.port(); }
  const std::string& host() const { return settings_.server.host; }

  // Stops accepting, lets in-flight requests finish (at most `drain_s` seconds), closes idle
  // kept-alive connections.
  void stop(int drain_s);

  // http::Handler
  std::optional<http::Response> admit(const http::RequestHead& head,
                                      std::string_view client_address) const override;
  void handle(http::Request& request, http::Reply reply) const override;
  http::Response refuse(int http_status, const Status& why,
                        const http::RequestHead* head) const override;
  bool streams(const http::RequestHead& head) const override;
  void stream(std::unique_ptr<http::Stream> stream) const override;

 private:
  // One request on its way through the gateway; copied into a lane job when its op runs there.
  struct Exchange {
    http::Request& request;  // valid until `reply` is called (exchange.hpp)
    std::string request_id;
    std::chrono::steady_clock::time_point started;
    http::Reply reply;
  };

  // The response, or nullopt when a lane will send it.
  std::optional<http::Response> route(Exchange& exchange, ApiAnswer& served) const;
  // `served` gets the call's op, project and code, for the request log.
  std::optional<http::Response> serve_api(Exchange& exchange, ApiAnswer& served) const;
  std::optional<http::Response> send_to_lane(Exchange& exchange, LaneCall checked,
                                             ApiAnswer& served) const;
  static ApiAnswer refused_on_lane(const Exchange& exchange, const LaneCall& checked,
                                   bool stopping);
  http::Response api_response(const Exchange& exchange, ApiAnswer answer, ApiAnswer& served) const;
  void send(Exchange& exchange, http::Response response, const ApiAnswer& served) const;
  http::Response answer_options(const http::RequestHead& head, const char* allowed_methods,
                                const std::string& request_id) const;
  // `on_lane`: the checked call, when this runs on its op's lane; nullptr on a worker.
  ApiAnswer call_dispatcher_guarded(const Exchange& exchange, const LaneCall* on_lane) const;
  ApiAnswer call_dispatcher(const Exchange& exchange, const LaneCall* on_lane) const;
  // A route's request on its lane: the plugin's handler, then the answer it did not give, the
  // request log line and the metrics.
  void run_route(const RouteEntry& route, opbase_stream& exchange, bool stopping,
                 std::chrono::steady_clock::time_point started) const;
  // The endpoint route of the path /api/{endpoint_key}/<name>, or nullptr.
  const RouteEntry* endpoint_route(const http::RequestHead& head) const;
  void refuse_endpoint_route(opbase_stream& exchange, const Status& why) const;

  GatewaySettings settings_;
  const Dispatcher& dispatcher_;
  Metrics& metrics_;
  std::function<ReadinessReport()> readiness_;
  http::HttpServer server_;
  bool started_ = false;
};

}  // namespace opbase::host
