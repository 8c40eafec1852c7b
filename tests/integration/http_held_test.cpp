// http_held_test: responses held open by the HTTP front (http/exchange.hpp, Stream::hold, and
// http/held_connection.hpp), the way event streams use them, on an HttpServer started in this
// process with a handler of the test's own, over real sockets: pushes from many threads arrive
// whole and in each pusher's order, a close sends what is queued and ends the connection, far
// more held responses than worker threads stay open at once, a client that leaves ends its
// response, one that stops reading is cut off at the queue's bound with the farewell sent in
// place of what was queued, and the server's stop ends every held response at once. (The cut
// after the send time with nothing more pushed is tested on a socket pair in
// tests/unit/host/http/held_connection_test.cpp: over loopback TCP the kernel of a client that
// reads nothing still takes bytes in dribbles as it compacts its buffer, so no stall is certain.)
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "http/http_server.hpp"
#include "http_client.hpp"

namespace opbase::test {
namespace {

using host::http::HeldEnd;
using host::http::HeldResponse;
using host::http::HoldOptions;
using host::http::Request;
using host::http::RequestHead;
using host::http::Response;
using host::http::Stream;
using namespace std::chrono_literals;

// Holds every request to /held/<name> open under <name>, and records how each one ended.
class HoldingHandler final : public host::http::Handler {
 public:
  std::optional<Response> admit(const RequestHead&, std::string_view) const override {
    return std::nullopt;
  }
  void handle(Request&, host::http::Reply reply) const override {
    reply(Response{200, "text/plain", "whole", {}, false});
  }
  Response refuse(int status, const Status& why, const RequestHead*) const override {
    return Response{status, "text/plain", why.message(), {}, false};
  }
  bool streams(const RequestHead& head) const override { return head.path().starts_with("/held/"); }
  void stream(std::unique_ptr<Stream> stream) const override {
    const std::string name(stream->request().head.path().substr(6));
    HoldOptions options;
    options.max_queued_bytes = 64 * 1024;
    options.too_slow_farewell = "farewell\n";
    options.on_end = [this, name](HeldEnd why) {
      std::lock_guard lock(mu_);
      ends_[name] = why;
      changed_.notify_all();
    };
    auto held = stream->hold(Response{200, "text/event-stream", "", {}, false}, options);
    std::lock_guard lock(mu_);
    held_[name] = std::move(held);
    changed_.notify_all();
  }

  // The response held under `name`, once its handler has held it (nullptr after 5 s).
  std::shared_ptr<HeldResponse> wait_held(const std::string& name) const {
    std::unique_lock lock(mu_);
    changed_.wait_for(lock, 5s, [&] { return held_.count(name) > 0; });
    const auto found = held_.find(name);
    return found == held_.end() ? nullptr : found->second;
  }
  // How the response under `name` ended, once it has (nullopt after `timeout`).
  std::optional<HeldEnd> wait_end(const std::string& name,
                                  std::chrono::milliseconds timeout = 5s) const {
    std::unique_lock lock(mu_);
    changed_.wait_for(lock, timeout, [&] { return ends_.count(name) > 0; });
    const auto found = ends_.find(name);
    if (found == ends_.end()) return std::nullopt;
    return found->second;
  }
  size_t ended() const {
    std::lock_guard lock(mu_);
    return ends_.size();
  }

 private:
  mutable std::mutex mu_;
  mutable std::condition_variable changed_;
  mutable std::map<std::string, std::shared_ptr<HeldResponse>> held_;
  mutable std::map<std::string, HeldEnd> ends_;
};

class HttpHeldTest : public ::testing::Test {
 protected:
  void SetUp() override {
    host::http::ServerSettings settings;
    settings.host = "127.0.0.1";
    settings.port = 0;
    settings.threads = 2;  // far fewer than the responses held at once
    settings.send_timeout_s = 2;
    server_ = std::make_unique<host::http::HttpServer>(settings, handler_);
    ASSERT_TRUE(server_->start().is_ok());
    port_ = server_->port();
  }
  void TearDown() override {
    if (server_) server_->stop(1);
  }

  // Opens /held/<name> and waits for its head.
  std::unique_ptr<RawConnection> open(const std::string& name) {
    auto client = std::make_unique<RawConnection>(port_);
    EXPECT_TRUE(client->send("GET /held/" + name + " HTTP/1.1\r\nHost: x\r\n\r\n"));
    EXPECT_TRUE(client->receive_until("\r\n\r\n", 5s)) << name;
    return client;
  }
  // The metric's value in the server's Prometheus text.
  double metric(const std::string& name) const {
    const std::string text = server_->metrics_text();
    const size_t at = text.find("\n" + name + " ");
    return at == std::string::npos ? -1 : std::stod(text.substr(at + name.size() + 2));
  }

  HoldingHandler handler_;
  std::unique_ptr<host::http::HttpServer> server_;
  int port_ = 0;
};

std::string body_of(const std::string& received) {
  const size_t end = received.find("\r\n\r\n");
  return end == std::string::npos ? "" : received.substr(end + 4);
}

TEST_F(HttpHeldTest, TheHeadHasNoLengthAndTheBodyEndsWithTheConnection) {
  auto client = open("head");
  EXPECT_NE(client->received.find("HTTP/1.1 200 "), std::string::npos);
  EXPECT_NE(client->received.find("Content-Type: text/event-stream\r\n"), std::string::npos);
  EXPECT_EQ(client->received.find("Content-Length"), std::string::npos);
  EXPECT_NE(client->received.find("Connection: close\r\n"), std::string::npos);
  auto held = handler_.wait_held("head");
  ASSERT_NE(held, nullptr);
  EXPECT_TRUE(held->push("one\n"));
  ASSERT_TRUE(client->receive_until("one\n", 5s));
  held->close("last\n");
  EXPECT_TRUE(client->closed_by_server(5s));
  EXPECT_EQ(body_of(client->received), "one\nlast\n");
  EXPECT_EQ(handler_.wait_end("head"), HeldEnd::kClosed);
  EXPECT_FALSE(held->push("after\n"));
}

TEST_F(HttpHeldTest, PushesFromManyThreadsArriveWholeAndInEachPushersOrder) {
  auto client = open("many");
  auto held = handler_.wait_held("many");
  ASSERT_NE(held, nullptr);
  constexpr int kThreads = 8, kLines = 500;
  std::vector<std::thread> pushers;
  for (int t = 0; t < kThreads; ++t) {
    pushers.emplace_back([&, t] {
      for (int i = 0; i < kLines; ++i) {
        // Paced by the queue: a pusher that finds it full waits a little rather than overrun it.
        const std::string line = "t" + std::to_string(t) + " " + std::to_string(i) + "\n";
        while (held->queued_bytes() > 32 * 1024) std::this_thread::sleep_for(1ms);
        ASSERT_TRUE(held->push(line));
      }
    });
  }
  // The client reads meanwhile, so the queue drains.
  std::thread reader([&] { client->closed_by_server(20s); });
  for (auto& pusher : pushers) pusher.join();
  held->close("");
  reader.join();
  std::vector<int> next(kThreads, 0);
  const std::string body = body_of(client->received);
  size_t start = 0, lines = 0;
  while (start < body.size()) {
    const size_t end = body.find('\n', start);
    ASSERT_NE(end, std::string::npos) << "a torn line at " << start;
    const std::string line = body.substr(start, end - start);
    const int t = std::stoi(line.substr(1));
    const int i = std::stoi(line.substr(line.find(' ') + 1));
    ASSERT_EQ(i, next[t]) << "thread " << t << " out of order";
    ++next[t];
    ++lines;
    start = end + 1;
  }
  EXPECT_EQ(lines, size_t{kThreads * kLines});
}

TEST_F(HttpHeldTest, FarMoreHeldResponsesThanWorkersStayOpenAtOnce) {
  constexpr int kClients = 200;
  std::vector<std::unique_ptr<RawConnection>> clients;
  for (int i = 0; i < kClients; ++i) clients.push_back(open("c" + std::to_string(i)));
  std::vector<std::shared_ptr<HeldResponse>> held;
  for (int i = 0; i < kClients; ++i) {
    held.push_back(handler_.wait_held("c" + std::to_string(i)));
    ASSERT_NE(held.back(), nullptr) << i;
  }
  // Every one is held at once, by two worker threads.
  EXPECT_EQ(metric("opbase_http_held_open"), kClients);
  for (int i = 0; i < kClients; ++i) EXPECT_TRUE(held[i]->push("to " + std::to_string(i) + "\n"));
  for (int i = 0; i < kClients; ++i) {
    EXPECT_TRUE(clients[i]->receive_until("to " + std::to_string(i) + "\n", 5s)) << i;
  }
  // An ordinary request is still served beside them.
  EXPECT_EQ(http_request(port_, "GET", "/plain").body, "whole");
}

TEST_F(HttpHeldTest, AClientThatLeavesEndsItsResponse) {
  auto client = open("leaves");
  auto held = handler_.wait_held("leaves");
  ASSERT_NE(held, nullptr);
  EXPECT_EQ(handler_.wait_end("leaves", 200ms), std::nullopt);
  client->close();
  EXPECT_EQ(handler_.wait_end("leaves"), HeldEnd::kClientLeft);
  EXPECT_FALSE(held->push("anyone?\n"));
  EXPECT_EQ(metric("opbase_http_held_open"), 0);
}

TEST_F(HttpHeldTest, AClientThatStopsReadingIsCutOffAtTheBoundWithTheFarewell) {
  auto client = open("slow");
  auto held = handler_.wait_held("slow");
  ASSERT_NE(held, nullptr);
  // The client reads nothing: the socket's buffers fill, then the queue, then a push fails. The
  // pusher lets the front catch up now and then, so it is the socket that stops taking bytes.
  const std::string piece(1024, 'x');
  size_t pushed = 0;
  while (held->push(piece) && pushed < (size_t{256} << 20)) {
    pushed += piece.size();
    if (held->queued_bytes() > 16 * 1024) std::this_thread::sleep_for(1ms);
  }
  EXPECT_LT(pushed, size_t{256} << 20) << "the queue was never bounded";
  EXPECT_GT(pushed, size_t{256} << 10) << "cut off before the socket was full";
  EXPECT_EQ(handler_.wait_end("slow", 10s), HeldEnd::kTooSlow);
  EXPECT_EQ(metric("opbase_http_held_too_slow_total"), 1);
  // What the socket took arrives, then the farewell in place of the queue, then the close.
  EXPECT_TRUE(client->closed_by_server(20s));
  const std::string body = body_of(client->received);
  ASSERT_GE(body.size(), 9u);
  EXPECT_EQ(body.substr(body.size() - 9), "farewell\n");
  EXPECT_EQ(body.find_first_not_of('x'), body.size() - 9);
  EXPECT_LE(body.size() - 9, pushed);
}

TEST_F(HttpHeldTest, TheServersStopEndsEveryHeldResponseAtOnce) {
  std::vector<std::unique_ptr<RawConnection>> clients;
  for (int i = 0; i < 20; ++i) clients.push_back(open("s" + std::to_string(i)));
  for (int i = 0; i < 20; ++i) ASSERT_NE(handler_.wait_held("s" + std::to_string(i)), nullptr);
  server_->stop(1);
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(handler_.wait_end("s" + std::to_string(i), 1s), HeldEnd::kServerStopping) << i;
    EXPECT_TRUE(clients[i]->closed_by_server(1s)) << i;
  }
  server_.reset();
}

}  // namespace
}  // namespace opbase::test
