// cors_test: the CORS headers of the API routes over real HTTP (docs/api.md#browsers-cors): a
// preflight is answered without any key, every API answer (refusals included) lets a page of an
// allowed origin read it, a configured list echoes only its origins with Vary: Origin, and the
// routes outside /api carry none. A browser's own view is tests/browser/cors_test.mjs.
// Thread-safety: each test runs on the one gtest thread.
#include <gtest/gtest.h>

#include <string>

#include "daemon_process.hpp"

namespace opbase::test {
namespace {

using namespace std::chrono_literals;

constexpr const char* kPage = "http://127.0.0.1:5173";

Headers preflight_from(const std::string& origin) {
  return {{"Origin", origin},
          {"Access-Control-Request-Method", "POST"},
          {"Access-Control-Request-Headers", "content-type,x-api-key,authorization"}};
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

class Cors : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { daemon_ = DaemonProcess::start().release(); }
  static void TearDownTestSuite() {
    delete daemon_;
    daemon_ = nullptr;
  }
  static DaemonProcess* daemon_;
};
DaemonProcess* Cors::daemon_ = nullptr;

TEST_F(Cors, APreflightNeedsNoKeyAndNamesWhatAPageMaySend) {
  const HttpResponse r =
      daemon_->request("OPTIONS", daemon_->api_path(), "", preflight_from(kPage));
  ASSERT_EQ(r.status, 204) << r.describe();
  EXPECT_EQ(r.header("Access-Control-Allow-Origin"), "*");
  EXPECT_TRUE(contains(r.header("Access-Control-Allow-Methods"), "POST"));
  for (const char* name : {"Content-Type", "X-API-KEY", "Authorization"}) {
    EXPECT_TRUE(contains(r.header("Access-Control-Allow-Headers"), name)) << name;
  }
  EXPECT_EQ(r.header("Access-Control-Max-Age"), "7200");
  EXPECT_TRUE(r.body.empty());
  // The same on /api, where the API key chooses the project.
  EXPECT_EQ(daemon_->request("OPTIONS", "/api", "", preflight_from(kPage)).status, 204);
}

TEST_F(Cors, AnswersAndRefusalsAreReadableByThePage) {
  const Headers origin = {{"Origin", kPage}};
  const HttpResponse ok = daemon_->call({{"op", "echo.ping"}}, origin);
  ASSERT_EQ(ok.status, 200) << ok.describe();
  EXPECT_EQ(ok.header("Access-Control-Allow-Origin"), "*");
  EXPECT_EQ(ok.header("Access-Control-Expose-Headers"), "X-Request-Id, Retry-After");

  // Refused at the head (wrong API key), by the front (too large), by the dispatcher (no op).
  Headers wrong_key = origin;
  wrong_key.emplace_back("X-API-KEY", "not-the-key");
  const HttpResponse unauthorized = daemon_->call({{"op", "echo.ping"}}, wrong_key);
  EXPECT_EQ(unauthorized.status, 401) << unauthorized.describe();
  EXPECT_EQ(unauthorized.header("Access-Control-Allow-Origin"), "*");
  const HttpResponse too_large =
      daemon_->call({{"op", "echo.echo"}, {"text", std::string(5 << 20, 'x')}}, origin);
  EXPECT_EQ(too_large.status, 413) << too_large.describe();
  EXPECT_EQ(too_large.header("Access-Control-Allow-Origin"), "*");
  const HttpResponse unknown = daemon_->call({{"op", "made.up"}}, origin);
  EXPECT_EQ(unknown.status, 404) << unknown.describe();
  EXPECT_EQ(unknown.header("Access-Control-Allow-Origin"), "*");
}

TEST_F(Cors, NoOriginNoCorsHeaders) {
  const HttpResponse r = daemon_->call({{"op", "echo.ping"}});
  ASSERT_EQ(r.status, 200);
  EXPECT_FALSE(r.has_header("Access-Control-Allow-Origin"));
}

TEST_F(Cors, RoutesOutsideTheApiHaveNone) {
  for (const char* path : {"/healthz", "/readyz", "/metrics"}) {
    const HttpResponse r = daemon_->request("GET", path, "", {{"Origin", kPage}});
    EXPECT_FALSE(r.has_header("Access-Control-Allow-Origin")) << path;
  }
}

TEST_F(Cors, AnOptionsRequestThatIsNoPreflightListsTheMethods) {
  const HttpResponse r = daemon_->request("OPTIONS", daemon_->api_path());
  ASSERT_EQ(r.status, 204) << r.describe();
  EXPECT_EQ(r.header("Allow"), "POST, OPTIONS");
  EXPECT_FALSE(r.has_header("Access-Control-Allow-Methods"));
}

TEST(CorsList, EchoesOnlyListedOriginsAndVariesByOrigin) {
  DaemonOptions options;
  options.config = {{"server.cors_origins", "https://app.example.com, http://127.0.0.1:5173"}};
  auto daemon = DaemonProcess::start(options);

  const HttpResponse preflight =
      daemon->request("OPTIONS", daemon->api_path(), "", preflight_from("https://app.example.com"));
  ASSERT_EQ(preflight.status, 204) << preflight.describe();
  EXPECT_EQ(preflight.header("Access-Control-Allow-Origin"), "https://app.example.com");
  EXPECT_EQ(preflight.header("Vary"), "Origin");
  const HttpResponse call = daemon->call({{"op", "echo.ping"}}, {{"Origin", kPage}});
  EXPECT_EQ(call.header("Access-Control-Allow-Origin"), kPage);
  EXPECT_EQ(call.header("Vary"), "Origin");

  // Another origin: its preflight is refused in the API's error form, its calls are answered
  // (a script outside a browser could make them anyway) without headers that let a page read them.
  const HttpResponse refused =
      daemon->request("OPTIONS", daemon->api_path(), "", preflight_from("https://evil.example"));
  ASSERT_EQ(refused.status, 403) << refused.describe();
  EXPECT_EQ(refused.json()["error"]["code"], "FORBIDDEN");
  EXPECT_EQ(refused.json()["error"]["details"]["origin"], "https://evil.example");
  EXPECT_FALSE(refused.has_header("Access-Control-Allow-Origin"));
  const HttpResponse other =
      daemon->call({{"op", "echo.ping"}}, {{"Origin", "https://evil.example"}});
  EXPECT_EQ(other.status, 200);
  EXPECT_FALSE(other.has_header("Access-Control-Allow-Origin"));
  EXPECT_EQ(other.header("Vary"), "Origin");
}

TEST(CorsList, AnOriginThatIsNoOriginStopsTheStart) {
  DaemonOptions options;
  options.config = {{"server.cors_origins", "app.example.com/path"}};
  auto daemon = DaemonProcess::spawn(options);
  EXPECT_EQ(daemon->wait_exit(20s), 78) << daemon->log();
  EXPECT_TRUE(contains(daemon->log(), "server.cors_origins")) << daemon->log();
}

}  // namespace
}  // namespace opbase::test
