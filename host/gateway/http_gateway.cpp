#include "gateway/http_gateway.hpp"

#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/NetException.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/ThreadPool.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <chrono>
#include <optional>
#include <random>
#include <thread>

#include "gateway/envelope.hpp"
#include "gateway/jwks_route.hpp"
#include "log/log.hpp"
#include "util/secrets.hpp"

namespace opbase::host {
namespace {

using Poco::Net::HTTPRequest;
using Poco::Net::HTTPResponse;
using Poco::Net::HTTPServerRequest;
using Poco::Net::HTTPServerResponse;

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
std::string request_id_for(const HTTPServerRequest& request) {
  const std::string& given = request.get("X-Request-Id", "");
  if (given.empty() || given.size() > 64) return new_request_id();
  for (char c : given) {
    const bool plain =
        std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    if (!plain) return new_request_id();
  }
  return given;
}

// The client's IP address as text, without Poco's IPAddress copy and its toString() allocations.
std::string client_host(const Poco::Net::SocketAddress& address) {
  const sockaddr* sa = address.addr();
  char text[INET6_ADDRSTRLEN];
  const void* raw =
      sa->sa_family == AF_INET6
          ? static_cast<const void*>(&reinterpret_cast<const sockaddr_in6*>(sa)->sin6_addr)
          : static_cast<const void*>(&reinterpret_cast<const sockaddr_in*>(sa)->sin_addr);
  if (inet_ntop(sa->sa_family, raw, text, sizeof text) == nullptr) return address.host().toString();
  return text;
}

// Reads at most `max` bytes of body; sets `too_large` when more was on offer. `length` is the
// Content-Length header when there is one (Poco looks it up and parses it on every call: once).
std::string read_body(HTTPServerRequest& request, std::optional<int64_t> length, size_t max,
                      bool* too_large) {
  *too_large = false;
  if (length && *length > static_cast<int64_t>(max)) {
    *too_large = true;
    return {};
  }
  std::string body;
  if (length && *length > 0) body.reserve(static_cast<size_t>(*length));
  std::istream& in = request.stream();
  char chunk[16384];
  while (in) {
    in.read(chunk, sizeof chunk);
    const auto got = static_cast<size_t>(in.gcount());
    if (got == 0) break;
    if (body.size() + got > max) {
      *too_large = true;
      return {};
    }
    body.append(chunk, got);
  }
  return body;
}

// Counts one API request as in flight for as long as it lives, exceptions included.
class InFlight {
 public:
  explicit InFlight(Metrics& metrics) : metrics_(metrics) { metrics_.request_started(); }
  ~InFlight() { metrics_.request_finished(); }
  InFlight(const InFlight&) = delete;
  InFlight& operator=(const InFlight&) = delete;

 private:
  Metrics& metrics_;
};

// The most of a refused (too large) body the gateway reads and drops after answering 413.
constexpr size_t kMaxDiscardBytes = 64u << 20;

class GatewayHandler final : public Poco::Net::HTTPRequestHandler {
 public:
  GatewayHandler(const Dispatcher& dispatcher, Metrics& metrics,
                 const std::function<ReadinessReport()>& readiness)
      : dispatcher_(dispatcher), metrics_(metrics), readiness_(readiness) {}

  void handleRequest(HTTPServerRequest& request, HTTPServerResponse& response) override {
    const auto started = std::chrono::steady_clock::now();
    const std::string request_id = request_id_for(request);
    response.set("X-Request-Id", request_id);
    std::string path = request.getURI();
    if (auto q = path.find('?'); q != std::string::npos) path.resize(q);
    const std::string& method = request.getMethod();

    // Before the API calls: it is a path below an endpoint key, which they refuse.
    if (const auto endpoint_key = jwks_endpoint_key(path)) {
      if (!allow(response, method, "GET", request_id)) return;
      drain(request);
      const ApiAnswer answer =
          serve_jwks(dispatcher_.projects(), dispatcher_.registry(), *endpoint_key, request_id);
      send(response, answer.http_status, "application/json", answer.body, answer.headers);
      return;
    }
    if (path == "/api" || path == "/api/" || path.starts_with("/api/")) {
      InFlight in_flight(metrics_);
      ApiAnswer answer = serve_api_guarded(request, response, path, method, request_id);
      send(response, answer.http_status, "application/json", answer.body, answer.headers);
      // The client may still be sending the refused body: take it in (bounded) so it can finish
      // and read the 413, instead of meeting a connection reset.
      if (answer.metric_code == code::kPayloadTooLarge) drain(request, kMaxDiscardBytes);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      metrics_.record_request(answer.metric_op, answer.metric_code, seconds);
      return;
    }
    if (path == "/healthz") {
      if (!allow(response, method, "GET", request_id)) return;
      send(response, 200, "application/json", "{\"status\":\"ok\"}", {});
      return;
    }
    if (path == "/readyz") {
      if (!allow(response, method, "GET", request_id)) return;
      const ReadinessReport report = readiness_();
      send(response, report.ready ? 200 : 503, "application/json", report.json, {});
      return;
    }
    if (path == "/metrics") {
      if (!allow(response, method, "GET", request_id)) return;
      send(response, 200, "text/plain; version=0.0.4; charset=utf-8", metrics_.render(), {});
      return;
    }
    drain(request);
    send_error(response, 404,
               Status(code::kUnknownOperation, "no route " + method + " " + path.substr(0, 256),
                      {{"method", method}, {"path", path.substr(0, 256)}}),
               request_id);
  }

 private:
  // Whatever goes wrong inside, the client gets an envelope and the log the reason.
  ApiAnswer serve_api_guarded(HTTPServerRequest& request, HTTPServerResponse& response,
                              const std::string& path, const std::string& method,
                              const std::string& request_id) {
    try {
      return serve_api(request, response, path, method, request_id);
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

  ApiAnswer serve_api(HTTPServerRequest& request, HTTPServerResponse& response,
                      const std::string& path, const std::string& method,
                      const std::string& request_id) {
    ApiAnswer answer;
    std::optional<std::string_view> endpoint_key;
    if (path.size() > 5) {  // "/api/..."
      std::string_view key = std::string_view(path).substr(5);
      if (key.find('/') != std::string_view::npos) {
        drain(request);
        answer.http_status = 404;
        answer.body = error_envelope(
            Status(code::kUnknownOperation, "no route " + method + " " + path.substr(0, 256),
                   {{"method", method}, {"path", path.substr(0, 256)}}),
            request_id);
        answer.metric_code = std::string(code::kUnknownOperation);
        return answer;
      }
      endpoint_key = key;
    }
    if (method != HTTPRequest::HTTP_POST) {
      drain(request);
      response.set("Allow", "POST");
      answer.http_status = 405;
      answer.body =
          error_envelope(Status(code::kUnknownOperation, "API calls use POST, not " + method,
                                {{"method", method}}),
                         request_id);
      answer.metric_code = std::string(code::kUnknownOperation);
      return answer;
    }
    std::optional<int64_t> content_length;
    if (request.hasContentLength()) content_length = request.getContentLength64();
    if (content_length && *content_length < 0) {
      // Nothing tells where such a body ends: answer and close the connection.
      response.setKeepAlive(false);
      answer.http_status = 400;
      answer.body =
          error_envelope(Status::validation("the Content-Length header is negative"), request_id);
      answer.metric_code = std::string(code::kValidationError);
      return answer;
    }
    bool too_large = false;
    const std::string body =
        read_body(request, content_length, dispatcher_.max_body_bytes(), &too_large);
    // A body left unread would be taken for the next request: close the connection instead.
    if (too_large) response.setKeepAlive(false);
    const std::string client = client_host(request.clientAddress());
    ApiCall call;
    call.endpoint_key = endpoint_key;
    call.api_key = request.get("X-API-KEY", "");
    call.authorization = request.get("Authorization", "");
    call.admin_key = request.get("X-Admin-Key", "");
    call.body = body;
    call.body_too_large = too_large;
    call.request_id = request_id;
    call.client_address = client;
    return dispatcher_.handle(call);
  }

  bool allow(HTTPServerResponse& response, const std::string& method, const char* allowed,
             const std::string& request_id) {
    if (method == allowed || method == HTTPRequest::HTTP_HEAD) return true;
    response.set("Allow", allowed);
    send_error(response, 405,
               Status(code::kUnknownOperation,
                      "this path answers " + std::string(allowed) + ", not " + method,
                      {{"method", method}}),
               request_id);
    return false;
  }

  // Reads and discards a small body so the connection stays usable; a large one closes it.
  static void drain(HTTPServerRequest& request, size_t max = 64 * 1024) {
    std::istream& in = request.stream();
    char chunk[16384];
    size_t dropped = 0;
    while (in && dropped < max) {
      in.read(chunk, sizeof chunk);
      const auto got = static_cast<size_t>(in.gcount());
      if (got == 0) break;
      dropped += got;
    }
  }

  static void send_error(HTTPServerResponse& response, int status, const Status& error,
                         const std::string& request_id) {
    send(response, status, "application/json", error_envelope(error, request_id), {});
  }

  static void send(HTTPServerResponse& response, int status, const std::string& content_type,
                   const std::string& body,
                   const std::vector<std::pair<std::string, std::string>>& headers) {
    response.setStatusAndReason(static_cast<HTTPResponse::HTTPStatus>(status));
    response.setContentType(content_type);
    for (const auto& [name, value] : headers) response.set(name, value);
    response.sendBuffer(body.data(), body.size());
  }

  const Dispatcher& dispatcher_;
  Metrics& metrics_;
  const std::function<ReadinessReport()>& readiness_;
};

class GatewayFactory final : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  GatewayFactory(const Dispatcher& dispatcher, Metrics& metrics,
                 const std::function<ReadinessReport()>& readiness)
      : dispatcher_(dispatcher), metrics_(metrics), readiness_(readiness) {}
  Poco::Net::HTTPRequestHandler* createRequestHandler(const HTTPServerRequest&) override {
    return new GatewayHandler(dispatcher_, metrics_, readiness_);
  }

 private:
  const Dispatcher& dispatcher_;
  Metrics& metrics_;
  const std::function<ReadinessReport()>& readiness_;
};

}  // namespace

Result<GatewaySettings> GatewaySettings::from(const Config& config) {
  GatewaySettings s;
  s.host = config.get_or("server.host", s.host);
  auto port = config.get_int("server.port", 0, 65535);
  auto threads = config.get_int("server.threads", 1, 4096);
  auto queue = config.get_int("server.queue", 1, 1 << 20);
  auto keep_alive = config.get_bool("server.keep_alive");
  auto keep_alive_timeout = config.get_int("server.keep_alive_timeout_s", 1, 3600);
  auto max_keep_alive = config.get_int("server.max_keep_alive_requests", 0, INT32_MAX);
  auto receive_timeout = config.get_int("server.receive_timeout_s", 1, 3600);
  auto max_body = config.get_int("server.max_body_bytes", 1024, int64_t{1} << 32);
  for (const Status& st : {port.status(), threads.status(), queue.status(), keep_alive.status(),
                           keep_alive_timeout.status(), max_keep_alive.status(),
                           receive_timeout.status(), max_body.status()}) {
    if (!st) return st;
  }
  s.port = static_cast<int>(*port);
  s.threads = static_cast<int>(*threads);
  s.queue = static_cast<int>(*queue);
  s.keep_alive = *keep_alive;
  s.keep_alive_timeout_s = static_cast<int>(*keep_alive_timeout);
  s.max_keep_alive_requests = static_cast<int>(*max_keep_alive);
  s.receive_timeout_s = static_cast<int>(*receive_timeout);
  s.max_body_bytes = static_cast<size_t>(*max_body);
  if (const auto admin_key = config.get("server.admin_key"); admin_key && !admin_key->empty()) {
    if (admin_key->size() < 32) {
      return Status::validation("server.admin_key must be at least 32 characters (random ones)");
    }
    s.admin_key_digest = sha256(*admin_key);
  }
  return s;
}

HttpGateway::HttpGateway(GatewaySettings settings, const Dispatcher& dispatcher, Metrics& metrics,
                         std::function<ReadinessReport()> readiness)
    : settings_(std::move(settings)),
      dispatcher_(dispatcher),
      metrics_(metrics),
      readiness_(std::move(readiness)) {}

HttpGateway::~HttpGateway() {
  if (server_) stop(0);
}

Status HttpGateway::start() {
  Poco::Net::ServerSocket socket;
  try {
    socket.bind(Poco::Net::SocketAddress(settings_.host, static_cast<Poco::UInt16>(settings_.port)),
                /*reuseAddress=*/true);
    socket.listen(std::max(64, settings_.queue));
  } catch (const Poco::Exception& e) {
    return Status::internal("cannot listen on " + settings_.host + ":" +
                            std::to_string(settings_.port) + ": " + e.displayText());
  }
  port_ = socket.address().port();
  listener_ = std::make_unique<Poco::Net::ServerSocket>(socket);  // shares the socket

  auto* params = new Poco::Net::HTTPServerParams();
  params->setMaxThreads(settings_.threads);
  params->setMaxQueued(settings_.queue);
  params->setKeepAlive(settings_.keep_alive);
  params->setKeepAliveTimeout(Poco::Timespan(settings_.keep_alive_timeout_s, 0));
  params->setMaxKeepAliveRequests(settings_.max_keep_alive_requests);
  params->setTimeout(Poco::Timespan(settings_.receive_timeout_s, 0));
  params->setServerName("opbase");
  // Threads are made up front: the first burst of connections should not wait on thread start.
  pool_ = std::make_unique<Poco::ThreadPool>(settings_.threads, settings_.threads + 4, 60, 0);
  server_ = std::make_unique<Poco::Net::HTTPServer>(
      new GatewayFactory(dispatcher_, metrics_, readiness_), *pool_, socket, params);
  server_->start();
  return Status::ok();
}

void HttpGateway::stop(int drain_s) {
  if (!server_) return;
  // Stop accepting, then close the listening socket: from now on a new connection is refused at
  // once (its client may try another instance) rather than left in the backlog until we exit.
  server_->stop();
  listener_->close();
  // stopAll(false): close idle connections, let requests being served finish.
  std::thread stopper([this] { server_->stopAll(false); });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(drain_s);
  while (server_->currentConnections() > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (server_->currentConnections() > 0) {
    log::warn("gateway", std::to_string(server_->currentConnections()) +
                             " connection(s) still busy after the drain time; aborting them");
    server_->stopAll(true);
  }
  stopper.join();
  server_.reset();
  pool_->joinAll();
  pool_.reset();
}

}  // namespace opbase::host
