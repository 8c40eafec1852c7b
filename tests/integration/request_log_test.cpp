// request_log_test: the daemon's request log and its JSON form (docs/operations.md#logs): one
// line per request with method, route, op, project, status, code, duration and request id, for
// answered calls, refusals at the head and routes outside the API alike; never a key or token;
// every line of log.format=json parses; log.requests=false writes none.
// Thread-safety: each test runs on the one gtest thread.
#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "daemon_process.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The log line holding `part`, waiting up to 5 s (the line is written after the response).
std::string line_with(const DaemonProcess& daemon, const std::string& part) {
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (std::chrono::steady_clock::now() < deadline) {
    for (const std::string& line : lines_of(daemon.log())) {
      if (contains(line, part)) return line;
    }
    std::this_thread::sleep_for(20ms);
  }
  ADD_FAILURE() << "no log line holds '" << part << "'; log:\n" << daemon.log();
  return "";
}

TEST(RequestLog, OneLinePerRequestWithItsFacts) {
  auto daemon = DaemonProcess::start();
  ASSERT_EQ(daemon->call({{"op", "echo.ping"}}, {{"X-Request-Id", "req-ok-1"}}).status, 200);
  const std::string ok = line_with(*daemon, "request_id=req-ok-1");
  for (const char* field :
       {"[http] request", "method=POST", "route=/api/{endpoint_key}", "op=echo.ping",
        "project=test", "status=200", "code=OK", "duration_ms="}) {
    EXPECT_TRUE(contains(ok, field)) << field << " in: " << ok;
  }

  // Refused before the body (wrong API key), an unknown op, a route outside the API.
  EXPECT_EQ(
      daemon->call({{"op", "echo.ping"}}, {{"X-API-KEY", "wrong"}, {"X-Request-Id", "req-key"}})
          .status,
      401);
  const std::string refused = line_with(*daemon, "request_id=req-key");
  EXPECT_TRUE(contains(refused, "status=401")) << refused;
  EXPECT_TRUE(contains(refused, "code=AUTHENTICATION_FAILED")) << refused;
  EXPECT_EQ(daemon->call({{"op", "no.such"}}, {{"X-Request-Id", "req-unknown"}}).status, 404);
  const std::string unknown = line_with(*daemon, "request_id=req-unknown");
  EXPECT_TRUE(contains(unknown, "op=unknown")) << "a made-up name is not logged: " << unknown;
  EXPECT_TRUE(contains(unknown, "code=UNKNOWN_OPERATION")) << unknown;
  EXPECT_EQ(daemon->request("GET", "/healthz", "", {{"X-Request-Id", "req-health"}}).status, 200);
  EXPECT_TRUE(contains(line_with(*daemon, "request_id=req-health"), "route=/healthz"));

  // Neither key appears anywhere in the log.
  const std::string log = daemon->log();
  EXPECT_FALSE(contains(log, daemon->api_key()));
  EXPECT_FALSE(contains(log, daemon->endpoint_key()));
}

TEST(RequestLog, NoTokenInTheLog) {
  DaemonOptions options;
  options.plugins = {"auth", "collection"};
  options.config = {{"auth.rate.signup_per_address", "off"}};
  auto daemon = DaemonProcess::start(options);
  const auto& user = daemon->user("logged");
  Headers headers = user.bearer();
  headers.emplace_back("X-Request-Id", "req-insert");
  const json insert = {{"op", "collection.insert"}, {"collection", "notes"}, {"data", {{"n", 1}}}};
  EXPECT_EQ(daemon->call(insert, headers).status, 200);
  EXPECT_TRUE(contains(line_with(*daemon, "request_id=req-insert"), "op=collection.insert"));
  EXPECT_FALSE(contains(daemon->log(), user.id_token));
}

TEST(RequestLog, JsonLinesParseAndCarryTheFields) {
  DaemonOptions options;
  options.config = {{"log.format", "json"}};
  auto daemon = DaemonProcess::start(options);
  ASSERT_EQ(daemon->call({{"op", "echo.ping"}}, {{"X-Request-Id", "req-json"}}).status, 200);
  const json entry = json::parse(line_with(*daemon, "\"request_id\":\"req-json\""), nullptr, false);
  ASSERT_TRUE(entry.is_object());
  EXPECT_EQ(entry["level"], "info");
  EXPECT_EQ(entry["component"], "http");
  EXPECT_EQ(entry["route"], "/api/{endpoint_key}");
  EXPECT_EQ(entry["op"], "echo.ping");
  EXPECT_EQ(entry["project"], "test");
  EXPECT_EQ(entry["status"], 200);
  EXPECT_TRUE(entry["duration_ms"].is_number());
  EXPECT_TRUE(entry["time"].is_string());
  for (const std::string& line : lines_of(daemon->log())) {
    EXPECT_TRUE(json::accept(line)) << "not JSON: " << line;
  }
}

TEST(RequestLog, OffWritesNoRequestLines) {
  DaemonOptions options;
  options.config = {{"log.requests", "false"}};
  auto daemon = DaemonProcess::start(options);
  ASSERT_EQ(daemon->call({{"op", "echo.ping"}}, {{"X-Request-Id", "req-quiet"}}).status, 200);
  ASSERT_EQ(daemon->call({{"op", "echo.ping"}}).status, 200);  // the first one's line is out
  std::this_thread::sleep_for(200ms);
  EXPECT_FALSE(contains(daemon->log(), "req-quiet")) << daemon->log();
}

TEST(RequestLog, AFormatThatIsNeitherStopsTheStart) {
  DaemonOptions options;
  options.config = {{"log.format", "xml"}};
  auto daemon = DaemonProcess::spawn(options);
  EXPECT_EQ(daemon->wait_exit(20s), 78);
  EXPECT_TRUE(contains(daemon->log(), "log.format must be text or json")) << daemon->log();
}

}  // namespace
}  // namespace opbase::test
