// gateway_test: the HTTP gateway of the real daemon, over real HTTP. Every bad input gets its
// code and HTTP status (docs/api.md#error-codes), user access goes through the "auth.verify_token"
// service (the fake auth plugin of tests/plugins/fake_auth), the JWKS route publishes what the auth
// plugin's "auth.jwks" service returns, the health, readiness and metrics routes respond, and a
// flood of malformed requests leaves the daemon serving.
// Each test starts its own daemon, so counters and logs belong to that test alone.
// Thread-safety: each test runs on the one gtest thread.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <thread>

#include "daemon_process.hpp"
#include "ferretdb_server.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

// ---- helpers ----

// The error envelope with `code`, a message, and HTTP `status`.
::testing::AssertionResult IsError(const HttpResponse& r, int status, std::string_view code) {
  const json body = json::parse(r.body, nullptr, false);
  if (r.status != status || !body.is_object() || !body.contains("error") ||
      body["error"].value("code", "") != code) {
    return ::testing::AssertionFailure()
           << "expected HTTP " << status << " " << code << ", got " << r.describe();
  }
  if (!body["error"]["message"].is_string() ||
      body["error"]["message"].get<std::string>().empty()) {
    return ::testing::AssertionFailure() << "the error has no message: " << r.describe();
  }
  return ::testing::AssertionSuccess();
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

// Polls `probe` until it returns true or `timeout` passes; returns its last result. Used where
// the daemon updates a value just after the response is on the wire (the request metrics).
bool eventually(const std::function<bool()>& probe, std::chrono::milliseconds timeout = 5s) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!probe()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

Headers bearer(const std::string& token) { return {{"Authorization", "Bearer " + token}}; }

// echo and probe from the plugin folders, and the fake token verifier by path.
DaemonOptions with_test_plugins() {
  DaemonOptions options;
  options.plugins = {"echo", "probe", test_plugin_path("auth")};
  return options;
}

class Gateway : public ::testing::Test {
 protected:
  void SetUp() override { daemon_ = DaemonProcess::start(options()); }
  virtual DaemonOptions options() const { return with_test_plugins(); }

  // POST to the project's API path with its API key and `body` as it is, JSON or not.
  HttpResponse post(const std::string& body, const Headers& extra = {}) const {
    Headers headers = {{"X-API-KEY", daemon_->api_key()}, {"Content-Type", "application/json"}};
    headers.insert(headers.end(), extra.begin(), extra.end());
    return daemon_->request("POST", daemon_->api_path(), body, headers);
  }

  std::unique_ptr<DaemonProcess> daemon_;
};

// ---- the body: JSON, an object, an op ----

TEST_F(Gateway, MalformedJsonIsValidationError) {
  for (const std::string body : {"{not json", R"({"op":"echo.ping")", "",
                                 R"({"op":"echo.ping"} trailing)", "{\"op\":\"echo.\xff\xfe\"}"}) {
    EXPECT_TRUE(IsError(post(body), 400, "VALIDATION_ERROR")) << "body: " << body;
  }
}

TEST_F(Gateway, BodyThatIsNotAnObjectIsValidationError) {
  for (const std::string body :
       {R"([{"op":"echo.ping"}])", "[1,2]", R"("echo.ping")", "42", "null", "true"}) {
    EXPECT_TRUE(IsError(post(body), 400, "VALIDATION_ERROR")) << "body: " << body;
  }
}

TEST_F(Gateway, MissingOpIsValidationError) {
  EXPECT_TRUE(IsError(daemon_->call(json::object()), 400, "VALIDATION_ERROR"));
  EXPECT_TRUE(IsError(daemon_->call({{"data", {{"op", "echo.ping"}}}}), 400, "VALIDATION_ERROR"));
}

TEST_F(Gateway, NonStringOpIsValidationError) {
  for (const json& op : {json(42), json(nullptr), json::array({"echo.ping"}),
                         json({{"name", "echo.ping"}}), json(true)}) {
    EXPECT_TRUE(IsError(daemon_->call({{"op", op}}), 400, "VALIDATION_ERROR")) << "op: " << op;
  }
}

TEST_F(Gateway, UnknownOpIs404NamingTheOp) {
  for (const std::string op : {"nosuch.op", "echo.nope", "echo", "", "ECHO.PING", "echo.ping "}) {
    const HttpResponse r = daemon_->call({{"op", op}});
    ASSERT_TRUE(IsError(r, 404, "UNKNOWN_OPERATION")) << "op: '" << op << "'";
    EXPECT_EQ(r.json()["error"]["details"]["op"], op);
  }
}

// ---- credentials ----

TEST_F(Gateway, MissingApiKeyIsAuthenticationFailed) {
  const std::string ping = R"({"op":"echo.ping"})";
  EXPECT_TRUE(
      IsError(daemon_->request("POST", daemon_->api_path(), ping), 401, "AUTHENTICATION_FAILED"));
  EXPECT_TRUE(IsError(daemon_->request("POST", daemon_->api_path(), ping, {{"X-API-KEY", ""}}), 401,
                      "AUTHENTICATION_FAILED"));
}

TEST_F(Gateway, WrongApiKeyIsAuthenticationFailed) {
  std::string upper = daemon_->api_key();
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const std::string& key : {std::string("ak_wrong_but_long_enough"), upper,
                                 daemon_->api_key() + "x", daemon_->api_key().substr(1)}) {
    EXPECT_TRUE(IsError(daemon_->call({{"op", "echo.ping"}}, {{"X-API-KEY", key}}), 401,
                        "AUTHENTICATION_FAILED"))
        << "key: " << key;
  }
  // The key is checked before the body is looked at: a bad body tells a stranger nothing.
  EXPECT_TRUE(IsError(post("{not json", {{"X-API-KEY", "ak_wrong_but_long_enough"}}), 401,
                      "AUTHENTICATION_FAILED"));
}

TEST_F(Gateway, UnknownEndpointKeyIsAuthenticationFailed) {
  const Headers key = {{"X-API-KEY", daemon_->api_key()}};
  for (const std::string& path :
       {std::string("/api/ep_unknown"), "/api/" + daemon_->endpoint_key() + "x"}) {
    EXPECT_TRUE(IsError(daemon_->request("POST", path, R"({"op":"echo.ping"})", key), 401,
                        "AUTHENTICATION_FAILED"))
        << path;
  }
}

// ---- body size ----

class SmallBodyLimit : public Gateway {
 protected:
  static constexpr size_t kLimit = 4096;
  DaemonOptions options() const override {
    DaemonOptions o = with_test_plugins();
    o.config["server.max_body_bytes"] = std::to_string(kLimit);
    return o;
  }
  // An echo.echo body of exactly `size` bytes.
  static std::string echo_body_of_size(size_t size) {
    const std::string head = R"({"op":"echo.echo","pad":")";
    const std::string tail = R"("})";
    return head + std::string(size - head.size() - tail.size(), 'p') + tail;
  }
  void expect_still_serving() const {
    const HttpResponse ping = daemon_->call({{"op", "echo.ping"}});
    EXPECT_EQ(ping.status, 200) << ping.describe();
    EXPECT_EQ(daemon_->request("GET", "/healthz").status, 200);
  }
};

TEST_F(SmallBodyLimit, BodyAtTheLimitIsServed) {
  const std::string body = echo_body_of_size(kLimit);
  const HttpResponse r = post(body);
  ASSERT_EQ(r.status, 200) << r.describe();
  EXPECT_EQ(r.json()["data"]["pad"], json::parse(body)["pad"]);
}

// The larger size is more than loopback socket buffers hold, so the client is still sending when
// the daemon has decided: it must still be able to read the 413.
TEST_F(SmallBodyLimit, LargerBodyWithContentLengthIs413AndTheDaemonServesOn) {
  for (size_t size : {kLimit + 1, 64 * kLimit}) {
    const HttpResponse r = post(echo_body_of_size(size));
    ASSERT_TRUE(IsError(r, 413, "PAYLOAD_TOO_LARGE")) << "size " << size;
    EXPECT_EQ(r.json()["error"]["details"]["max_bytes"], kLimit);
    expect_still_serving();
  }
}

TEST_F(SmallBodyLimit, LargerChunkedBodyIs413AndTheDaemonServesOn) {
  const Headers headers = {{"X-API-KEY", daemon_->api_key()}, {"Content-Type", "application/json"}};
  const HttpResponse small =
      http_request(daemon_->port(), "POST", daemon_->api_path(), echo_body_of_size(kLimit / 2),
                   headers, BodyEncoding::kChunked);
  ASSERT_EQ(small.status, 200) << "a chunked body under the limit: " << small.describe();

  const HttpResponse large =
      http_request(daemon_->port(), "POST", daemon_->api_path(), echo_body_of_size(64 * kLimit),
                   headers, BodyEncoding::kChunked);
  EXPECT_TRUE(IsError(large, 413, "PAYLOAD_TOO_LARGE"));
  expect_still_serving();
}

TEST_F(SmallBodyLimit, KeptAliveClientCarriesOnAfterA413) {
  Client client(daemon_->port());
  const Headers headers = {{"X-API-KEY", daemon_->api_key()}};
  EXPECT_TRUE(
      IsError(client.send("POST", daemon_->api_path(), echo_body_of_size(2 * kLimit), headers), 413,
              "PAYLOAD_TOO_LARGE"));
  const HttpResponse next =
      client.send("POST", daemon_->api_path(), R"({"op":"echo.ping"})", headers);
  EXPECT_EQ(next.status, 200) << next.describe();
}

// ---- routes ----

TEST_F(Gateway, OtherMethodsOnApiPathsAre405AllowingPost) {
  for (const std::string& path : {daemon_->api_path(), std::string("/api")}) {
    for (const std::string method : {"GET", "PUT", "DELETE", "PATCH"}) {
      const HttpResponse r =
          daemon_->request(method, path, "", {{"X-API-KEY", daemon_->api_key()}});
      EXPECT_EQ(r.status, 405) << method << " " << path << ": " << r.describe();
      EXPECT_EQ(r.header("Allow"), "POST") << method << " " << path;
      EXPECT_TRUE(r.json().contains("error")) << r.describe();
    }
  }
}

TEST_F(Gateway, UnknownPathIs404WithAJsonError) {
  for (const auto& [method, path] :
       std::vector<std::pair<std::string, std::string>>{{"GET", "/"},
                                                        {"GET", "/nope"},
                                                        {"POST", "/nope"},
                                                        {"GET", "/apix"},
                                                        {"POST", "/healthz/x"}}) {
    const HttpResponse r = daemon_->request(method, path);
    EXPECT_TRUE(IsError(r, 404, "UNKNOWN_OPERATION")) << method << " " << path;
    EXPECT_EQ(r.json()["error"]["details"]["path"], path);
  }
}

TEST_F(Gateway, PathBelowTheEndpointKeyIs404) {
  const Headers key = {{"X-API-KEY", daemon_->api_key()}};
  for (const std::string suffix : {"/extra", "/", "/echo.ping"}) {
    const HttpResponse r =
        daemon_->request("POST", daemon_->api_path() + suffix, R"({"op":"echo.ping"})", key);
    EXPECT_TRUE(IsError(r, 404, "UNKNOWN_OPERATION")) << suffix;
  }
}

// ---- request ids ----

TEST_F(Gateway, EveryResponseCarriesItsOwnRequestId) {
  const Headers key = {{"X-API-KEY", daemon_->api_key()}};
  const std::vector<HttpResponse> responses = {
      daemon_->call({{"op", "echo.ping"}}),                   // success
      post("{bad"),                                           // 400
      daemon_->call({{"op", "nosuch.op"}}),                   // 404 op
      daemon_->request("POST", daemon_->api_path(), "{}"),    // 401
      daemon_->call({{"op", "probe.throw"}}),                 // 500
      daemon_->request("GET", daemon_->api_path(), "", key),  // 405
      daemon_->request("GET", "/nope"),                       // 404 path
      daemon_->request("GET", "/healthz"),
      daemon_->request("GET", "/readyz"),
      daemon_->request("GET", "/metrics"),
  };
  std::set<std::string> ids;
  for (const HttpResponse& r : responses) {
    ASSERT_NE(r.status, 0) << r.describe();
    EXPECT_FALSE(r.header("X-Request-Id").empty()) << r.describe();
    ids.insert(r.header("X-Request-Id"));
  }
  EXPECT_EQ(ids.size(), responses.size()) << "request ids repeat";
}

TEST_F(Gateway, PlainClientRequestIdIsKeptAndOthersReplaced) {
  const HttpResponse kept =
      daemon_->call({{"op", "probe.throw"}}, {{"X-Request-Id", "trace-1_a.B"}});
  EXPECT_EQ(kept.header("X-Request-Id"), "trace-1_a.B");
  EXPECT_EQ(kept.json()["error"]["details"]["request_id"], "trace-1_a.B");

  for (const std::string& given :
       {std::string("has space"), std::string("semi;colon"), std::string(65, 'a')}) {
    const HttpResponse r = daemon_->call({{"op", "echo.ping"}}, {{"X-Request-Id", given}});
    EXPECT_FALSE(r.header("X-Request-Id").empty());
    EXPECT_NE(r.header("X-Request-Id"), given);
  }
}

// ---- what handlers answer ----

TEST_F(Gateway, ThrowingHandlerIsInternalErrorCarryingTheRequestId) {
  const HttpResponse r = daemon_->call({{"op", "probe.throw"}});
  ASSERT_TRUE(IsError(r, 500, "INTERNAL_ERROR"));
  const std::string id = r.header("X-Request-Id");
  ASSERT_FALSE(id.empty());
  EXPECT_EQ(r.json()["error"]["details"]["request_id"], id);
  // The same id is in the log, next to what was thrown; the client never sees the text.
  const std::string log = daemon_->log();
  EXPECT_TRUE(contains(log, id) && contains(log, "probe.throw always throws")) << log;
  EXPECT_FALSE(contains(r.body, "always throws"));
  EXPECT_EQ(daemon_->call({{"op", "echo.ping"}}).status, 200);
}

TEST_F(Gateway, RateLimitedAnswerCarriesRetryAfter) {
  const HttpResponse r = daemon_->call({{"op", "probe.rate_limited"}});
  ASSERT_TRUE(IsError(r, 429, "RATE_LIMIT_EXCEEDED"));
  EXPECT_EQ(r.header("Retry-After"), "7");
  EXPECT_EQ(r.json()["error"]["details"]["retry_after"], 7);
}

TEST_F(Gateway, MetaAndTopLevelFieldsSitBesideData) {
  const HttpResponse r = daemon_->call({{"op", "probe.meta"}, {"value", {1, "two"}}});
  ASSERT_EQ(r.status, 200) << r.describe();
  const json body = r.json();
  EXPECT_EQ(body["data"], json({{"echo", {1, "two"}}}));
  EXPECT_EQ(body["meta"]["called_as"], "probe.meta");
  EXPECT_EQ(body["meta"]["request_id"], r.header("X-Request-Id"));
  EXPECT_EQ(body["extra"], "beside data");
  EXPECT_FALSE(body.contains("error"));
}

TEST_F(Gateway, PublishedEventReachesTheBus) {
  const double before = daemon_->metric("opbase_events_published_total").value_or(-1);
  ASSERT_GE(before, 0);
  const HttpResponse r =
      daemon_->call({{"op", "probe.publish"}, {"type", "probe.happened"}, {"payload", {{"n", 1}}}});
  ASSERT_EQ(r.status, 200) << r.describe();
  EXPECT_EQ(r.json()["data"]["published"], "probe.happened");
  EXPECT_EQ(daemon_->metric("opbase_events_published_total"), before + 1);
}

// ---- signed-in users (through the fake "auth.verify_token") ----

TEST_F(Gateway, UserOpWithoutUsableTokenIsAuthenticationFailed) {
  for (const Headers& h :
       {Headers{}, Headers{{"Authorization", "Basic dXNlcjpwdw=="}},
        Headers{{"Authorization", "Bearer "}}, Headers{{"Authorization", "user-1"}}}) {
    EXPECT_TRUE(IsError(daemon_->call({{"op", "echo.whoami"}}, h), 401, "AUTHENTICATION_FAILED"))
        << (h.empty() ? "no header" : h[0].second);
  }
}

TEST_F(Gateway, GarbageTokenIsTokenInvalid) {
  EXPECT_TRUE(
      IsError(daemon_->call({{"op", "echo.whoami"}}, bearer("garbage")), 401, "TOKEN_INVALID"));
}

TEST_F(Gateway, ExpiredTokenIsTokenExpired) {
  EXPECT_TRUE(
      IsError(daemon_->call({{"op", "echo.whoami"}}, bearer("expired")), 401, "TOKEN_EXPIRED"));
}

TEST_F(Gateway, UserTokenOnAdminOpIsForbidden) {
  EXPECT_TRUE(IsError(daemon_->call({{"op", "probe.admin"}}, bearer("user-7")), 403, "FORBIDDEN"));
}

TEST_F(Gateway, AdminTokenReachesAdminOp) {
  const HttpResponse r = daemon_->call({{"op", "probe.admin"}}, bearer("admin-7"));
  ASSERT_EQ(r.status, 200) << r.describe();
  EXPECT_EQ(r.json()["data"]["user"], "7");
  EXPECT_EQ(r.json()["data"]["roles"], json({"user", "admin"}));
}

TEST_F(Gateway, WhoamiAnswersTheSignedInUser) {
  const HttpResponse r = daemon_->call({{"op", "echo.whoami"}}, bearer("user-alice"));
  ASSERT_EQ(r.status, 200) << r.describe();
  EXPECT_EQ(r.json()["data"]["user"], "alice");
  EXPECT_EQ(r.json()["data"]["claims"]["sub"], "alice");
  EXPECT_EQ(r.json()["data"]["claims"]["roles"], json({"user"}));
  // The scheme name is case-insensitive (RFC 9110 11.1).
  const HttpResponse lower =
      daemon_->call({{"op", "echo.whoami"}}, {{"Authorization", "bearer user-bob"}});
  EXPECT_EQ(lower.json()["data"]["user"], "bob") << lower.describe();
}

TEST_F(Gateway, OptionalUserOpServesAnonymousAndSignedInCallers) {
  const HttpResponse anonymous = daemon_->call({{"op", "probe.optional"}});
  ASSERT_EQ(anonymous.status, 200) << anonymous.describe();
  EXPECT_TRUE(anonymous.json()["data"]["user"].is_null());

  const HttpResponse signed_in = daemon_->call({{"op", "probe.optional"}}, bearer("user-carol"));
  ASSERT_EQ(signed_in.status, 200) << signed_in.describe();
  EXPECT_EQ(signed_in.json()["data"]["user"], "carol");

  // A token that is present is checked, even where none is needed.
  EXPECT_TRUE(
      IsError(daemon_->call({{"op", "probe.optional"}}, bearer("garbage")), 401, "TOKEN_INVALID"));
}

TEST(GatewayWithoutTokenVerifier, UserOpsAreAuthenticationFailed) {
  DaemonOptions options;
  options.plugins = {"echo", "probe"};
  auto daemon = DaemonProcess::start(options);
  EXPECT_TRUE(IsError(daemon->call({{"op", "echo.whoami"}}, bearer("user-1")), 401,
                      "AUTHENTICATION_FAILED"));
  EXPECT_TRUE(IsError(daemon->call({{"op", "probe.admin"}}, bearer("admin-1")), 401,
                      "AUTHENTICATION_FAILED"));
  EXPECT_TRUE(IsError(daemon->call({{"op", "probe.optional"}}, bearer("user-1")), 401,
                      "AUTHENTICATION_FAILED"));
  const HttpResponse anonymous = daemon->call({{"op", "probe.optional"}});
  EXPECT_EQ(anonymous.status, 200) << anonymous.describe();
}

// ---- the statement form (docs/api.md#the-statement-form) ----

TEST_F(Gateway, StatementFormGoesToCollectionStatement) {
  const json statement = {{"query", "INSERT INTO notes (text) VALUES (@text)"},
                          {"variables", {{"text", "hi"}}}};
  const Headers key = {{"X-API-KEY", daemon_->api_key()}, {"Content-Type", "application/json"}};
  for (const std::string& path : {std::string("/api"), std::string("/api/"), daemon_->api_path()}) {
    const HttpResponse r = daemon_->request("POST", path, statement.dump(), key);
    ASSERT_TRUE(IsError(r, 404, "UNKNOWN_OPERATION")) << path << " (no collection plugin yet)";
    EXPECT_EQ(r.json()["error"]["details"]["op"], "collection.statement");
  }
  // A "query" that is not text is no statement: the op is then missing.
  EXPECT_TRUE(IsError(daemon_->request("POST", "/api", json({{"query", 5}}).dump(), key), 400,
                      "VALIDATION_ERROR"));
}

TEST_F(Gateway, BareApiPathFindsTheProjectByApiKey) {
  const Headers key = {{"X-API-KEY", daemon_->api_key()}};
  const HttpResponse ping = daemon_->request("POST", "/api", R"({"op":"echo.ping"})", key);
  EXPECT_EQ(ping.status, 200) << ping.describe();

  const std::string statement = json({{"query", "SELECT 1"}, {"variables", json::object()}}).dump();
  EXPECT_TRUE(IsError(
      daemon_->request("POST", "/api", statement, {{"X-API-KEY", "ak_wrong_but_long_enough"}}), 401,
      "AUTHENTICATION_FAILED"));
  EXPECT_TRUE(IsError(daemon_->request("POST", "/api", statement), 401, "AUTHENTICATION_FAILED"));
}

// ---- the JWKS route (docs/api.md#the-jwks-route) ----

std::string jwks_path(const std::string& endpoint_key) {
  return "/api/" + endpoint_key + "/.well-known/jwks.json";
}

// A second project, "broken", whose keys the fake auth plugin fails to give.
class Jwks : public Gateway {
 protected:
  static constexpr const char* kBrokenEndpointKey = "ep_broken_jwks";
  DaemonOptions options() const override {
    DaemonOptions o = with_test_plugins();
    o.config["projects.broken.endpoint_key"] = kBrokenEndpointKey;
    o.config["projects.broken.api_key"] = "ak_broken_project_api_key";
    return o;
  }
};

TEST_F(Jwks, AnswersTheAuthPluginsKeySetWithoutAnApiKey) {
  for (const std::string& path :
       {jwks_path(daemon_->endpoint_key()), jwks_path(daemon_->endpoint_key()) + "?ignored=1"}) {
    const HttpResponse r = daemon_->request("GET", path);
    ASSERT_EQ(r.status, 200) << path << ": " << r.describe();
    EXPECT_EQ(r.header("Content-Type"), "application/json");
    EXPECT_EQ(r.header("Cache-Control"), "public, max-age=300");
    EXPECT_FALSE(r.header("X-Request-Id").empty());
    // The key set itself, not wrapped in the envelope: JOSE libraries read it as it is.
    EXPECT_EQ(r.json(), json({{"keys", {{{"kty", "EC"}, {"kid", "test"}}}}}));
  }
}

TEST_F(Jwks, UnknownEndpointKeyIs404) {
  for (const std::string& key : {std::string("ep_unknown"), daemon_->endpoint_key() + "x"}) {
    const HttpResponse r = daemon_->request("GET", jwks_path(key));
    ASSERT_TRUE(IsError(r, 404, "UNKNOWN_OPERATION")) << key;
    EXPECT_EQ(r.json()["error"]["message"], "no project has this endpoint key");
    EXPECT_FALSE(r.has_header("Cache-Control"));
  }
}

TEST_F(Jwks, NearMissPathsAreNoRoute) {
  const std::string key = daemon_->endpoint_key();
  for (const std::string& path :
       {std::string("/api//.well-known/jwks.json"), "/api/" + key + "/x/.well-known/jwks.json",
        jwks_path(key) + "/", "/api/" + key + "/.well-known/jwks"}) {
    EXPECT_TRUE(IsError(daemon_->request("GET", path), 404, "UNKNOWN_OPERATION")) << path;
  }
}

TEST_F(Jwks, OtherMethodsAre405AllowingGet) {
  for (const std::string method : {"POST", "PUT", "DELETE"}) {
    const HttpResponse r = daemon_->request(method, jwks_path(daemon_->endpoint_key()), "{}",
                                            {{"X-API-KEY", daemon_->api_key()}});
    ASSERT_TRUE(IsError(r, 405, "UNKNOWN_OPERATION")) << method;
    EXPECT_EQ(r.header("Allow"), "GET") << method;
  }
}

TEST_F(Jwks, FailingServiceIs500WithTheReasonOnlyInTheLog) {
  const HttpResponse r = daemon_->request("GET", jwks_path(kBrokenEndpointKey));
  ASSERT_TRUE(IsError(r, 500, "INTERNAL_ERROR"));
  const std::string id = r.header("X-Request-Id");
  EXPECT_EQ(r.json()["error"]["details"]["request_id"], id);
  EXPECT_FALSE(contains(r.body, "broken are broken")) << r.body;
  EXPECT_FALSE(r.has_header("Cache-Control"));
  const std::string log = daemon_->log();
  EXPECT_TRUE(contains(log, id) && contains(log, "the keys of project 'broken' are broken")) << log;
}

TEST(JwksWithoutAuthPlugin, Is404SayingTheAuthPluginIsNotEnabled) {
  DaemonOptions options;
  options.plugins = {"echo", "probe"};
  auto daemon = DaemonProcess::start(options);
  const HttpResponse r = daemon->request("GET", jwks_path(daemon->endpoint_key()));
  ASSERT_TRUE(IsError(r, 404, "UNKNOWN_OPERATION"));
  EXPECT_TRUE(
      contains(r.json()["error"]["message"].get<std::string>(), "the auth plugin is not enabled"))
      << r.body;
}

// ---- health, readiness, metrics ----

TEST_F(Gateway, HealthzAnswersOk) {
  const HttpResponse r = daemon_->request("GET", "/healthz");
  ASSERT_EQ(r.status, 200) << r.describe();
  EXPECT_EQ(r.json()["status"], "ok");
}

TEST_F(Gateway, ReadyzIs200WhenEveryEnabledPluginLoaded) {
  const HttpResponse r = daemon_->request("GET", "/readyz");
  ASSERT_EQ(r.status, 200) << r.describe();
  EXPECT_EQ(r.json()["status"], "ready");
  for (const std::string name : {"echo", "probe", "auth"}) {
    EXPECT_EQ(r.json()["checks"]["plugins"][name], "loaded") << name << ": " << r.body;
  }
  EXPECT_GT(r.json()["checks"]["ops"].get<int>(), 0) << r.body;
}

TEST(GatewayReadiness, ReadyzIs503NamingTheRefusedPlugin) {
  DaemonOptions options;
  options.plugins = {"echo", "no_such_plugin"};
  auto daemon = DaemonProcess::start(options);
  const HttpResponse r = daemon->request("GET", "/readyz");
  ASSERT_EQ(r.status, 503) << r.describe();
  EXPECT_EQ(r.json()["status"], "not_ready");
  EXPECT_EQ(r.json()["checks"]["plugins"]["no_such_plugin"], "refused") << r.body;
  EXPECT_EQ(r.json()["checks"]["plugins"]["echo"], "loaded") << r.body;
  // Not ready, but what did load serves, and the log says why the other did not.
  EXPECT_EQ(daemon->call({{"op", "echo.ping"}}).status, 200);
  EXPECT_TRUE(contains(daemon->log(), "plugin 'no_such_plugin' refused")) << daemon->log();
}

TEST(GatewayReadiness, ReadyzIs503WhenNoPluginServesOps) {
  DaemonOptions options;
  options.plugins = {};
  auto daemon = DaemonProcess::start(options);
  const HttpResponse r = daemon->request("GET", "/readyz");
  ASSERT_EQ(r.status, 503) << r.describe();
  EXPECT_EQ(r.json()["status"], "not_ready");
  EXPECT_EQ(r.json()["checks"]["ops"], 0) << r.body;
  EXPECT_EQ(daemon->request("GET", "/healthz").status, 200) << "alive, only not ready";
}

// A daemon on the MongoDB driver whose server stops: /readyz turns 503 naming the store's error,
// so a load balancer stops sending it requests (docs/operations.md#running-several-daemons).
TEST(GatewayReadiness, ReadyzIs503WhileTheMongoDbServerIsDown) {
  auto server = std::make_unique<FerretDbServer>();
  ASSERT_EQ(server->problem(), "");
  DaemonOptions options;
  // The URI's serverSelectionTimeoutMS bounds how long a call waits for a server it cannot
  // reach (libmongoc's default: 30 s), the readiness check's included.
  options.config = {{"storage.driver", "mongodb"},
                    {"storage.mongodb.uri", server->uri() + "?serverSelectionTimeoutMS=2000"}};
  auto daemon = DaemonProcess::start(options);
  HttpResponse r = daemon->request("GET", "/readyz");
  ASSERT_EQ(r.status, 200) << r.describe();
  EXPECT_EQ(r.json()["checks"]["store"]["driver"], "mongodb") << r.body;
  EXPECT_EQ(r.json()["checks"]["store"]["projects"]["test"], "ok") << r.body;

  server.reset();
  const auto asked = std::chrono::steady_clock::now();
  r = daemon->request("GET", "/readyz");
  EXPECT_LT(std::chrono::steady_clock::now() - asked, std::chrono::seconds(10))
      << "the readiness check waits no longer than the server selection";
  EXPECT_EQ(r.status, 503) << r.describe();
  EXPECT_EQ(r.json()["status"], "not_ready") << r.body;
  EXPECT_NE(r.json()["checks"]["store"]["projects"]["test"], "ok") << r.body;
  EXPECT_EQ(daemon->request("GET", "/healthz").status, 200) << "alive, only not ready";
}

// The size of the project's sqlite store: its file and write-ahead log, as they grow.
TEST_F(Gateway, MetricsIncludeTheStoreSizeOfEachProject) {
  const auto size = daemon_->metric("opbase_store_size_bytes{project=\"test\"}");
  ASSERT_TRUE(size.has_value());
  EXPECT_GE(*size, 4096);  // at least the file's first page
}

// The standard process_* series, read from /proc at each scrape: open descriptors follow the
// connections the daemon holds.
TEST_F(Gateway, MetricsIncludeTheProcessSeries) {
  const auto rss = daemon_->metric("process_resident_memory_bytes");
  ASSERT_TRUE(rss.has_value());
  EXPECT_GT(*rss, 1 << 20);
  EXPECT_GT(daemon_->metric("process_cpu_seconds_total").value_or(0), 0);
  EXPECT_GT(daemon_->metric("process_virtual_memory_bytes").value_or(0), *rss);
  EXPECT_GE(daemon_->metric("process_threads").value_or(0), 2);
  EXPECT_GE(daemon_->metric("process_max_fds").value_or(0), 1024);
  const double started = daemon_->metric("process_start_time_seconds").value_or(0);
  const double now =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  EXPECT_LT(now - started, 600) << "started " << now - started << " s ago";
  EXPECT_GE(now - started, -2);

  // Each scrape is a connection of its own, which the daemon may still hold for a moment: the
  // eight scrapes above may close while the idle connections open.
  constexpr int kEarlierScrapes = 8;
  const double fds = daemon_->metric("process_open_fds").value_or(0);
  ASSERT_GT(fds, 3);
  constexpr int kConnections = 40;
  std::vector<std::unique_ptr<Client>> idle;
  for (int i = 0; i < kConnections; ++i) {
    idle.push_back(std::make_unique<Client>(daemon_->port()));
    ASSERT_EQ(idle.back()->send("GET", "/healthz").status, 200);
  }
  EXPECT_GE(daemon_->metric("process_open_fds").value_or(0), fds + kConnections - kEarlierScrapes);
}

TEST_F(Gateway, MetricsCountRequestsByOpAndCode) {
  constexpr int kPings = 7;
  constexpr int kUnknown = 3;
  for (int i = 0; i < kPings; ++i) ASSERT_EQ(daemon_->call({{"op", "echo.ping"}}).status, 200);
  for (int i = 0; i < kUnknown; ++i)
    ASSERT_EQ(daemon_->call({{"op", "made.up" + std::to_string(i)}}).status, 404);

  // A request is counted just after its answer is written, so the last one may lag a moment.
  const std::string pings = R"(opbase_requests_total{op="echo.ping",code="OK"})";
  const std::string unknown = R"(opbase_requests_total{op="unknown",code="UNKNOWN_OPERATION"})";
  EXPECT_TRUE(eventually(
      [&] { return daemon_->metric(pings) == kPings && daemon_->metric(unknown) == kUnknown; }));
  EXPECT_EQ(daemon_->metric(pings), kPings);
  EXPECT_EQ(daemon_->metric(unknown), kUnknown) << "made-up op names must not become labels";
  EXPECT_TRUE(eventually([&] { return daemon_->metric("opbase_requests_in_flight") == 0; }));
  EXPECT_EQ(daemon_->metric("opbase_plugins_loaded"),
            static_cast<double>(options().plugins.size()));
  EXPECT_EQ(daemon_->metric("opbase_plugins_refused"), 0);
  const HttpResponse scrape = daemon_->request("GET", "/metrics");
  EXPECT_TRUE(contains(scrape.header("Content-Type"), "text/plain"))
      << scrape.header("Content-Type");
}

TEST_F(Gateway, PluginMetricsAppearUnderThePluginsNameAndKeepTheirKind) {
  auto record = [&](std::string kind, std::string name, double value) {
    return daemon_->call(
        {{"op", "probe.metric"}, {"kind", kind}, {"name", name}, {"value", value}});
  };
  ASSERT_EQ(record("count", "things_total", 2).status, 200);
  ASSERT_EQ(record("count", "things_total", 3).status, 200);
  ASSERT_EQ(record("gauge", "queue_depth", 7).status, 200);
  ASSERT_EQ(record("gauge", "queue_depth", 4).status, 200);
  ASSERT_EQ(record("seconds", "wait_seconds", 0.003).status, 200);
  ASSERT_EQ(record("seconds", "wait_seconds", 0.2).status, 200);
  // Refused, and nothing recorded: another kind for a known name, a bad name, a negative count.
  ASSERT_EQ(record("gauge", "things_total", 100).status, 200);
  ASSERT_EQ(record("count", "Bad-Name", 1).status, 200);
  ASSERT_EQ(record("count", "things_total", -1).status, 200);

  EXPECT_EQ(daemon_->metric("opbase_probe_things_total"), 5);
  EXPECT_EQ(daemon_->metric("opbase_probe_queue_depth"), 4);
  EXPECT_EQ(daemon_->metric("opbase_probe_wait_seconds_count"), 2);
  EXPECT_EQ(daemon_->metric(R"(opbase_probe_wait_seconds_bucket{le="0.005"})"), 1);
  EXPECT_EQ(daemon_->metric(R"(opbase_probe_wait_seconds_bucket{le="+Inf"})"), 2);
  const std::string scrape = daemon_->request("GET", "/metrics").body;
  EXPECT_TRUE(contains(scrape, "# TYPE opbase_probe_things_total counter")) << scrape;
  EXPECT_TRUE(contains(scrape, "# TYPE opbase_probe_wait_seconds histogram"));
  EXPECT_FALSE(contains(scrape, "Bad-Name"));
}

// ---- robustness ----

// A deeply nested body is valid JSON; it must not take the daemon down (a recursive copy or
// dump of it in a handler overflows the worker thread's stack).
TEST_F(Gateway, DeeplyNestedBodyDoesNotCrashTheDaemon) {
  auto nested = [](size_t depth) {
    return R"({"op":"echo.echo","a":)" + std::string(depth, '[') + std::string(depth, ']') + "}";
  };
  // Ordinary nesting is served as it is.
  const HttpResponse modest = post(nested(100));
  ASSERT_EQ(modest.status, 200) << modest.describe();
  EXPECT_EQ(modest.json()["data"]["a"], json::parse(nested(100))["a"]);

  const HttpResponse r = post(nested(150'000));  // a 300 KB body, well under the 4 MB limit
  EXPECT_TRUE(r.status == 200 || r.status == 400) << r.describe();
  ASSERT_FALSE(daemon_->wait_exit(0ms).has_value()) << "the daemon died; log:\n" << daemon_->log();
  EXPECT_EQ(daemon_->call({{"op", "echo.ping"}}).status, 200);
}

// A negative Content-Length is a malformed request: it gets an answer, and it must not stay
// counted as in flight.
TEST_F(Gateway, NegativeContentLengthIsAnsweredAndNotLeftInFlight) {
  const std::string request = "POST " + daemon_->api_path() +
                              " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-KEY: " + daemon_->api_key() +
                              "\r\nContent-Length: -5\r\n\r\n{}";
  const RawReply reply = raw_exchange(daemon_->port(), request);
  EXPECT_EQ(reply.status(), 400) << "got: " << reply.bytes.substr(0, 300);
  EXPECT_TRUE(eventually([&] { return daemon_->metric("opbase_requests_in_flight") == 0; }))
      << "in flight: " << daemon_->metric("opbase_requests_in_flight").value_or(-1);
  EXPECT_EQ(daemon_->call({{"op", "echo.ping"}}).status, 200);
}

// One kind of malformed request: how to send it, and the statuses that are a correct answer
// (0: the daemon closed the connection without one, which is right for bytes that are not HTTP).
struct MalformedKind {
  std::string name;
  std::function<int(int i)> send;
  std::set<int> expected;
};

std::vector<MalformedKind> malformed_kinds(const DaemonProcess& d, Client& client) {
  const int port = d.port();
  const std::string path = d.api_path();
  const Headers key = {{"X-API-KEY", d.api_key()}, {"Content-Type", "application/json"}};
  const std::string head =
      "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-KEY: " + d.api_key() + "\r\n";
  const std::string valid = R"({"op":"echo.echo","text":"a body that will be cut short"})";
  Client* c = &client;  // the kept-alive connection the well-formed HTTP goes over
  auto post = [c, path, key](const std::string& body, const Headers& h = {}) {
    return c->send("POST", path, body, h.empty() ? key : h).status;
  };
  auto raw = [port](const std::string& bytes) { return raw_exchange(port, bytes).status(); };
  return {
      {"bad JSON", [=](int i) { return post(valid.substr(0, 1 + i % (valid.size() - 2))); }, {400}},
      {"wrong types",
       [=](int i) {
         static const std::vector<std::string> bodies = {
             "[]", "\"x\"", "7", "null", R"({"op":1})", R"({"op":{"a":1}})", R"({"op":[]})", "{}"};
         return post(bodies[static_cast<size_t>(i) % bodies.size()]);
       },
       {400}},
      {"huge op name",
       [=](int i) {
         return post(json({{"op", "echo." + std::string(1000 + i * 997, 'x')}}).dump());
       },
       {404}},
      {"bad API key",
       [=](int i) {
         return post(R"({"op":"echo.ping"})",
                     {{"X-API-KEY", i % 2 ? "" : "ak_" + std::string(16 + i, 'k')}});
       },
       {401}},
      {"invalid UTF-8",
       [=](int i) { return post("{\"op\":\"echo.\xc3\x28" + std::to_string(i) + "\"}"); },
       {400}},
      {"truncated body",
       [=](int i) {
         const std::string part = valid.substr(0, 1 + i % (valid.size() - 1));
         return raw(head + "Content-Length: " + std::to_string(valid.size() + 50) + "\r\n\r\n" +
                    part);
       },
       {400}},
      {"truncated chunked body",
       [=](int i) {
         return raw(head + "Transfer-Encoding: chunked\r\n\r\n40\r\n" +
                    valid.substr(0, 10 + i % 20));
       },
       {400}},
      {"garbage request line",
       [=](int i) {
         static const std::vector<std::string> lines = {
             "GARBAGE\r\n\r\n", std::string("\x00\x01\x02\xff\r\n\r\n", 8),
             "POST\r\n\r\n",    " / HTTP/1.1\r\n\r\n",
             "GET\t/\r\n\r\n",  std::string(5000, 'G') + "\r\n\r\n",
             "\r\n\r\n"};
         return raw(lines[static_cast<size_t>(i) % lines.size()]);
       },
       {400, 0}},
      {"bad headers",
       [=](int i) {
         static const std::vector<std::string> headers = {
             "Content-Length: abc\r\n", "Content-Length: -5\r\n", "no colon here\r\n",
             "X-" + std::string(9000, 'h') + ": 1\r\n"};
         return raw(head + headers[static_cast<size_t>(i) % headers.size()] + "\r\n{}");
       },
       {400, 0}},
      {"wrong route",
       [=](int i) {
         return i % 2 ? c->send("GET", path, "", key).status
                      : c->send("POST", path + "/x", "{}", key).status;
       },
       {404, 405}},
  };
}

TEST_F(Gateway, ServesCorrectlyAfterAThousandMalformedRequests) {
  constexpr int kRequests = 1000;
  Client client(daemon_->port());
  const std::vector<MalformedKind> kinds = malformed_kinds(*daemon_, client);
  std::map<std::string, std::string> wrong;  // kind → first wrong answer
  for (int i = 0; i < kRequests; ++i) {
    const MalformedKind& kind = kinds[static_cast<size_t>(i) % kinds.size()];
    const int status = kind.send(i / static_cast<int>(kinds.size()));
    if (!kind.expected.count(status) && !wrong.count(kind.name)) {
      wrong[kind.name] = "request " + std::to_string(i) + " answered " + std::to_string(status);
    }
  }
  for (const auto& [kind, what] : wrong) ADD_FAILURE() << kind << ": " << what;

  ASSERT_FALSE(daemon_->wait_exit(0ms).has_value()) << "the daemon died; log:\n" << daemon_->log();
  const HttpResponse ping = daemon_->call({{"op", "echo.ping"}});
  EXPECT_EQ(ping.status, 200) << ping.describe();
  EXPECT_EQ(ping.json()["data"]["pong"], true);
  EXPECT_EQ(daemon_->request("GET", "/healthz").status, 200);
  EXPECT_TRUE(eventually([&] { return daemon_->metric("opbase_requests_in_flight") == 0; }))
      << "requests that failed early must not stay counted as in flight";
}

}  // namespace
}  // namespace opbase::test
