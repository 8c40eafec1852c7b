// The SDK's HTTP client (sdk/include/opbase/http_client.hpp) against a real HTTP server on
// 127.0.0.1 (tests/support/fake_openai_server.hpp, which records each request and answers as
// told): what a request sends, what a response holds, and each way a request gets no answer.
#include "opbase/http_client.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "fake_openai_server.hpp"

namespace opbase {
namespace {

using std::chrono::milliseconds;
using test::FakeOpenAiServer;
using test::FakeReply;

FakeReply reply(int status, std::string body,
                std::vector<std::pair<std::string, std::string>> headers = {}) {
  FakeReply r;
  r.status = status;
  r.body = std::move(body);
  r.headers = std::move(headers);
  return r;
}

// One server for the suite (starting one takes a quarter of a second), reset before each test.
class HttpClientTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = std::make_unique<FakeOpenAiServer>(); }
  static void TearDownTestSuite() { server_.reset(); }
  void SetUp() override {
    ASSERT_NE(server_->port(), 0) << "the test server could not listen";
    server_->reset();
  }

  static std::string url(const std::string& path) {
    return "http://127.0.0.1:" + std::to_string(server_->port()) + path;
  }

  static inline std::unique_ptr<FakeOpenAiServer> server_;
};

TEST_F(HttpClientTest, PostSendsItsHeadersAndBodyAndReadsTheAnswer) {
  server_->script({reply(201, R"({"made":true})", {{"X-Reply", "  yes  "}})});
  HttpRequest request;
  request.method = "POST";
  request.url = url("/things?x=1");
  request.headers = {{"Content-Type", "application/json"}, {"X-Test", "one"}};
  request.body = R"({"name":"a"})";
  request.user_agent = "opbase-test/1";

  HttpResult result = http_send(request);

  ASSERT_TRUE(result.answered()) << result.error().message;
  const HttpResponse& response = result.response();
  EXPECT_EQ(response.status, 201);
  EXPECT_TRUE(response.is_success());
  EXPECT_EQ(response.body, R"({"made":true})");
  EXPECT_FALSE(response.body_cut);
  EXPECT_EQ(response.header("x-reply"), "yes");
  EXPECT_EQ(response.header("content-type"), "application/json");
  EXPECT_EQ(response.header("no-such-field"), std::nullopt);

  const std::vector<test::FakeRequest> seen = server_->requests();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].method, "POST");
  EXPECT_EQ(seen[0].path, "/things?x=1");
  EXPECT_EQ(seen[0].body, R"({"name":"a"})");
  EXPECT_EQ(seen[0].header("x-test"), "one");
  EXPECT_EQ(seen[0].header("content-type"), "application/json");
  EXPECT_EQ(seen[0].header("content-length"), "12");
  EXPECT_EQ(seen[0].header("user-agent"), "opbase-test/1");
  EXPECT_EQ(seen[0].header("expect"), "");
}

TEST_F(HttpClientTest, GetSendsNoBodyAndHeadReadsOnlyTheHeaders) {
  server_->script({reply(200, "hello", {{"ETag", "\"abc\""}})});
  HttpRequest get;
  get.url = url("/file");
  HttpResult got = http_send(get);
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(got.response().body, "hello");

  HttpRequest head;
  head.method = "HEAD";
  head.url = url("/file");
  HttpResult headed = http_send(head);
  ASSERT_TRUE(headed) << headed.error().message;
  EXPECT_EQ(headed.response().status, 200);
  EXPECT_EQ(headed.response().body, "");
  EXPECT_EQ(headed.response().header("etag"), "\"abc\"");
  EXPECT_EQ(headed.response().header("content-length"), "5");

  const std::vector<test::FakeRequest> seen = server_->requests();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].method, "GET");
  EXPECT_EQ(seen[0].header("content-length"), "");
  EXPECT_EQ(seen[1].method, "HEAD");
}

TEST_F(HttpClientTest, ABodyGoesWithoutAContentTypeItWasNotGiven) {
  server_->script({reply(200, "")});
  HttpRequest put;
  put.method = "PUT";
  put.url = url("/object");
  put.body = "raw bytes";
  ASSERT_TRUE(http_send(put));
  const std::vector<test::FakeRequest> seen = server_->requests();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].method, "PUT");
  EXPECT_EQ(seen[0].body, "raw bytes");
  EXPECT_EQ(seen[0].header("content-type"), "");
}

TEST_F(HttpClientTest, ANon2xxStatusIsAnAnswerWithItsBody) {
  server_->script({reply(503, R"({"error":"busy"})", {{"Retry-After", "3"}})});
  HttpRequest request;
  request.url = url("/busy");
  HttpResult result = http_send(request);
  ASSERT_TRUE(result.answered()) << result.error().message;
  EXPECT_EQ(result.response().status, 503);
  EXPECT_FALSE(result.response().is_success());
  EXPECT_EQ(result.response().body, R"({"error":"busy"})");
  EXPECT_EQ(result.response().header("retry-after"), "3");
}

TEST_F(HttpClientTest, AnAnswerOverTheSizeLimitIsRefused) {
  server_->script({reply(200, std::string(5000, 'x'))});
  HttpRequest request;
  request.url = url("/big");
  request.max_response_bytes = 1000;
  HttpResult result = http_send(request);
  ASSERT_FALSE(result.answered());
  EXPECT_EQ(result.error().kind, HttpFailure::kTooLarge);
  EXPECT_NE(result.error().message.find("1000 bytes"), std::string::npos) << result.error().message;
}

TEST_F(HttpClientTest, KeepFirstCutsAnAnswerOverTheLimitAndKeepsItsStatus) {
  server_->script({reply(500, std::string(5000, 'x'))});
  HttpRequest request;
  request.url = url("/big");
  request.max_response_bytes = 1000;
  request.over_limit = HttpBodyLimit::kKeepFirst;
  HttpResult result = http_send(request);
  ASSERT_TRUE(result.answered()) << result.error().message;
  EXPECT_EQ(result.response().status, 500);
  EXPECT_EQ(result.response().body, std::string(1000, 'x'));
  EXPECT_TRUE(result.response().body_cut);
}

TEST_F(HttpClientTest, ARefusedConnectionIsNoConnection) {
  const int port = test::unused_port();
  ASSERT_NE(port, 0);
  HttpRequest request;
  request.url = "http://127.0.0.1:" + std::to_string(port) + "/";
  HttpResult result = http_send(request);
  ASSERT_FALSE(result.answered());
  EXPECT_EQ(result.error().kind, HttpFailure::kNoConnection);
  EXPECT_FALSE(result.error().message.empty());
}

TEST_F(HttpClientTest, AnAnswerLaterThanTheTimeOutTimesOut) {
  FakeReply slow = reply(200, "late");
  slow.delay = milliseconds(3'000);
  server_->script({slow});
  HttpRequest request;
  request.url = url("/slow");
  request.timeout = milliseconds(300);
  const auto start = std::chrono::steady_clock::now();
  HttpResult result = http_send(request);
  const auto waited = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(result.answered());
  EXPECT_EQ(result.error().kind, HttpFailure::kTimedOut);
  EXPECT_GE(waited, milliseconds(250));
  EXPECT_LT(waited, milliseconds(2'000));
  server_->reset();  // ends the slow reply at once
}

TEST_F(HttpClientTest, TheCancelFlagAbandonsARequestInFlight) {
  FakeReply never;
  never.hang = true;
  server_->script({never});
  std::atomic<bool> cancel{false};
  HttpRequest request;
  request.url = url("/hang");
  request.cancel = &cancel;
  std::thread canceller([&] {
    std::this_thread::sleep_for(milliseconds(200));
    cancel = true;
  });
  const auto start = std::chrono::steady_clock::now();
  HttpResult result = http_send(request);
  const auto waited = std::chrono::steady_clock::now() - start;
  canceller.join();
  ASSERT_FALSE(result.answered());
  EXPECT_EQ(result.error().kind, HttpFailure::kCancelled);
  EXPECT_LT(waited, milliseconds(5'000));
  server_->reset();
}

TEST_F(HttpClientTest, APinConnectsToItsAddressWithoutAskingDns) {
  server_->script({reply(200, "pinned")});
  const std::string port = std::to_string(server_->port());
  HttpRequest request;
  request.url = "http://opbase-pinned.invalid:" + port + "/p";  // .invalid never resolves
  request.pin = "opbase-pinned.invalid:" + port + ":127.0.0.1";
  HttpResult result = http_send(request);
  ASSERT_TRUE(result.answered()) << result.error().message;
  EXPECT_EQ(result.response().body, "pinned");
  ASSERT_EQ(server_->requests().size(), 1u);
  EXPECT_EQ(server_->requests()[0].header("host"), "opbase-pinned.invalid:" + port);
}

TEST_F(HttpClientTest, ThreadsSendAtOnceEachWithItsOwnHandle) {
  server_->script({reply(200, "ok")});
  constexpr int kThreads = 4;
  constexpr int kEach = 5;
  std::atomic<int> answered{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kEach; ++i) {
        HttpRequest request;
        request.url = url("/n");
        HttpResult result = http_send(request);
        if (result && result.response().body == "ok") ++answered;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(answered.load(), kThreads * kEach);
  EXPECT_EQ(server_->requests().size(), static_cast<size_t>(kThreads * kEach));
}

}  // namespace
}  // namespace opbase
