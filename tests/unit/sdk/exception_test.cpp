// The C++ SDK on the fake host, with a small plugin of its own ("kit"; one OPBASE_PLUGIN per
// binary, so it cannot share fake_host_test with the echo example): exceptions become
// INTERNAL_ERROR at the plugin edge, Host::call_service / publish / config_int, events, access
// needs, registration refusals and shutdown.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <opbase/sdk.hpp>
#include <opbase/testing/fake_host.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using nlohmann::json;
using opbase::Access;
using opbase::Reply;
using opbase::Request;
using opbase::Result;
using opbase::Status;

// What the plugin saw, for the tests to read.
std::atomic<int> g_shutdowns{0};
std::atomic<int> g_destroyed{0};
std::mutex g_events_mu;
std::vector<std::string> g_events;

class KitPlugin final : public opbase::Plugin {
 public:
  ~KitPlugin() override { ++g_destroyed; }

  Status init(opbase::Registrar& r) override {
    if (host().config("kit.init_throws")) throw std::runtime_error("init exploded");
    auto limit = host().config_int("kit.limit", 10);
    if (!limit) return limit.status();
    limit_ = *limit;
    if (auto bad = host().config("kit.register")) {
      r.op(*bad, Access::kApiKey, [](const Request&) -> Result<Reply> { return Reply(); });
    }

    r.op("kit.throw_std", Access::kApiKey,
         [](const Request&) -> Result<Reply> { throw std::runtime_error("boom"); });
    r.op("kit.throw_other", Access::kApiKey, [](const Request&) -> Result<Reply> { throw 42; });
    r.op("kit.throw_json", Access::kApiKey, [](const Request& req) -> Result<Reply> {
      return Reply(req.body.at("missing").get<int>());  // nlohmann throws out_of_range
    });
    r.op("kit.fail", Access::kApiKey, [](const Request&) -> Result<Reply> {
      return Status("ORDER_CLOSED", "the order is closed", {{"order", 7}});
    });
    r.op("kit.bad_code", Access::kApiKey, [](const Request&) -> Result<Reply> {
      return Status("not a code", "codes are upper-case letters, digits and '_'");
    });
    r.op("kit.parts", Access::kApiKey, [](const Request&) -> Result<Reply> {
      return Reply(json::array({1, 2})).with_meta({{"total", 2}}).with_top_level({{"extra", true}});
    });
    r.op("kit.text", Access::kApiKey, [](const Request& req) -> Result<Reply> {
      return Reply::from_text(req.body.at("text").get<std::string>()).with_meta({{"n", 1}});
    });
    r.op("kit.limit", Access::kApiKey,
         [this](const Request&) -> Result<Reply> { return Reply(limit_); });
    r.op("kit.config_int", Access::kApiKey, [this](const Request& req) -> Result<Reply> {
      auto value = host().config_int(req.body.at("key").get<std::string>(),
                                     req.body.value("fallback", int64_t{-1}));
      if (!value) return value.status();
      return Reply(*value);
    });
    r.op("kit.call", Access::kApiKey, [this](const Request& req) -> Result<Reply> {
      auto answer = host().call_service(req.body.at("service").get<std::string>(), req.project_id,
                                        req.body.value("input", json::object()));
      if (!answer) return answer.status();
      return Reply(std::move(*answer));
    });
    r.op("kit.publish", Access::kApiKey, [this](const Request& req) -> Result<Reply> {
      Status published = host().publish(req.body.at("type").get<std::string>(), req.project_id,
                                        req.body.at("payload"));
      if (!published) return published;
      return Reply({{"published", true}});
    });
    r.op("kit.now", Access::kApiKey,
         [this](const Request&) -> Result<Reply> { return Reply(host().now_ms()); });
    r.op("kit.log", Access::kApiKey, [this](const Request&) -> Result<Reply> {
      host().info("an info line");
      host().warn("a warning");
      host().error("an error");
      return Reply();
    });
    r.op("kit.whoami", Access::kUserOptional, [](const Request& req) -> Result<Reply> {
      return Reply({{"signed_in", req.signed_in()},
                    {"user", req.user_id},
                    {"claims", req.user_claims()},
                    {"token", req.bearer_token},
                    {"project", req.project_id},
                    {"request_id", req.request_id},
                    {"client", req.client_address},
                    {"op", req.op},
                    {"raw_body", req.raw_body}});
    });
    r.op("kit.admin", Access::kAdmin, [](const Request&) -> Result<Reply> { return Reply("ok"); });

    r.service("kit.double", [](std::string_view project, const json& input) -> Result<json> {
      if (input.contains("throw")) throw std::logic_error("service bug");
      const int64_t n = input.at("n").get<int64_t>();
      if (n < 0) return Status::validation("n must not be negative", {{"n", n}});
      return json{{"n", 2 * n}, {"project", project}};
    });

    if (auto bad = host().config("kit.subscribe")) {
      r.subscribe(*bad, [](const opbase::Event&) {});
    }
    r.subscribe("order.*", [](const opbase::Event& e) {
      if (e.payload.contains("throw")) throw std::runtime_error("handler bug");
      std::lock_guard lock(g_events_mu);
      g_events.push_back(std::string(e.type) + "|" + std::string(e.project_id) + "|" +
                         e.payload.dump() + "|" + std::to_string(e.time_ms));
    });
    return r.status();
  }

  void shutdown() override { ++g_shutdowns; }

 private:
  int64_t limit_ = 0;
};

}  // namespace

OPBASE_PLUGIN(KitPlugin, "kit", "0.0.1")

namespace {

using opbase::testing::Caller;
using opbase::testing::CallResult;
using opbase::testing::FakeHost;

bool has_log_line(const FakeHost& host, const std::string& line) {
  for (const auto& l : host.log_lines()) {
    if (l == line) return true;
  }
  return false;
}

std::string all_log_lines(const FakeHost& host) {
  std::string out;
  for (const auto& l : host.log_lines()) out += l + "\n";
  return out;
}

class KitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const Status loaded = host_.load(opbase_plugin_entry());
    ASSERT_TRUE(loaded.is_ok()) << loaded.to_string();
  }
  FakeHost host_;
};

// ---- exceptions at the plugin edge ------------------------------------------------------------

TEST_F(KitTest, ThrowingHandlerIsAnInternalError) {
  const CallResult r = host_.call("kit.throw_std");
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.code, "INTERNAL_ERROR");
  EXPECT_EQ(r.http_status, 500);
  EXPECT_EQ(r.message, "internal error");  // the exception text is not shown to the client
  EXPECT_TRUE(has_log_line(host_, "ERROR kit.throw_std threw: boom (request test-request)"))
      << all_log_lines(host_);
}

TEST_F(KitTest, ThrowingANonExceptionIsAnInternalError) {
  const CallResult r = host_.call("kit.throw_other");
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.code, "INTERNAL_ERROR");
  EXPECT_TRUE(
      has_log_line(host_, "ERROR kit.throw_other threw: unknown exception (request test-request)"))
      << all_log_lines(host_);
}

TEST_F(KitTest, JsonExceptionInAHandlerIsAnInternalError) {
  const CallResult r = host_.call("kit.throw_json", {{"present", 1}});
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.code, "INTERNAL_ERROR");
  EXPECT_EQ(r.http_status, 500);
  ASSERT_EQ(host_.log_lines().size(), 1u);
  EXPECT_EQ(host_.log_lines()[0].rfind("ERROR kit.throw_json threw: ", 0), 0u)
      << all_log_lines(host_);
}

TEST_F(KitTest, ThrowingServiceIsAnInternalError) {
  auto r = host_.call_service("kit.double", "p1", {{"throw", true}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.status().code(), "INTERNAL_ERROR");
  EXPECT_TRUE(has_log_line(host_, "ERROR a service threw: service bug")) << all_log_lines(host_);
}

TEST_F(KitTest, ThrowingEventHandlerIsLoggedAndContained) {
  EXPECT_NO_THROW(host_.deliver("order.bad", "p1", {{"throw", true}}));
  EXPECT_TRUE(has_log_line(host_, "ERROR event handler for order.bad threw: handler bug"))
      << all_log_lines(host_);
}

TEST(KitInit, ThrowingInitRefusesThePlugin) {
  const int shutdowns = g_shutdowns;
  const int destroyed = g_destroyed;
  {
    FakeHost host;
    host.set_config("kit.init_throws", "yes");
    const Status loaded = host.load(opbase_plugin_entry());
    ASSERT_FALSE(loaded.is_ok());
    EXPECT_TRUE(has_log_line(host, "ERROR init threw: init exploded")) << all_log_lines(host);
    EXPECT_FALSE(host.call("kit.limit").ok);
  }
  EXPECT_EQ(g_shutdowns, shutdowns);      // a refused plugin is not shut down ...
  EXPECT_EQ(g_destroyed, destroyed + 1);  // ... but its instance is freed
}

// ---- results ----------------------------------------------------------------------------------

TEST_F(KitTest, FailedStatusBecomesTheErrorEnvelope) {
  const CallResult r = host_.call("kit.fail");
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.code, "ORDER_CLOSED");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.message, "the order is closed");
  EXPECT_EQ(r.details, json({{"order", 7}}));
}

TEST_F(KitTest, MalformedErrorCodeIsAnInternalErrorAsOnTheDaemon) {
  // The daemon (response_set_error) responds INTERNAL_ERROR / 500 for an error code that is not
  // upper-case letters, digits and '_'. The fake host must not let such a plugin pass its tests.
  const CallResult r = host_.call("kit.bad_code");
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.code, "INTERNAL_ERROR");
  EXPECT_EQ(r.http_status, 500);
}

TEST_F(KitTest, ReplyPartsArriveSeparately) {
  const CallResult r = host_.call("kit.parts");
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.data, json::array({1, 2}));
  EXPECT_EQ(r.meta, json({{"total", 2}}));
  EXPECT_EQ(r.top_level, json({{"extra", true}}));
}

TEST_F(KitTest, DataAlreadyPrintedGoesOutAsItIs) {
  const CallResult r = host_.call("kit.text", {{"text", R"([{"a":1},"x"])"}});
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.data, json::parse(R"([{"a":1},"x"])"));
  EXPECT_EQ(r.meta, json({{"n", 1}}));
}

TEST_F(KitTest, DataTextThatIsNotJsonIsTheHostsRefusalNotGarbage) {
  const std::string nul_junk("{}\0x", 4);
  for (const std::string& text :
       {std::string("[{\"a\":1}"), std::string(), std::string("{} junk"), nul_junk}) {
    const CallResult r = host_.call("kit.text", {{"text", text}});
    EXPECT_FALSE(r.ok) << text;
    EXPECT_EQ(r.code, "INTERNAL_ERROR") << text;
  }
}

TEST_F(KitTest, RequestFieldsReachTheHandler) {
  Caller caller;
  caller.project_id = "shop";
  caller.user_id = "u9";
  caller.claims = {{"sub", "u9"}, {"roles", {"user"}}};
  caller.bearer_token = "tok";
  caller.client_address = "192.0.2.9";
  const CallResult r = host_.call("kit.whoami", {{"x", 1}}, caller);
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.data["signed_in"], true);
  EXPECT_EQ(r.data["user"], "u9");
  EXPECT_EQ(r.data["claims"], caller.claims);
  EXPECT_EQ(r.data["token"], "tok");
  EXPECT_EQ(r.data["project"], "shop");
  EXPECT_EQ(r.data["request_id"], "test-request");
  EXPECT_EQ(r.data["client"], "192.0.2.9");
  EXPECT_EQ(r.data["op"], "kit.whoami");
  EXPECT_EQ(json::parse(r.data["raw_body"].get<std::string>()),
            json({{"op", "kit.whoami"}, {"x", 1}}));

  const CallResult anonymous = host_.call("kit.whoami");
  ASSERT_TRUE(anonymous.ok) << anonymous.message;  // optional access: anonymous reaches the handler
  EXPECT_EQ(anonymous.data["signed_in"], false);
  EXPECT_EQ(anonymous.data["user"], "");
  EXPECT_TRUE(anonymous.data["claims"].is_null());
}

TEST_F(KitTest, AdminAccess) {
  EXPECT_EQ(host_.call("kit.admin").code, "AUTHENTICATION_FAILED");
  Caller user;
  user.user_id = "u1";
  user.claims = {{"sub", "u1"}, {"roles", {"user"}}};
  const CallResult forbidden = host_.call("kit.admin", json::object(), user);
  EXPECT_EQ(forbidden.code, "FORBIDDEN");
  EXPECT_EQ(forbidden.http_status, 403);
  Caller admin = user;
  admin.claims["roles"] = {"user", "admin"};
  const CallResult ok = host_.call("kit.admin", json::object(), admin);
  ASSERT_TRUE(ok.ok) << ok.message;
  EXPECT_EQ(ok.data, "ok");
}

// ---- Host::call_service -----------------------------------------------------------------------

TEST_F(KitTest, CallServiceReachesAProvidedService) {
  std::string seen_project;
  json seen_input;
  host_.provide_service("auth.verify_token",
                        [&](std::string_view project, const json& input) -> Result<json> {
                          seen_project = project;
                          seen_input = input;
                          return json{{"sub", "u1"}, {"roles", {"user"}}};
                        });
  Caller caller;
  caller.project_id = "shop";
  const CallResult r = host_.call(
      "kit.call", {{"service", "auth.verify_token"}, {"input", {{"token", "abc"}}}}, caller);
  ASSERT_TRUE(r.ok) << r.code << ": " << r.message;
  EXPECT_EQ(r.data, json({{"sub", "u1"}, {"roles", {"user"}}}));
  EXPECT_EQ(seen_project, "shop");
  EXPECT_EQ(seen_input, json({{"token", "abc"}}));
}

TEST_F(KitTest, CallServiceErrorPassesThrough) {
  host_.provide_service("auth.verify_token", [](std::string_view, const json&) -> Result<json> {
    return Status("TOKEN_EXPIRED", "the id token expired", {{"expired_at", 5}});
  });
  const CallResult r = host_.call("kit.call", {{"service", "auth.verify_token"}});
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.code, "TOKEN_EXPIRED");
  EXPECT_EQ(r.http_status, 401);
  EXPECT_EQ(r.message, "the id token expired");
  EXPECT_EQ(r.details, json({{"expired_at", 5}}));
}

TEST_F(KitTest, CallServiceAnsweringNullIsNull) {
  host_.provide_service("ai.embed",
                        [](std::string_view, const json&) -> Result<json> { return json(); });
  const CallResult r = host_.call("kit.call", {{"service", "ai.embed"}});
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_TRUE(r.data.is_null());
}

TEST_F(KitTest, CallServiceToAMissingServiceIsAnError) {
  const CallResult r = host_.call("kit.call", {{"service", "nope.missing"}});
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.code, "INTERNAL_ERROR");
  EXPECT_EQ(r.http_status, 500);
  EXPECT_NE(r.message.find("nope.missing"), std::string::npos) << r.message;
}

TEST_F(KitTest, ServiceTheSdkProvides) {
  auto doubled = host_.call_service("kit.double", "p1", {{"n", 21}});
  ASSERT_TRUE(doubled) << doubled.status().to_string();
  EXPECT_EQ(*doubled, json({{"n", 42}, {"project", "p1"}}));

  auto refused = host_.call_service("kit.double", "p1", {{"n", -1}});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.status().code(), "VALIDATION_ERROR");
  EXPECT_EQ(refused.status().details(), json({{"n", -1}}));

  auto missing = host_.call_service("kit.triple", "p1", json::object());
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.status().code(), "INTERNAL_ERROR");
}

// ---- Host::publish and events -----------------------------------------------------------------

TEST_F(KitTest, PublishIsRecorded) {
  host_.set_now_ms(1'700'000'123'456);
  Caller caller;
  caller.project_id = "shop";
  const CallResult r =
      host_.call("kit.publish",
                 {{"type", "order.created"}, {"payload", {{"_key", "o1"}, {"total", 3}}}}, caller);
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.data, json({{"published", true}}));
  const auto published = host_.published();
  ASSERT_EQ(published.size(), 1u);
  EXPECT_EQ(published[0].type, "order.created");
  EXPECT_EQ(published[0].project_id, "shop");
  EXPECT_EQ(published[0].payload, json({{"_key", "o1"}, {"total", 3}}));
  EXPECT_EQ(published[0].time_ms, 1'700'000'123'456);
}

TEST_F(KitTest, PublishingANonObjectIsRefused) {
  const CallResult r = host_.call("kit.publish", {{"type", "order.created"}, {"payload", {1, 2}}});
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.code, "INTERNAL_ERROR");
  EXPECT_EQ(r.message, "event order.created was refused by the host");
  EXPECT_TRUE(host_.published().empty());
}

TEST_F(KitTest, DeliveredEventsReachMatchingSubscriptions) {
  {
    std::lock_guard lock(g_events_mu);
    g_events.clear();
  }
  host_.set_now_ms(1000);
  host_.deliver("order.created", "shop", {{"_key", "o1"}});
  host_.deliver("user.signedup", "shop", {{"_key", "u1"}});  // not subscribed
  host_.advance_ms(5);
  host_.deliver("order.paid", "blog", json::object());
  std::lock_guard lock(g_events_mu);
  EXPECT_EQ(g_events, (std::vector<std::string>{R"(order.created|shop|{"_key":"o1"}|1000)",
                                                R"(order.paid|blog|{}|1005)"}));
}

TEST_F(KitTest, ClockAndLog) {
  host_.set_now_ms(42);
  host_.advance_ms(8);
  EXPECT_EQ(host_.call("kit.now").data, 50);
  ASSERT_TRUE(host_.call("kit.log").ok);
  EXPECT_EQ(host_.log_lines(),
            (std::vector<std::string>{"INFO an info line", "WARNING a warning", "ERROR an error"}));
}

// ---- Host::config_int -------------------------------------------------------------------------

TEST_F(KitTest, ConfigIntReadsIntegersAndFallsBack) {
  host_.set_config("kit.n", "42");
  host_.set_config("kit.negative", "-5");
  EXPECT_EQ(host_.call("kit.config_int", {{"key", "kit.n"}}).data, 42);
  EXPECT_EQ(host_.call("kit.config_int", {{"key", "kit.negative"}}).data, -5);
  EXPECT_EQ(host_.call("kit.config_int", {{"key", "kit.unset"}, {"fallback", 7}}).data, 7);
  EXPECT_EQ(host_.call("kit.limit").data, 10);  // read in init, unset: the fallback
}

TEST_F(KitTest, ConfigIntErrorsNameTheKeyAndValue) {
  for (const std::string bad : {"abc", "", " 1", "1 ", "1.5", "12abc", "99999999999999999999"}) {
    host_.set_config("kit.bad", bad);
    const CallResult r = host_.call("kit.config_int", {{"key", "kit.bad"}});
    ASSERT_FALSE(r.ok) << "'" << bad << "'";
    EXPECT_EQ(r.code, "INTERNAL_ERROR");
    EXPECT_EQ(r.message, "configuration key kit.bad must be an integer, not '" + bad + "'");
  }
}

TEST(KitInit, ConfigIntErrorInInitRefusesThePlugin) {
  FakeHost host;
  host.set_config("kit.limit", "ten");
  const Status loaded = host.load(opbase_plugin_entry());
  ASSERT_FALSE(loaded.is_ok());
  EXPECT_TRUE(has_log_line(host,
                           "ERROR init failed: INTERNAL_ERROR: configuration key kit.limit "
                           "must be an integer, not 'ten'"))
      << all_log_lines(host);
  EXPECT_FALSE(host.call("kit.limit").ok);
}

TEST(KitInit, ConfiguredLimitIsRead) {
  FakeHost host;
  host.set_config("kit.limit", "99");
  ASSERT_TRUE(host.load(opbase_plugin_entry()).is_ok());
  EXPECT_EQ(host.call("kit.limit").data, 99);
}

// ---- registration -----------------------------------------------------------------------------

TEST(KitInit, OpOutsideTheAreaRefusesThePlugin) {
  const int shutdowns = g_shutdowns;
  {
    FakeHost host;
    host.set_config("kit.register", "echo.ping");
    const Status loaded = host.load(opbase_plugin_entry());
    ASSERT_FALSE(loaded.is_ok());
    EXPECT_NE(loaded.message().find("op 'echo.ping' is outside the plugin's area"),
              std::string::npos)
        << loaded.message();
    EXPECT_TRUE(has_log_line(
        host, "ERROR init failed: INTERNAL_ERROR: op echo.ping was refused by the host"))
        << all_log_lines(host);
  }
  EXPECT_EQ(g_shutdowns, shutdowns);
}

TEST(KitInit, DuplicateOpRefusesThePlugin) {
  FakeHost host;
  host.set_config("kit.register", "kit.limit");  // registered before the real kit.limit
  const Status loaded = host.load(opbase_plugin_entry());
  ASSERT_FALSE(loaded.is_ok());
  EXPECT_NE(loaded.message().find("op 'kit.limit' is registered twice"), std::string::npos)
      << loaded.message();
}

TEST(KitInit, MalformedSubscriptionRefusesThePlugin) {
  for (const char* pattern : {"order*", "*.created", "", "a.*.b"}) {
    FakeHost host;
    host.set_config("kit.subscribe", pattern);
    const Status loaded = host.load(opbase_plugin_entry());
    EXPECT_FALSE(loaded.is_ok()) << "'" << pattern << "'";
    EXPECT_TRUE(
        has_log_line(host, std::string("ERROR init failed: INTERNAL_ERROR: subscription to ") +
                               pattern + " was refused by the host"))
        << all_log_lines(host);
  }
}

TEST(KitShutdown, ShutdownRunsOnceWhenTheHostGoes) {
  const int shutdowns = g_shutdowns;
  const int destroyed = g_destroyed;
  {
    FakeHost host;
    ASSERT_TRUE(host.load(opbase_plugin_entry()).is_ok());
    EXPECT_EQ(g_shutdowns, shutdowns);
  }
  EXPECT_EQ(g_shutdowns, shutdowns + 1);
  EXPECT_EQ(g_destroyed, destroyed + 1);
}

}  // namespace
