#include "gateway/http_gateway.hpp"

#include <chrono>
#include <random>

#include "gateway/envelope.hpp"
#include "gateway/jwks_route.hpp"
#include "gateway/request_log.hpp"
#include "log/log.hpp"
#include "metrics/process_metrics.hpp"
#include "opbase/crypto.hpp"
#include "opbase/internal/str.hpp"
#include "opbase/url_query.hpp"
#include "plugin_host/route_stream.hpp"

namespace opbase::host {
namespace {

// Request ids need to be unique, not secret: a per-thread generator seeded once from the OS.
std::string new_request_id() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id(32, '0');
  for (int half = 0; half < 2; ++half) {
    uint64_t bits = rng();
    for (int i = 0; i < 16; ++i, bits >>= 4) id[half * 16 + i] = kHex[bits & 0xf];
  }
  return id;
}

// A client may bring its own request id (from a proxy, say) if it is short and plain.
std::string request_id_for(const http::RequestHead& head) {
  const std::string_view given = head.field("X-Request-Id");
  if (given.empty() || given.size() > 64) return new_request_id();
  for (char c : given) {
    const bool plain =
        std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    if (!plain) return new_request_id();
  }
  return std::string(given);
}

bool is_api_path(std::string_view path) { return path == "/api" || path.starts_with("/api/"); }

// The endpoint key of an API path: nullopt for "/api" and "/api/", the rest after "/api/"
// otherwise (which may hold a '/', making it no route).
std::optional<std::string_view> endpoint_key_of(std::string_view path) {
  if (path.size() <= 5) return std::nullopt;
  return path.substr(5);
}

// The endpoint key and the name of an endpoint route's path, /api/{endpoint_key}/<name> (neither
// holding a '/'), or nullopt.
std::optional<std::pair<std::string_view, std::string_view>> endpoint_route_of(
    std::string_view path) {
  if (!path.starts_with("/api/")) return std::nullopt;
  const std::string_view rest = path.substr(5);
  const size_t slash = rest.find('/');
  if (slash == 0 || slash == std::string_view::npos) return std::nullopt;
  const std::string_view name = rest.substr(slash + 1);
  if (name.empty() || name.find('/') != std::string_view::npos) return std::nullopt;
  return std::pair{rest.substr(0, slash), name};
}

http::Response json_response(int status, std::string body, const std::string& request_id) {
  http::Response response;
  response.status = status;
  response.body = std::move(body);
  response.headers.emplace_back("X-Request-Id", request_id);
  return response;
}

http::Response error_response(int status, const Status& error, const std::string& request_id) {
  http::Response response = json_response(status, error_envelope(error, request_id), request_id);
  if (auto seconds = retry_after(error)) response.headers.emplace_back("Retry-After", *seconds);
  return response;
}

http::Response no_route(const http::RequestHead& head, const std::string& request_id) {
  const std::string path = std::string(head.path().substr(0, 256));
  return error_response(404,
                        Status(code::kUnknownOperation, "no route " + head.method + " " + path,
                               {{"method", head.method}, {"path", path}}),
                        request_id);
}

// A 405 naming the allowed method, or nullopt when `head` uses it (or HEAD).
std::optional<http::Response> unless_method(const http::RequestHead& head, const char* allowed,
                                            const std::string& request_id) {
  if (head.method == allowed || head.method == "HEAD") return std::nullopt;
  http::Response response =
      error_response(405,
                     Status(code::kUnknownOperation,
                            "this path answers " + std::string(allowed) + ", not " + head.method,
                            {{"method", head.method}}),
                     request_id);
  response.headers.emplace_back("Allow", allowed);
  return response;
}

}  // namespace

Result<GatewaySettings> GatewaySettings::from(const Config& config) {
  GatewaySettings s;
  http::ServerSettings& server = s.server;
  server.host = config.get_or("server.host", server.host);
  struct IntKey {
    const char* name;
    int64_t min, max;
    int* target;
  };
  int64_t max_body = 0, max_inflight = 0, max_values = 0;
  const IntKey int_keys[] = {
      {"server.port", 0, 65535, &server.port},
      {"server.threads", 1, 4096, &server.threads},
      {"server.queue", 1, 1 << 20, &server.queue},
      {"server.keep_alive_timeout_s", 1, 3600, &server.keep_alive_timeout_s},
      {"server.max_keep_alive_requests", 0, INT32_MAX, &server.max_keep_alive_requests},
      {"server.header_timeout_s", 1, 3600, &server.header_timeout_s},
      {"server.receive_timeout_s", 1, 3600, &server.receive_timeout_s},
      {"server.send_timeout_s", 1, 3600, &server.send_timeout_s},
      {"server.max_connections", 1, 1 << 22, &server.max_connections},
      {"server.max_connections_per_address", 0, 1 << 22, &server.max_connections_per_address},
  };
  for (const IntKey& key : int_keys) {
    auto value = config.get_int(key.name, key.min, key.max);
    if (!value) return value.status();
    *key.target = static_cast<int>(*value);
  }
  const std::pair<const char*, int64_t*> size_keys[] = {
      {"server.max_body_bytes", &max_body},
      {"server.max_inflight_body_bytes", &max_inflight},
      {"server.max_json_values", &max_values},
  };
  for (const auto& [name, target] : size_keys) {
    auto value = config.get_int(name, 1024, int64_t{1} << 40);
    if (!value) return value.status();
    *target = *value;
  }
  auto keep_alive = config.get_bool("server.keep_alive");
  if (!keep_alive) return keep_alive.status();
  server.keep_alive = *keep_alive;
  server.max_body_bytes = static_cast<size_t>(max_body);
  server.max_inflight_body_bytes = static_cast<size_t>(max_inflight);
  if (server.max_inflight_body_bytes < server.max_body_bytes) {
    return Status::validation(
        "server.max_inflight_body_bytes must be at least server.max_body_bytes (one largest "
        "body must fit)");
  }
  s.max_json_values = static_cast<size_t>(max_values);
  if (const auto admin_key = config.get("server.admin_key"); admin_key && !admin_key->empty()) {
    if (admin_key->size() < 32) {
      return Status::validation("server.admin_key must be at least 32 characters (random ones)");
    }
    s.admin_key_digest = sha256(*admin_key);
  }
  auto cors = CorsPolicy::from(config);
  if (!cors) return cors.status();
  s.cors = std::move(*cors);
  auto log_requests = config.get_bool("log.requests");
  if (!log_requests) return log_requests.status();
  s.log_requests = *log_requests;
  return s;
}

HttpGateway::HttpGateway(GatewaySettings settings, const Dispatcher& dispatcher, Metrics& metrics,
                         std::function<ReadinessReport()> readiness)
    : settings_(std::move(settings)),
      dispatcher_(dispatcher),
      metrics_(metrics),
      readiness_(std::move(readiness)),
      server_(settings_.server, *this) {}

HttpGateway::~HttpGateway() { stop(0); }

Status HttpGateway::start() {
  Status started = server_.start();
  started_ = started.is_ok();
  return started;
}

void HttpGateway::stop(int drain_s) {
  if (!started_) return;
  started_ = false;
  dispatcher_.registry().begin_stopping_lanes();
  server_.stop(drain_s);
  // Lane calls hold connections the front keeps until they answer: they finish (queued ones are
  // refused at once) before the front's connections go.
  dispatcher_.registry().stop_lanes();
}

std::optional<http::Response> HttpGateway::admit(const http::RequestHead& head,
                                                 std::string_view) const {
  const std::string_view path = head.path();
  if (!is_api_path(path) || head.method != "POST") return std::nullopt;
  const std::optional<std::string_view> endpoint_key = endpoint_key_of(path);
  // A path below an endpoint key is no API call (the JWKS, or no route): handle() responds to it.
  if (endpoint_key && endpoint_key->find('/') != std::string_view::npos) return std::nullopt;
  const auto admitted = dispatcher_.admit(endpoint_key, head.field("X-API-KEY"));
  if (admitted) return std::nullopt;
  const std::string request_id = request_id_for(head);
  metrics_.record_request("none", admitted.status().code(), 0);
  http::Response response =
      error_response(admitted.status().http_status(), admitted.status(), request_id);
  settings_.cors.add_headers(head.field("Origin"), response.headers);
  if (settings_.log_requests) {
    log_request({.method = head.method,
                 .path = path,
                 .status = response.status,
                 .code = admitted.status().code(),
                 .request_id = request_id});
  }
  return response;
}

http::Response HttpGateway::refuse(int http_status, const Status& why,
                                   const http::RequestHead* head) const {
  const std::string request_id = new_request_id();
  http::Response response = error_response(http_status, why, request_id);
  if (head == nullptr) {
    settings_.cors.add_headers_without_request(response.headers);
  } else if (is_api_path(head->path())) {
    settings_.cors.add_headers(head->field("Origin"), response.headers);
  }
  if (settings_.log_requests) {
    log_request({.method = head != nullptr ? std::string_view(head->method) : "-",
                 .path = head != nullptr ? head->path() : "-",
                 .status = http_status,
                 .code = why.code(),
                 .request_id = request_id});
  }
  return response;
}

// OPTIONS on an API route: the methods it answers, and for a CORS preflight whether the page's
// origin may send the request (403 when it may not, so the refusal is plain to anyone testing
// with curl; the browser refuses either way).
http::Response HttpGateway::answer_options(const http::RequestHead& head,
                                           const char* allowed_methods,
                                           const std::string& request_id) const {
  const std::string_view origin = head.field("Origin");
  if (CorsPolicy::is_preflight(head) && !settings_.cors.allows(origin)) {
    http::Response refused =
        error_response(403,
                       Status(code::kForbidden,
                              "this origin may not call the API from a browser (see "
                              "server.cors_origins)",
                              {{"origin", std::string(origin.substr(0, 256))}}),
                       request_id);
    settings_.cors.add_headers(origin, refused.headers);
    return refused;
  }
  http::Response response;
  response.status = 204;
  response.headers.emplace_back("X-Request-Id", request_id);
  response.headers.emplace_back("Allow", allowed_methods);
  if (CorsPolicy::is_preflight(head)) {
    for (auto& header : settings_.cors.preflight_headers(origin, allowed_methods)) {
      response.headers.push_back(std::move(header));
    }
  }
  return response;
}

const RouteEntry* HttpGateway::endpoint_route(const http::RequestHead& head) const {
  const auto parts = endpoint_route_of(head.path());
  return parts ? dispatcher_.registry().find_endpoint_route(parts->second) : nullptr;
}

bool HttpGateway::streams(const http::RequestHead& head) const {
  if (dispatcher_.registry().find_route(head.path()) != nullptr) return true;
  // A preflight is answered by the host (route()), as on every API path.
  return head.method != "OPTIONS" && endpoint_route(head) != nullptr;
}

void HttpGateway::stream(std::unique_ptr<http::Stream> stream) const {
  const auto started = std::chrono::steady_clock::now();
  const http::RequestHead& head = stream->request().head;
  const RouteEntry* route = dispatcher_.registry().find_route(head.path());
  auto exchange = std::make_shared<opbase_stream>();
  exchange->request_id = request_id_for(head);
  if (route == nullptr) {
    route = endpoint_route(head);
    settings_.cors.add_headers(head.field("Origin"), exchange->host_headers);
    // In the query only for a browser's EventSource, which cannot set headers (abi.h).
    std::string api_key(head.field("X-API-KEY"));
    if (api_key.empty()) api_key = url_query_value(head.target, "api_key").value_or("");
    const auto admitted = dispatcher_.admit(endpoint_route_of(head.path())->first, api_key);
    exchange->stream = std::move(stream);
    if (!admitted) return refuse_endpoint_route(*exchange, admitted.status());
    exchange->project_id = (*admitted)->id;
  } else {
    exchange->stream = std::move(stream);
  }
  if (route->lane->try_run([this, route, exchange, started](bool stopping) {
        run_route(*route, *exchange, stopping, started);
      })) {
    return;
  }
  run_route(*route, *exchange, /*stopping=*/true, started);
}

// An endpoint route's request without a valid API key: refused before it reaches the plugin.
void HttpGateway::refuse_endpoint_route(opbase_stream& exchange, const Status& why) const {
  const http::RequestHead& head = exchange.stream->request().head;
  const std::string method = head.method;
  const std::string path(head.path());
  route_answer_error(exchange, why);
  exchange.stream->finish();
  metrics_.record_request("none", why.code(), 0);
  if (settings_.log_requests) {
    log_request({.method = method,
                 .path = path,
                 .status = exchange.status,
                 .code = why.code(),
                 .request_id = exchange.request_id});
  }
}

void HttpGateway::run_route(const RouteEntry& route, opbase_stream& exchange, bool stopping,
                            std::chrono::steady_clock::time_point started) const {
  const http::Request& request = exchange.stream->request();
  // The request belongs to the connection again once the stream finishes: what the log needs
  // is copied before that.
  const std::string method = request.head.method;
  const std::string path(request.head.path());
  const std::string_view code_of_answer = [&]() -> std::string_view {
    if (stopping) {
      const bool full = !route.lane->stopping();
      route_answer_error(exchange,
                         Status(code::kRateLimitExceeded,
                                full ? "every thread of the " + route.plugin +
                                           " lane is busy and its queue is full; try again"
                                     : "the server is stopping; try again",
                                {{"retry_after", 1}, {"reason", full ? "lane_full" : "stopping"}}));
      return code::kRateLimitExceeded;
    }
    const opbase_route_request call{
        sizeof(opbase_route_request), str(request.head.method),
        str(request.head.target),     str(request.client_address),
        str(exchange.request_id),     static_cast<int64_t>(request.head.content_length.value_or(0)),
        str(exchange.project_id)};
    route.fn(route.state, &call, &exchange);
    if (!exchange.answered && exchange.stream->body_ended_early()) {
      // The handler gave up on the body (stream_read said -1), but the client only stopped
      // sending and still reads: it hears why, as a whole request cut short would.
      route_answer_error(exchange,
                         Status::validation("the request body ended before it was complete",
                                            {{"reason", "short"}}),
                         400);
      return code::kValidationError;
    }
    if (!exchange.answered) {
      route_answer_error(exchange, Status::internal("the route's handler did not answer"));
      return code::kInternalError;
    }
    return exchange.status < 400 ? std::string_view("OK") : std::string_view("-");
  }();
  exchange.stream->finish();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  metrics_.record_request(route.plugin + ".route", code_of_answer, seconds);
  if (settings_.log_requests) {
    // The path only: a signed URL's query is a credential and stays out of the log.
    log_request({.method = method,
                 .path = path,
                 .status = exchange.status,
                 .code = code_of_answer,
                 .seconds = seconds,
                 .request_id = exchange.request_id});
  }
}

void HttpGateway::handle(http::Request& request, http::Reply reply) const {
  Exchange exchange{request, request_id_for(request.head), std::chrono::steady_clock::now(),
                    std::move(reply)};
  ApiAnswer served;  // what an API call was: its op, project and code
  served.metric_op.clear();
  served.metric_code.clear();
  std::optional<http::Response> response = route(exchange, served);
  if (response) send(exchange, std::move(*response), served);
}

// The request log line, then the response on its way.
void HttpGateway::send(Exchange& exchange, http::Response response, const ApiAnswer& served) const {
  if (settings_.log_requests) {
    const http::RequestHead& head = exchange.request.head;
    const std::string_view fallback_code = response.status < 400 ? "OK" : "-";
    log_request(
        {.method = head.method,
         .path = head.path(),
         .op = served.metric_op == "none" ? std::string_view() : served.metric_op,
         .project = served.project,
         .status = response.status,
         .code = served.metric_code.empty() ? fallback_code : std::string_view(served.metric_code),
         .seconds =
             std::chrono::duration<double>(std::chrono::steady_clock::now() - exchange.started)
                 .count(),
         .request_id = exchange.request_id});
  }
  exchange.reply(std::move(response));
}

std::optional<http::Response> HttpGateway::route(Exchange& exchange, ApiAnswer& served) const {
  const http::RequestHead& head = exchange.request.head;
  const std::string& request_id = exchange.request_id;
  const std::string_view path = head.path();
  // Before the API calls: it is a path below an endpoint key, which they refuse.
  if (const auto endpoint_key = jwks_endpoint_key(path)) {
    if (head.method == "OPTIONS") return answer_options(head, "GET, HEAD, OPTIONS", request_id);
    http::Response response;
    if (auto refused = unless_method(head, "GET", request_id)) {
      response = std::move(*refused);
    } else {
      const ApiAnswer answer =
          serve_jwks(dispatcher_.projects(), dispatcher_.registry(), *endpoint_key, request_id);
      response = json_response(answer.http_status, answer.body, request_id);
      for (const auto& header : answer.headers) response.headers.push_back(header);
    }
    settings_.cors.add_headers(head.field("Origin"), response.headers);
    return response;
  }
  if (is_api_path(path)) {
    if (head.method == "OPTIONS") {
      const bool endpoint = endpoint_route(head) != nullptr;
      return answer_options(head, endpoint ? "GET, OPTIONS" : "POST, OPTIONS", request_id);
    }
    return serve_api(exchange, served);
  }
  if (path == "/healthz") {
    if (auto refused = unless_method(head, "GET", request_id)) return *refused;
    return json_response(200, "{\"status\":\"ok\"}", request_id);
  }
  if (path == "/readyz") {
    if (auto refused = unless_method(head, "GET", request_id)) return *refused;
    const ReadinessReport report = readiness_();
    return json_response(report.ready ? 200 : 503, report.json, request_id);
  }
  if (path == "/metrics") {
    if (auto refused = unless_method(head, "GET", request_id)) return *refused;
    http::Response response =
        json_response(200,
                      metrics_.render() + server_.metrics_text() +
                          dispatcher_.registry().lanes_metrics_text() + process_metrics_text(),
                      request_id);
    response.content_type = "text/plain; version=0.0.4; charset=utf-8";
    return response;
  }
  return no_route(head, request_id);
}

std::optional<http::Response> HttpGateway::serve_api(Exchange& exchange, ApiAnswer& served) const {
  metrics_.request_started();
  ApiAnswer answer = call_dispatcher_guarded(exchange, nullptr);
  if (answer.lane_call) return send_to_lane(exchange, std::move(*answer.lane_call), served);
  return api_response(exchange, std::move(answer), served);
}

// The call goes on on its op's lane, which sends the response; or, when the lane is full or
// stopping, is refused here and now.
std::optional<http::Response> HttpGateway::send_to_lane(Exchange& exchange, LaneCall checked,
                                                        ApiAnswer& served) const {
  Lane* lane = checked.op->lane;
  auto job = [this, exchange, checked](bool stopping) mutable {
    ApiAnswer answer = stopping ? refused_on_lane(exchange, checked, true)
                                : call_dispatcher_guarded(exchange, &checked);
    ApiAnswer served;
    http::Response response = api_response(exchange, std::move(answer), served);
    send(exchange, std::move(response), served);
  };
  if (lane->try_run(std::move(job))) return std::nullopt;
  return api_response(exchange, refused_on_lane(exchange, checked, lane->stopping()), served);
}

// 503 RATE_LIMIT_EXCEEDED for a call its lane cannot take: full, or stopping with the server.
ApiAnswer HttpGateway::refused_on_lane(const Exchange& exchange, const LaneCall& checked,
                                       bool stopping) {
  const Status why = stopping
                         ? Status(code::kRateLimitExceeded, "the server is stopping; try again",
                                  {{"retry_after", 1}, {"reason", "stopping"}})
                         : Status(code::kRateLimitExceeded,
                                  "every thread of the " + checked.op->lane->plugin() +
                                      " lane is busy and its queue is full; try again",
                                  {{"retry_after", 1}, {"reason", "lane_full"}});
  ApiAnswer answer;
  answer.http_status = 503;
  answer.body = error_envelope(why, exchange.request_id);
  answer.metric_code = why.code();
  answer.metric_op = checked.op->name;
  answer.project = checked.project->id;
  if (auto seconds = retry_after(why)) answer.headers.emplace_back("Retry-After", *seconds);
  return answer;
}

// An API call's answer as an HTTP response: counted, with its headers and CORS.
http::Response HttpGateway::api_response(const Exchange& exchange, ApiAnswer answer,
                                         ApiAnswer& served) const {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - exchange.started).count();
  metrics_.record_request(answer.metric_op, answer.metric_code, seconds);
  metrics_.request_finished();
  http::Response response =
      json_response(answer.http_status, std::move(answer.body), exchange.request_id);
  for (auto& header : answer.headers) response.headers.push_back(std::move(header));
  settings_.cors.add_headers(exchange.request.head.field("Origin"), response.headers);
  served.metric_op = std::move(answer.metric_op);
  served.metric_code = std::move(answer.metric_code);
  served.project = std::move(answer.project);
  return response;
}

// Whatever goes wrong inside, the client gets an envelope and the log the reason.
ApiAnswer HttpGateway::call_dispatcher_guarded(const Exchange& exchange,
                                               const LaneCall* on_lane) const {
  const std::string& request_id = exchange.request_id;
  try {
    return call_dispatcher(exchange, on_lane);
  } catch (const std::exception& e) {
    log::error("gateway", "request " + request_id + " failed: " + e.what());
  } catch (...) {
    log::error("gateway", "request " + request_id + " failed with an unknown exception");
  }
  ApiAnswer answer;
  answer.http_status = 500;
  answer.body = error_envelope(Status::internal("internal error"), request_id);
  answer.metric_code = std::string(code::kInternalError);
  return answer;
}

ApiAnswer HttpGateway::call_dispatcher(const Exchange& exchange, const LaneCall* on_lane) const {
  const http::Request& request = exchange.request;
  const std::string& request_id = exchange.request_id;
  const http::RequestHead& head = request.head;
  const std::optional<std::string_view> endpoint_key = endpoint_key_of(head.path());
  ApiAnswer answer;
  if (endpoint_key && endpoint_key->find('/') != std::string_view::npos) {
    http::Response response = no_route(head, request_id);
    answer.http_status = response.status;
    answer.body = std::move(response.body);
    answer.metric_code = std::string(code::kUnknownOperation);
    return answer;
  }
  if (head.method != "POST") {
    answer.http_status = 405;
    answer.body =
        error_envelope(Status(code::kUnknownOperation, "API calls use POST, not " + head.method,
                              {{"method", head.method}}),
                       request_id);
    answer.headers.emplace_back("Allow", "POST");
    answer.metric_code = std::string(code::kUnknownOperation);
    return answer;
  }
  ApiCall call;
  call.endpoint_key = endpoint_key;
  call.api_key = head.field("X-API-KEY");
  call.authorization = head.field("Authorization");
  call.admin_key = head.field("X-Admin-Key");
  call.body = request.body;
  call.request_id = request_id;
  call.client_address = request.client_address;
  return on_lane != nullptr ? dispatcher_.run_on_lane(call, *on_lane) : dispatcher_.handle(call);
}

}  // namespace opbase::host
