// http_front_test: the daemon's HTTP front under hostile traffic, over real sockets. Idle and
// slow connections hold no worker, deadlines cut slow senders off, connection caps and the body
// memory budget answer with a refusal instead of silence, the API key is checked before the body
// is read, bodies of many small values cost no memory, and requests two parsers could read
// differently are refused. Every loop is bounded in count and seconds.
// Thread-safety: each test runs on the one gtest thread, except where it starts its own.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "daemon_process.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

// The status code and the error envelope's code of a raw response.
struct Refusal {
  int status = 0;
  std::string code;
  std::string retry_after;
};

Refusal refusal_of(const RawReply& reply) {
  Refusal r;
  r.status = reply.status();
  const size_t head_end = reply.bytes.find("\r\n\r\n");
  if (head_end == std::string::npos) return r;
  const json body = json::parse(reply.bytes.substr(head_end + 4), nullptr, false);
  if (body.is_object() && body.contains("error")) r.code = body["error"].value("code", "");
  if (const size_t at = reply.bytes.find("\r\nRetry-After: "); at < head_end) {
    r.retry_after = reply.bytes.substr(at + 15, reply.bytes.find("\r\n", at + 15) - at - 15);
  }
  return r;
}

class HttpFront : public ::testing::Test {
 protected:
  void start(std::map<std::string, std::string> config = {},
             std::vector<std::string> plugins = {"echo"}) {
    DaemonOptions options;
    options.plugins = std::move(plugins);
    options.config = std::move(config);
    daemon_ = DaemonProcess::start(options);
  }

  // The head of a POST to the project's API path with its API key, ended by the blank line.
  std::string api_head(const std::string& extra_fields) const {
    return "POST " + daemon_->api_path() +
           " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-KEY: " + daemon_->api_key() + "\r\n" +
           extra_fields + "\r\n";
  }

  // One echo.ping on a fresh connection, within `timeout`.
  int ping(std::chrono::milliseconds timeout = 5s) const {
    return http_request(daemon_->port(), "POST", daemon_->api_path(), R"({"op":"echo.ping"})",
                        {{"X-API-KEY", daemon_->api_key()}}, BodyEncoding::kContentLength, timeout)
        .status;
  }
  int healthz(std::chrono::milliseconds timeout = 5s) const {
    return http_request(daemon_->port(), "GET", "/healthz", "", {}, BodyEncoding::kContentLength,
                        timeout)
        .status;
  }

  std::unique_ptr<DaemonProcess> daemon_;
};

// ---- connections hold no worker ----

// With 4 workers, 300 idle connections and 50 that send a head a line at a time would have held
// every worker of a thread-per-connection server; here the others are still served.
TEST_F(HttpFront, IdleAndHalfSentConnectionsDoNotStopTheServer) {
  start({{"server.threads", "4"}});
  std::vector<std::unique_ptr<RawConnection>> idle, trickling;
  for (int i = 0; i < 300; ++i) {
    idle.push_back(std::make_unique<RawConnection>(daemon_->port()));
    ASSERT_TRUE(idle.back()->connected()) << "connection " << i;
  }
  for (int i = 0; i < 50; ++i) {
    trickling.push_back(std::make_unique<RawConnection>(daemon_->port()));
    ASSERT_TRUE(trickling.back()->send("POST " + daemon_->api_path() + " HTTP/1.1\r\nX-A: 1\r\n"));
  }
  for (int round = 0; round < 5; ++round) {
    for (auto& c : trickling) c->send("X-More: " + std::to_string(round) + "\r\n");
    EXPECT_EQ(healthz(2s), 200) << "round " << round;
    EXPECT_EQ(ping(2s), 200) << "round " << round;
  }
  EXPECT_GE(daemon_->metric("opbase_http_connections_open").value_or(0), 350);
}

TEST_F(HttpFront, ASlowHeadIsCutOffAtTheHeaderDeadline) {
  start({{"server.header_timeout_s", "1"}});
  RawConnection slow(daemon_->port());
  ASSERT_TRUE(slow.send("POST " + daemon_->api_path() + " HTTP/1.1\r\n"));
  // One field every 200 ms: steady, never done. The daemon must end it at about 1 s.
  bool closed = false;
  for (int i = 0; i < 25 && !closed; ++i) {
    slow.send("X-Line-" + std::to_string(i) + ": x\r\n");
    closed = slow.closed_by_server(200ms);
  }
  EXPECT_TRUE(closed) << "still open after 5 s of a head that never ends";
  EXPECT_TRUE(slow.received.starts_with("HTTP/1.1 408 ")) << slow.received.substr(0, 200);
  EXPECT_EQ(daemon_->metric("opbase_http_timeouts_total{phase=\"request\"}"), 1);
}

TEST_F(HttpFront, AnIdleConnectionIsClosedAtTheDeadline) {
  start({{"server.header_timeout_s", "1"}});
  RawConnection idle(daemon_->port());
  EXPECT_TRUE(idle.closed_by_server(5s));
  EXPECT_TRUE(idle.received.empty()) << "an idle connection is closed without an answer";
  EXPECT_EQ(daemon_->metric("opbase_http_timeouts_total{phase=\"idle\"}"), 1);
}

TEST_F(HttpFront, ASlowBodyIsCutOffAtTheReceiveDeadline) {
  start({{"server.receive_timeout_s", "1"}});
  RawConnection slow(daemon_->port());
  ASSERT_TRUE(slow.send(api_head("Content-Length: 100\r\n") + "{\"op\":"));
  bool closed = false;
  for (int i = 0; i < 25 && !closed; ++i) {
    slow.send(" ");
    closed = slow.closed_by_server(200ms);
  }
  EXPECT_TRUE(closed);
  EXPECT_TRUE(slow.received.starts_with("HTTP/1.1 408 ")) << slow.received.substr(0, 200);
}

// ---- caps ----

TEST_F(HttpFront, PastTheConnectionCapANewConnectionIs503WithRetryAfter) {
  start({{"server.max_connections", "20"}});
  std::vector<std::unique_ptr<RawConnection>> held;
  for (int i = 0; i < 20; ++i) held.push_back(std::make_unique<RawConnection>(daemon_->port()));
  RawConnection extra(daemon_->port());
  ASSERT_TRUE(extra.connected());
  extra.send("GET /healthz HTTP/1.1\r\n\r\n");
  const Refusal r = refusal_of(extra.read_response());
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.code, "RATE_LIMIT_EXCEEDED");
  EXPECT_EQ(r.retry_after, "1");
  held.clear();
  // Until the daemon has seen the held connections close, a new one may still be refused: the
  // metric counts those refusals too.
  bool served = false;
  int refused = 1;
  for (int i = 0; i < 50 && !served; ++i, std::this_thread::sleep_for(100ms)) {
    const int status = healthz();
    served = status == 200;
    if (status == 503) ++refused;
  }
  EXPECT_TRUE(served) << "once the held connections close, new ones are served";
  EXPECT_EQ(daemon_->metric("opbase_http_refused_total{reason=\"server_full\"}"), refused);
}

TEST_F(HttpFront, PastTheCapOfOneAddressItsNewConnectionsAre429AndOthersAreServed) {
  start({{"server.max_connections_per_address", "5"}});
  std::vector<std::unique_ptr<RawConnection>> held;
  for (int i = 0; i < 5; ++i) {
    held.push_back(std::make_unique<RawConnection>(daemon_->port(), "127.0.0.2"));
    ASSERT_TRUE(held.back()->connected());
  }
  RawConnection sixth(daemon_->port(), "127.0.0.2");
  sixth.send("GET /healthz HTTP/1.1\r\n\r\n");
  const Refusal r = refusal_of(sixth.read_response());
  EXPECT_EQ(r.status, 429);
  EXPECT_EQ(r.code, "RATE_LIMIT_EXCEEDED");
  EXPECT_EQ(r.retry_after, "1");
  RawConnection other(daemon_->port(), "127.0.0.3");
  other.send("GET /healthz HTTP/1.1\r\n\r\n");
  EXPECT_EQ(other.read_response().status(), 200) << "another address is served";
}

// One worker busy and one request waiting: a third whole request finds the queue full and is
// responded to at once instead of waiting behind them.
TEST_F(HttpFront, PastAFullQueueARequestIs503AtOnce) {
  start({{"server.threads", "1"}, {"server.queue", "1"}}, {"echo", "probe"});
  const std::string sleep = R"({"op":"probe.sleep","ms":2000})";
  const std::string head = api_head("Content-Length: " + std::to_string(sleep.size()) + "\r\n");
  RawConnection running(daemon_->port()), waiting(daemon_->port()), refused(daemon_->port());
  running.send(head + sleep);
  std::this_thread::sleep_for(500ms);  // the worker has taken it
  waiting.send(head + sleep);
  std::this_thread::sleep_for(500ms);  // it waits in the queue
  refused.send(head + sleep);
  const Refusal r = refusal_of(refused.read_response(1s));
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.code, "RATE_LIMIT_EXCEEDED");
  EXPECT_EQ(r.retry_after, "1");
  EXPECT_EQ(running.read_response(5s).status(), 200);
  EXPECT_EQ(waiting.read_response(5s).status(), 200);
  EXPECT_EQ(daemon_->metric("opbase_http_refused_total{reason=\"busy\"}"), 1);
}

// ---- bodies ----

TEST_F(HttpFront, AWrongApiKeyIsRefusedBeforeTheBodyIsSent) {
  start();
  RawConnection c(daemon_->port());
  // A 3 MB body is announced and never sent: the answer cannot wait for it.
  c.send("POST " + daemon_->api_path() +
         " HTTP/1.1\r\nX-API-KEY: not-the-key\r\nContent-Length: 3000000\r\n\r\n");
  const Refusal r = refusal_of(c.read_response(5s));
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(r.code, "AUTHENTICATION_FAILED");
}

TEST_F(HttpFront, ExpectContinueIsAnsweredOnlyForAnAdmittedCaller) {
  start();
  RawConnection c(daemon_->port());
  const std::string body = R"({"op":"echo.ping"})";
  c.send(
      api_head("Expect: 100-continue\r\nContent-Length: " + std::to_string(body.size()) + "\r\n"));
  EXPECT_TRUE(c.read_response(5s).bytes.starts_with("HTTP/1.1 100 Continue\r\n\r\n"));
  c.send(body);
  EXPECT_EQ(c.read_response(5s).status(), 200);
}

TEST_F(HttpFront, BodiesPastTheMemoryBudgetAre503UntilItFrees) {
  start({{"server.max_body_bytes", "600000"}, {"server.max_inflight_body_bytes", "1000000"}});
  const std::string body = R"({"op":"echo.ping","pad":")" + std::string(500000, 'p') + "\"}";
  const std::string head = api_head("Content-Length: " + std::to_string(body.size()) + "\r\n");
  RawConnection first(daemon_->port());
  first.send(head + body.substr(0, 1000));  // holds its 500 KB of the budget while it sends
  std::this_thread::sleep_for(200ms);
  RawConnection second(daemon_->port());
  second.send(head);
  const Refusal r = refusal_of(second.read_response(5s));
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.code, "RATE_LIMIT_EXCEEDED");
  EXPECT_EQ(r.retry_after, "1");
  first.send(body.substr(1000));
  EXPECT_EQ(first.read_response(5s).status(), 200);
  RawConnection third(daemon_->port());
  third.send(head + body);
  EXPECT_EQ(third.read_response(5s).status(), 200) << "the budget is free again";
  EXPECT_EQ(daemon_->metric("opbase_http_inflight_body_bytes"), 0);
}

// A body of small values is refused by the scan that builds nothing, so 60 of them at once
// cost what their bytes cost and no parsed tree: a 4 MiB body of them used to take ~80 MB.
TEST_F(HttpFront, SixtyConcurrentBodiesOfSmallValuesKeepMemoryLow) {
  start();
  std::string body = R"({"op":"echo.echo","a":[)";
  while (body.size() < (4u << 20) - 16) body += "1,";
  body += "1]}";
  std::vector<std::thread> senders;
  std::vector<int> statuses(60);
  for (size_t i = 0; i < statuses.size(); ++i) {
    senders.emplace_back([&, i] {
      statuses[i] =
          http_request(daemon_->port(), "POST", daemon_->api_path(), body,
                       {{"X-API-KEY", daemon_->api_key()}}, BodyEncoding::kContentLength, 60s)
              .status;
    });
  }
  for (auto& t : senders) t.join();
  for (size_t i = 0; i < statuses.size(); ++i) {
    EXPECT_TRUE(statuses[i] == 413 || statuses[i] == 503) << "request " << i << ": " << statuses[i];
  }
  const size_t peak = daemon_->peak_rss_bytes();
  EXPECT_GT(peak, 0u);
  EXPECT_LT(peak, 300u << 20) << "peak resident memory " << (peak >> 20) << " MiB";
  std::cout << "peak resident memory " << (peak >> 20) << " MiB\n";
  EXPECT_EQ(ping(), 200);
}

TEST_F(HttpFront, TooManyJsonValuesIsPayloadTooLargeNamingTheLimit) {
  start({{"server.max_json_values", "2000"}});
  std::string body = R"({"op":"echo.echo","a":[0)";
  for (int i = 0; i < 2000; ++i) body += ",0";
  const HttpResponse r = daemon_->call(json::parse(body + "]}"));
  EXPECT_EQ(r.status, 413) << r.describe();
  EXPECT_EQ(r.json()["error"]["code"], "PAYLOAD_TOO_LARGE");
  EXPECT_EQ(r.json()["error"]["details"]["max_values"], 2000);
}

// ---- strict HTTP ----

TEST_F(HttpFront, RequestsTwoParsersCouldReadDifferentlyAre400) {
  start();
  const std::string body = R"({"op":"echo.ping"})";
  const std::string length = "Content-Length: " + std::to_string(body.size()) + "\r\n";
  const std::string heads[] = {
      api_head(length + "Content-Length: 0\r\n"),
      api_head(length + "Transfer-Encoding: chunked\r\n"),
      api_head("Transfer-Encoding: chunked\r\n" + length),
      api_head(length + "X-Bad: a\x01z\r\n"),
      api_head(length + "Content-Length : 3\r\n"),
      api_head(length + "X-Folded: a\r\n b\r\n"),
  };
  for (const std::string& head : heads) {
    const RawReply reply = raw_exchange(daemon_->port(), head + body);
    const Refusal r = refusal_of(reply);
    EXPECT_EQ(r.status, 400) << head;
    EXPECT_EQ(r.code, "VALIDATION_ERROR") << head;
    EXPECT_TRUE(reply.closed_by_peer) << "the connection cannot be trusted after it: " << head;
  }
  EXPECT_EQ(daemon_->metric("opbase_http_malformed_total"), std::size(heads));
  EXPECT_EQ(ping(), 200);
}

TEST_F(HttpFront, PipelinedRequestsAreAnsweredInOrder) {
  start();
  RawConnection c(daemon_->port());
  std::string requests;
  for (int i = 0; i < 3; ++i) {
    const std::string body = json({{"op", "echo.echo"}, {"n", i}}).dump();
    requests += api_head("Content-Length: " + std::to_string(body.size()) + "\r\n") + body;
  }
  c.send(requests + "GET /healthz HTTP/1.1\r\n\r\n");
  for (int i = 0; i < 3; ++i) {
    const RawReply reply = c.read_response(5s);
    ASSERT_EQ(reply.status(), 200) << reply.bytes;
    EXPECT_NE(reply.bytes.find("\"n\":" + std::to_string(i)), std::string::npos) << reply.bytes;
  }
  EXPECT_EQ(c.read_response(5s).status(), 200);
}

TEST_F(HttpFront, HeadAnswersTheHeadersWithoutTheBody) {
  start();
  RawConnection c(daemon_->port());
  c.send("HEAD /healthz HTTP/1.1\r\n\r\nGET /healthz HTTP/1.1\r\n\r\n");
  // The HEAD answer says its length but sends no body, so the GET's answer follows at once.
  EXPECT_FALSE(c.closed_by_server(500ms));
  const std::string both = c.received;
  EXPECT_TRUE(both.starts_with("HTTP/1.1 200 OK\r\n")) << both;
  const size_t second = both.find("HTTP/1.1 200 OK\r\n", 1);
  ASSERT_NE(second, std::string::npos) << both;
  EXPECT_EQ(both.substr(second).substr(both.substr(second).find("\r\n\r\n") + 4),
            "{\"status\":\"ok\"}");
}

TEST_F(HttpFront, HttpOneZeroClosesUnlessAskedToKeepAlive) {
  start();
  const RawReply closed = raw_exchange(daemon_->port(), "GET /healthz HTTP/1.0\r\n\r\n", 5s,
                                       /*half_close=*/false);
  EXPECT_EQ(closed.status(), 200);
  EXPECT_TRUE(closed.closed_by_peer);
  RawConnection kept(daemon_->port());
  kept.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
  EXPECT_EQ(kept.read_response(5s).status(), 200);
  EXPECT_FALSE(kept.closed_by_server(300ms));
}

}  // namespace
}  // namespace opbase::test
