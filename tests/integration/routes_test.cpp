// routes_test: plugin routes (abi.h register_route) in the real daemon, through the echo
// example's /echo/ route and the probe plugin's /probes/ route: bodies far over
// server.max_body_bytes streamed both ways with the daemon's memory flat, HEAD, no API key
// asked, X-Request-Id on every answer, a chunked body refused, a handler that throws or does not
// answer getting INTERNAL_ERROR with the request id (400 when the client cut the body short and
// still listens), headers the host writes itself refused, the request log keeping the path but
// never the query (a signed URL is a credential), and /metrics counting the route's requests.
// Then endpoint routes (abi.h register_endpoint_route), through the probe's
// /api/{endpoint_key}/probe: only with the project's API key, in the header or the query, CORS
// and a preflight as on the API; and responses held open (stream_hold) by it: pushes from ops
// reach the client as they come, a close ends the body, a client that leaves or reads too
// slowly ends its response with the reason told to the plugin.
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
    options.config["server.cors_origins"] = "https://app.example";
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

TEST_F(Routes, AnEndpointRouteAnswersOnlyWithTheProjectsApiKey) {
  const std::string path = daemon_->api_path() + "/probe";
  const HttpResponse by_header =
      daemon_->request("GET", path, "", {{"X-API-KEY", daemon_->api_key()}});
  ASSERT_EQ(by_header.status, 200) << by_header.describe();
  EXPECT_TRUE(by_header.body.starts_with("project ") && by_header.body.size() > 8)
      << by_header.body;
  EXPECT_FALSE(by_header.header("X-Request-Id").empty());
  // In the query, as a browser's EventSource must send it.
  const HttpResponse by_query = daemon_->request("GET", path + "?api_key=" + daemon_->api_key());
  EXPECT_EQ(by_query.status, 200) << by_query.describe();
  EXPECT_EQ(by_query.body, by_header.body);
  const struct {
    std::string path;
    Headers headers;
  } refused[] = {
      {path, {}},
      {path + "?api_key=", {}},
      {path, {{"X-API-KEY", daemon_->api_key() + "x"}}},
      {path + "?api_key=" + daemon_->api_key() + "x", {}},
      {"/api/no-such-endpoint/probe", {{"X-API-KEY", daemon_->api_key()}}},
  };
  for (const auto& attempt : refused) {
    const HttpResponse answer = daemon_->request("GET", attempt.path, "", attempt.headers);
    EXPECT_EQ(answer.status, 401) << attempt.path << " " << answer.describe();
    EXPECT_EQ(answer.json()["error"]["code"], "AUTHENTICATION_FAILED") << attempt.path;
  }
  // A name no plugin registered is no route.
  const HttpResponse unknown = daemon_->request("GET", daemon_->api_path() + "/probe_nothing", "",
                                                {{"X-API-KEY", daemon_->api_key()}});
  EXPECT_EQ(unknown.status, 404) << unknown.describe();
  EXPECT_EQ(unknown.json()["error"]["code"], "UNKNOWN_OPERATION");
}

TEST_F(Routes, AnEndpointRouteHasTheApisCorsAndPreflight) {
  const std::string path = daemon_->api_path() + "/probe";
  const HttpResponse allowed = daemon_->request(
      "GET", path, "", {{"X-API-KEY", daemon_->api_key()}, {"Origin", "https://app.example"}});
  EXPECT_EQ(allowed.status, 200);
  EXPECT_EQ(allowed.header("Access-Control-Allow-Origin"), "https://app.example");
  const HttpResponse refused =
      daemon_->request("GET", path, "", {{"Origin", "https://app.example"}});
  EXPECT_EQ(refused.status, 401);
  EXPECT_EQ(refused.header("Access-Control-Allow-Origin"), "https://app.example")
      << "a page must be able to read why it was refused";
  const HttpResponse preflight =
      daemon_->request("OPTIONS", path, "",
                       {{"Origin", "https://app.example"},
                        {"Access-Control-Request-Method", "GET"},
                        {"Access-Control-Request-Headers", "x-api-key"}});
  EXPECT_EQ(preflight.status, 204) << preflight.describe();
  EXPECT_EQ(preflight.header("Allow"), "GET, OPTIONS");
}

// Opens the probe's held response `name` and waits for its head and first bytes.
std::unique_ptr<RawConnection> open_held(const DaemonProcess& daemon, const std::string& name,
                                         const std::string& query = "") {
  auto client = std::make_unique<RawConnection>(daemon.port());
  EXPECT_TRUE(client->send("GET " + daemon.api_path() + "/probe?name=" + name + query +
                           " HTTP/1.1\r\nHost: x\r\nX-API-KEY: " + daemon.api_key() + "\r\n\r\n"));
  EXPECT_TRUE(client->receive_until("\nproject ", 5s)) << client->received;
  return client;
}

json held_ends(const DaemonProcess& daemon) {
  return daemon.call_expecting(200, {{"op", "probe.held_ends"}})["data"];
}

// The plugin hears how a held response ended (on the front's thread, just after it did).
std::string wait_held_end(const DaemonProcess& daemon, const std::string& name) {
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  for (;;) {
    const json ends = held_ends(daemon);
    if (ends.contains(name)) return ends[name].get<std::string>();
    if (std::chrono::steady_clock::now() > deadline) return "";
    std::this_thread::sleep_for(20ms);
  }
}

TEST_F(Routes, AHeldResponseCarriesPushesUntilItIsClosed) {
  auto client = open_held(*daemon_, "one");
  const std::string head = client->received.substr(0, client->received.find("\r\n\r\n"));
  EXPECT_TRUE(head.starts_with("HTTP/1.1 200"));
  EXPECT_NE(head.find("Content-Type: text/event-stream"), std::string::npos);
  EXPECT_EQ(head.find("Content-Length"), std::string::npos);
  EXPECT_NE(head.find("Connection: close"), std::string::npos);
  EXPECT_NE(head.find("X-Request-Id: "), std::string::npos);
  for (int i = 0; i < 20; ++i) {
    const std::string text = "event " + std::to_string(i) + "\n";
    EXPECT_EQ(
        daemon_->call_expecting(
            200, {{"op", "probe.held_push"}, {"name", "one"}, {"text", text}})["data"]["pushed"],
        true);
    EXPECT_TRUE(client->receive_until(text, 5s)) << i;
  }
  daemon_->call_expecting(200, {{"op", "probe.held_close"}, {"name", "one"}, {"text", "bye\n"}});
  EXPECT_TRUE(client->closed_by_server(5s));
  EXPECT_TRUE(client->received.ends_with("event 19\nbye\n"));
  EXPECT_EQ(wait_held_end(*daemon_, "one"), "closed");
  EXPECT_EQ(daemon_->call_expecting(
                200, {{"op", "probe.held_push"}, {"name", "one"}, {"text", "x"}})["data"]["pushed"],
            false);
}

TEST_F(Routes, AHeldResponseEndsWhenItsClientLeavesOrReadsTooSlowly) {
  auto leaves = open_held(*daemon_, "leaves");
  leaves->close();
  EXPECT_EQ(wait_held_end(*daemon_, "leaves"), "client_left");
  // A client that reads nothing: once the sockets are full, pushes pile up past the queue's
  // bound of 4096 bytes.
  auto slow = open_held(*daemon_, "slow", "&max_queued=4096");
  const std::string piece(2048, 'z');
  int taken = 0;
  for (; taken < 100'000; ++taken) {
    const json pushed = daemon_->call_expecting(
        200, {{"op", "probe.held_push"}, {"name", "slow"}, {"text", piece}})["data"]["pushed"];
    if (pushed != true) break;
  }
  EXPECT_GT(taken, 10) << "pushes are refused only once the client falls behind";
  EXPECT_LT(taken, 100'000) << "the bound was never passed";
  EXPECT_EQ(wait_held_end(*daemon_, "slow"), "too_slow");
  EXPECT_TRUE(slow->closed_by_server(30s));
  EXPECT_TRUE(slow->received.ends_with("too slow\n"));
  EXPECT_GE(daemon_->metric("opbase_http_held_too_slow_total").value_or(0), 1);
}

}  // namespace
}  // namespace opbase::test
