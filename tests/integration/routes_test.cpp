// routes_test: plugin routes (abi.h register_route) in the real daemon, through the echo
// example's /echo/ route and the probe plugin's /probes/ route: bodies far over
// server.max_body_bytes streamed both ways with the daemon's memory flat, HEAD, no API key
// asked, X-Request-Id on every answer, a chunked body refused, a handler that throws or does not
// answer getting INTERNAL_ERROR with the request id (400 when the client cut the body short and
// still listens), headers the host writes itself refused, the request log keeping the path but
// never the query (a signed URL is a credential), and /metrics counting the route's requests.
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "daemon_process.hpp"
#include "http_client.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

std::string body_of(const std::string& bytes) {
  const size_t end = bytes.find("\r\n\r\n");
  return end == std::string::npos ? "" : bytes.substr(end + 4);
}

std::string header_of(const std::string& bytes, std::string_view name) {
  const std::string head = bytes.substr(0, bytes.find("\r\n\r\n"));
  const size_t at = head.find("\r\n" + std::string(name) + ": ");
  if (at == std::string::npos) return "";
  const size_t start = at + 4 + name.size();
  return head.substr(start, head.find("\r\n", start) - start);
}

class Routes : public ::testing::Test {
 protected:
  void SetUp() override {
    DaemonOptions options;
    options.plugins = {"echo", test_plugin_path("probe")};
    options.config["server.max_body_bytes"] = "1048576";
    daemon_ = DaemonProcess::start(options);
    ASSERT_NE(daemon_, nullptr);
  }
  std::unique_ptr<DaemonProcess> daemon_;
};

TEST_F(Routes, LargeBodiesStreamBothWaysWithTheDaemonsMemoryFlat) {
  constexpr size_t kUpload = size_t{256} << 20;  // 256 MB against a 1 MB body limit
  const size_t rss_before = daemon_->rss_bytes();
  RawConnection client(daemon_->port());
  ASSERT_TRUE(client.connected());
  ASSERT_TRUE(client.send("PUT /echo/count HTTP/1.1\r\nHost: x\r\nContent-Length: " +
                          std::to_string(kUpload) + "\r\n\r\n"));
  const std::string piece(1 << 20, 'u');
  for (size_t sent = 0; sent < kUpload; sent += piece.size()) ASSERT_TRUE(client.send(piece));
  const RawReply counted = client.read_response(60s);
  ASSERT_EQ(counted.status(), 200) << counted.bytes.substr(0, 300);
  EXPECT_EQ(body_of(counted.bytes), std::to_string(kUpload));
  EXPECT_FALSE(header_of(counted.bytes, "X-Request-Id").empty());

  constexpr size_t kDownload = size_t{64} << 20;
  ASSERT_TRUE(
      client.send("GET /echo/bytes/" + std::to_string(kDownload) + " HTTP/1.1\r\nHost: x\r\n\r\n"));
  const RawReply bytes = client.read_response(60s);
  ASSERT_EQ(bytes.status(), 200);
  EXPECT_EQ(header_of(bytes.bytes, "Content-Length"), std::to_string(kDownload));
  const std::string body = body_of(bytes.bytes);
  ASSERT_EQ(body.size(), kDownload);
  EXPECT_EQ(body.substr(kDownload - 8), "echoecho");
  const size_t growth = daemon_->peak_rss_bytes() - rss_before;
  std::printf("peak RSS growth over 256 MB up and 64 MB down: %zu KB\n", growth / 1024);
  EXPECT_LT(growth, size_t{32} << 20);
}

TEST_F(Routes, HeadAnswersTheLengthAlone) {
  RawConnection client(daemon_->port());
  ASSERT_TRUE(client.send("HEAD /echo/bytes/10 HTTP/1.1\r\nHost: x\r\n\r\n"));
  ASSERT_TRUE(client.send("GET /echo/bytes/3 HTTP/1.1\r\nHost: x\r\n\r\n"));
  client.receive_until("\r\n\r\nech", 10s);
  // The HEAD's head (length 10, no body), then the GET's whole answer on the same connection.
  EXPECT_NE(client.received.find("Content-Length: 10\r\n"), std::string::npos);
  EXPECT_NE(client.received.find("Content-Length: 3\r\n"), std::string::npos);
  EXPECT_TRUE(client.received.ends_with("\r\n\r\nech")) << client.received;
}

TEST_F(Routes, AnswersInTheErrorEnvelope) {
  const RawReply unknown =
      raw_exchange(daemon_->port(), "GET /echo/nothing HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(unknown.status(), 404);
  EXPECT_EQ(json::parse(body_of(unknown.bytes))["error"]["code"], "UNKNOWN_OPERATION");
  const RawReply chunked = raw_exchange(daemon_->port(),
                                        "PUT /echo/count HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: "
                                        "chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n");
  EXPECT_EQ(chunked.status(), 411);
  for (const char* path : {"/probes/throw", "/probes/silent"}) {
    const RawReply failed =
        raw_exchange(daemon_->port(), std::string("GET ") + path + " HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(failed.status(), 500) << path;
    const json error = json::parse(body_of(failed.bytes))["error"];
    EXPECT_EQ(error["code"], "INTERNAL_ERROR") << path;
    EXPECT_EQ(error["details"]["request_id"], header_of(failed.bytes, "X-Request-Id")) << path;
  }
  // A body cut short by a half-close: the echo route gives up without answering (the client
  // went away, for all it knows); the client still listens and hears why.
  const RawReply cut = raw_exchange(
      daemon_->port(),
      "PUT /echo/count HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n" + std::string(10, 'x'));
  EXPECT_EQ(cut.status(), 400) << cut.bytes;
  const json short_body = json::parse(body_of(cut.bytes))["error"];
  EXPECT_EQ(short_body["code"], "VALIDATION_ERROR");
  EXPECT_EQ(short_body["details"]["reason"], "short");
  // The probe tries to set Content-Length itself (refused), then answers what it was told.
  const RawReply refused =
      raw_exchange(daemon_->port(), "GET /probes/own_length HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(refused.status(), 200);
  EXPECT_EQ(body_of(refused.bytes), "refused");
}

TEST_F(Routes, TheLogKeepsThePathButNotTheQueryAndMetricsCountTheRoute) {
  const RawReply answered = raw_exchange(
      daemon_->port(), "GET /echo/bytes/5?signature=very-secret HTTP/1.1\r\nHost: x\r\n\r\n");
  ASSERT_EQ(answered.status(), 200);
  const auto deadline = std::chrono::steady_clock::now() + 5s;  // the log line follows the answer
  while (daemon_->log().find("/echo/bytes/5") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(20ms);
  }
  ASSERT_NE(daemon_->log().find("/echo/bytes/5"), std::string::npos);
  EXPECT_EQ(daemon_->log().find("very-secret"), std::string::npos);
  EXPECT_GE(daemon_->metric(R"(opbase_requests_total{op="echo.route",code="OK"})").value_or(0), 1);
}

}  // namespace
}  // namespace opbase::test
