// FakeOpenAiServer: an OpenAI-compatible server for tests, in this process (Poco's HTTP server on
// 127.0.0.1 and a free port). It records every request (path, headers, body) and answers as the
// test says: a script of replies taken in turn (the last one repeats), or a function of the
// request. A reply can wait before answering or never answer (until the server stops), so
// time-outs, retries and the concurrency limit can be tested; the server counts how many requests
// it held at once.
//
//   FakeOpenAiServer server;
//   server.script({error_reply(500, "overloaded"), chat_reply("A summary.")});
//   settings.base_url = server.base_url();   // "http://127.0.0.1:<port>/v1"
//   ... run the provider ...
//   EXPECT_EQ(server.requests().size(), 2u);
//
// Starting and stopping a server takes a quarter of a second (Poco's accept loop), so a test
// suite may share one and reset() it before each test.
//
// Thread-safety: every member may be called from any thread while the server runs.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace opbase::test {

struct FakeRequest {
  std::string method;
  std::string path;                            // as requested, with any query
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
  nlohmann::json json;  // the body parsed, or null when it is not JSON

  // The header `name` (any case), or "".
  std::string header(std::string_view name) const;
};

struct FakeReply {
  int status = 200;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  std::chrono::milliseconds delay{0};  // waited before answering
  bool hang = false;                   // no answer until the server stops
};

// A chat completion whose first choice's message says `content`.
FakeReply chat_reply(const std::string& content, const std::string& model = "fake-chat-1");
// A chat completion whose content is `answer` as JSON text (a structured answer).
FakeReply json_chat_reply(const nlohmann::json& answer, const std::string& model = "fake-chat-1");
// An embeddings answer with `vectors` in order, or listed last first when `reversed` (each item
// keeps its "index").
FakeReply embeddings_reply(const std::vector<std::vector<float>>& vectors,
                           const std::string& model = "fake-embed-1", bool reversed = false);
// {"error": {"message": ..., "type": ..., "code": ...}} with `status`.
FakeReply error_reply(int status, const std::string& message, const std::string& code = "");

using FakeHandler = std::function<FakeReply(const FakeRequest&)>;

class FakeOpenAiServer {
 public:
  // Listens at once; port() is 0 when it could not.
  FakeOpenAiServer();
  ~FakeOpenAiServer();
  FakeOpenAiServer(const FakeOpenAiServer&) = delete;
  FakeOpenAiServer& operator=(const FakeOpenAiServer&) = delete;

  int port() const { return port_; }
  std::string base_url() const;  // "http://127.0.0.1:<port>/v1"

  // Replies taken in turn by the requests that follow; the last one repeats.
  void script(std::vector<FakeReply> replies);
  // Every request that follows is answered by `handler` (called from the server's threads).
  void handle(FakeHandler handler);

  // Forgets the requests, the script, the handler and the count of requests held at once, and
  // ends every reply still waiting (a hanging one closes its connection unanswered): one server
  // can serve many tests.
  void reset();

  std::vector<FakeRequest> requests() const;
  // The most requests held at once (received, not yet answered) since the start.
  int max_in_flight() const;

  // Called by the server's request handlers.
  FakeReply take(const FakeRequest& request);
  void done();
  // Waits `delay`, or forever for a hanging reply; returns early on reset() and when the server
  // stops.
  void wait(const FakeReply& reply);

 private:
  struct Listener;  // the Poco server, kept out of this header
  std::unique_ptr<Listener> listener_;
  int port_ = 0;

  mutable std::mutex mutex_;
  std::condition_variable stopping_cv_;
  bool stopping_ = false;
  uint64_t generation_ = 0;  // counts reset() calls
  std::vector<FakeRequest> requests_;
  std::vector<FakeReply> script_;
  size_t next_ = 0;
  FakeHandler handler_;
  int in_flight_ = 0;
  int max_in_flight_ = 0;
};

// A loopback port where nothing listens (bound once, then closed), for "connection refused".
int unused_port();

}  // namespace opbase::test
