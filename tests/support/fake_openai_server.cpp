// FakeOpenAiServer: Poco's HTTPServer on a loopback socket with a pool of its own, each request
// handed to the server object that records it and picks its reply. See fake_openai_server.hpp.
#include "fake_openai_server.hpp"

#include <Poco/Exception.h>
#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/StreamCopier.h>
#include <Poco/ThreadPool.h>

#include <algorithm>
#include <cctype>

namespace opbase::test {
namespace {

using nlohmann::json;

// A hanging reply still ends this long after it began (a test that forgot to stop the server).
constexpr std::chrono::seconds kLongestHang{60};

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

class Handler : public Poco::Net::HTTPRequestHandler {
 public:
  explicit Handler(FakeOpenAiServer* server) : server_(server) {}

  void handleRequest(Poco::Net::HTTPServerRequest& request,
                     Poco::Net::HTTPServerResponse& response) override {
    FakeRequest seen;
    seen.method = request.getMethod();
    seen.path = request.getURI();
    for (const auto& [name, value] : request) seen.headers[lower(name)] = value;
    Poco::StreamCopier::copyToString(request.stream(), seen.body);
    seen.json = json::parse(seen.body, nullptr, /*allow_exceptions=*/false);
    if (seen.json.is_discarded()) seen.json = nullptr;
    const FakeReply reply = server_->take(seen);
    server_->wait(reply);
    try {
      if (!reply.hang) send(reply, response);
    } catch (const Poco::Exception&) {
      // The client gave up first (a time-out test): nothing to answer to.
    }
    server_->done();
  }

 private:
  static void send(const FakeReply& reply, Poco::Net::HTTPServerResponse& response) {
    response.setStatus(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(reply.status));
    response.setContentType("application/json");
    response.setContentLength64(static_cast<Poco::Int64>(reply.body.size()));
    for (const auto& [name, value] : reply.headers) response.set(name, value);
    response.send() << reply.body;
  }

  FakeOpenAiServer* server_;  // not owned; outlives every handler
};

class Factory : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  explicit Factory(FakeOpenAiServer* server) : server_(server) {}
  Poco::Net::HTTPRequestHandler* createRequestHandler(
      const Poco::Net::HTTPServerRequest&) override {
    return new Handler(server_);
  }

 private:
  FakeOpenAiServer* server_;
};

json chat_completion(const std::string& content, const std::string& model) {
  return {{"id", "chatcmpl-fake"},
          {"object", "chat.completion"},
          {"created", 1'700'000'000},
          {"model", model},
          {"choices", json::array({{{"index", 0},
                                    {"message", {{"role", "assistant"}, {"content", content}}},
                                    {"finish_reason", "stop"}}})},
          {"usage", {{"prompt_tokens", 10}, {"completion_tokens", 5}, {"total_tokens", 15}}}};
}

}  // namespace

struct FakeOpenAiServer::Listener {
  Poco::ThreadPool pool{2, 64};
  std::unique_ptr<Poco::Net::HTTPServer> http;
};

std::string FakeRequest::header(std::string_view name) const {
  const auto it = headers.find(lower(name));
  return it == headers.end() ? std::string() : it->second;
}

FakeReply chat_reply(const std::string& content, const std::string& model) {
  return {200, chat_completion(content, model).dump(), {}, {}, false};
}

FakeReply json_chat_reply(const json& answer, const std::string& model) {
  return chat_reply(answer.dump(), model);
}

FakeReply embeddings_reply(const std::vector<std::vector<float>>& vectors, const std::string& model,
                           bool reversed) {
  json data = json::array();
  for (size_t i = 0; i < vectors.size(); ++i) {
    data.push_back({{"object", "embedding"}, {"index", i}, {"embedding", vectors[i]}});
  }
  if (reversed) std::reverse(data.begin(), data.end());
  const json body = {{"object", "list"},
                     {"data", data},
                     {"model", model},
                     {"usage", {{"prompt_tokens", 3}, {"total_tokens", 3}}}};
  return {200, body.dump(), {}, {}, false};
}

FakeReply error_reply(int status, const std::string& message, const std::string& code) {
  json error = {{"message", message}, {"type", "invalid_request_error"}, {"param", nullptr}};
  error["code"] = code.empty() ? json(nullptr) : json(code);
  return {status, json{{"error", error}}.dump(), {}, {}, false};
}

FakeOpenAiServer::FakeOpenAiServer() : listener_(std::make_unique<Listener>()) {
  try {
    Poco::Net::ServerSocket socket(Poco::Net::SocketAddress("127.0.0.1", 0), 64);
    auto* params = new Poco::Net::HTTPServerParams;  // owned by the server
    params->setKeepAlive(false);
    params->setMaxThreads(60);
    params->setMaxQueued(100);
    params->setTimeout(Poco::Timespan(10, 0));
    listener_->http =
        std::make_unique<Poco::Net::HTTPServer>(new Factory(this), listener_->pool, socket, params);
    listener_->http->start();
    port_ = socket.address().port();
  } catch (const Poco::Exception&) {
    listener_->http.reset();
    port_ = 0;
  }
}

FakeOpenAiServer::~FakeOpenAiServer() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stopping_cv_.notify_all();
  if (listener_->http) {
    listener_->http->stopAll(true);
    listener_->pool.joinAll();
  }
}

std::string FakeOpenAiServer::base_url() const {
  return "http://127.0.0.1:" + std::to_string(port_) + "/v1";
}

void FakeOpenAiServer::script(std::vector<FakeReply> replies) {
  std::lock_guard lock(mutex_);
  script_ = std::move(replies);
  next_ = 0;
  handler_ = nullptr;
}

void FakeOpenAiServer::handle(FakeHandler handler) {
  std::lock_guard lock(mutex_);
  handler_ = std::move(handler);
}

void FakeOpenAiServer::reset() {
  {
    std::lock_guard lock(mutex_);
    requests_.clear();
    script_.clear();
    next_ = 0;
    handler_ = nullptr;
    max_in_flight_ = in_flight_;
    ++generation_;
  }
  stopping_cv_.notify_all();
}

std::vector<FakeRequest> FakeOpenAiServer::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

int FakeOpenAiServer::max_in_flight() const {
  std::lock_guard lock(mutex_);
  return max_in_flight_;
}

FakeReply FakeOpenAiServer::take(const FakeRequest& request) {
  FakeHandler handler;
  {
    std::lock_guard lock(mutex_);
    max_in_flight_ = std::max(max_in_flight_, ++in_flight_);
    requests_.push_back(request);
    if (!handler_) {
      if (script_.empty()) return error_reply(500, "the fake server has no reply scripted");
      const FakeReply& reply = script_[std::min(next_, script_.size() - 1)];
      ++next_;
      return reply;
    }
    handler = handler_;
  }
  return handler(request);  // outside the lock: a handler may take its time
}

void FakeOpenAiServer::done() {
  std::lock_guard lock(mutex_);
  --in_flight_;
}

void FakeOpenAiServer::wait(const FakeReply& reply) {
  if (!reply.hang && reply.delay.count() <= 0) return;
  std::unique_lock lock(mutex_);
  const auto limit = reply.hang ? std::chrono::milliseconds(kLongestHang) : reply.delay;
  const uint64_t generation = generation_;
  stopping_cv_.wait_for(lock, limit,
                        [this, generation] { return stopping_ || generation_ != generation; });
}

int unused_port() {
  try {
    Poco::Net::ServerSocket socket(Poco::Net::SocketAddress("127.0.0.1", 0));
    const int port = socket.address().port();
    socket.close();
    return port;
  } catch (const Poco::Exception&) {
    return 0;
  }
}

}  // namespace opbase::test
