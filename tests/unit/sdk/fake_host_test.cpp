// The C++ SDK and the fake host, through the real echo example (sdk/examples/echo, compiled into
// this binary): load, the ABI check, each echo op and its route, access needs and errors as a
// plugin author sees them. SDK behaviour the echo example does not exercise (exceptions, services,
// events, configuration errors) is in sdk_exception_test.cpp, with its own plugin.
#include <gtest/gtest.h>

#include <cstring>
#include <opbase/sdk.hpp>
#include <opbase/testing/fake_host.hpp>
#include <opbase/version.hpp>
#include <string>
#include <thread>
#include <vector>

// The echo example's entry symbol (OPBASE_PLUGIN in echo_plugin.cpp).
extern "C" const opbase_plugin_descriptor* opbase_plugin_entry(void);

namespace {

using nlohmann::json;
using opbase::testing::Caller;
using opbase::testing::CallResult;
using opbase::testing::FakeHost;
using opbase::testing::RouteRequest;
using opbase::testing::RouteResult;

Caller signed_in(std::string user_id, json claims = nullptr) {
  Caller caller;
  caller.user_id = std::move(user_id);
  caller.claims = std::move(claims);
  caller.bearer_token = "token-of-" + caller.user_id;
  return caller;
}

class EchoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const opbase::Status loaded = host_.load(opbase_plugin_entry());
    ASSERT_TRUE(loaded.is_ok()) << loaded.to_string();
  }
  FakeHost host_;
};

// ---- the descriptor and loading ---------------------------------------------------------------

TEST(EchoDescriptor, DescribesThePlugin) {
  const opbase_plugin_descriptor* d = opbase_plugin_entry();
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->struct_size, sizeof(opbase_plugin_descriptor));
  EXPECT_EQ(d->abi_major, OPBASE_ABI_MAJOR);
  EXPECT_EQ(d->abi_minor, OPBASE_ABI_MINOR);
  EXPECT_STREQ(d->name, "echo");
  EXPECT_STREQ(d->version, "1.0.0");
  EXPECT_NE(d->init, nullptr);
  EXPECT_NE(d->shutdown, nullptr);
  EXPECT_EQ(opbase_plugin_entry(), d);  // static storage: the same descriptor every time
  EXPECT_STRNE(OPBASE_VERSION, "");
}

TEST_F(EchoTest, RegistersItsOps) {
  EXPECT_EQ(host_.op_names(),
            (std::vector<std::string>{"echo.echo", "echo.greet", "echo.ping", "echo.whoami"}));
}

TEST(EchoLoad, SecondLoadIsRefused) {
  FakeHost host;
  ASSERT_TRUE(host.load(opbase_plugin_entry()).is_ok());
  const opbase::Status again = host.load(opbase_plugin_entry());
  EXPECT_FALSE(again.is_ok());
  EXPECT_EQ(again.message(), "a plugin is already loaded");
}

TEST(EchoLoad, NullDescriptorIsRefused) {
  FakeHost host;
  EXPECT_FALSE(host.load(nullptr).is_ok());
}

TEST(EchoLoad, NewerMinorAbiIsRefused) {
  opbase_plugin_descriptor copy = *opbase_plugin_entry();
  copy.abi_minor = OPBASE_ABI_MINOR + 1;
  FakeHost host;
  const opbase::Status refused = host.load(&copy);
  ASSERT_FALSE(refused.is_ok());
  const std::string expected_built = "built for ABI " + std::to_string(OPBASE_ABI_MAJOR) + "." +
                                     std::to_string(OPBASE_ABI_MINOR + 1);
  EXPECT_NE(refused.message().find(expected_built), std::string::npos) << refused.message();
  EXPECT_TRUE(host.op_names().empty());  // init never ran
  // The refusal left the host usable: the real descriptor loads.
  EXPECT_TRUE(host.load(opbase_plugin_entry()).is_ok());
  EXPECT_EQ(host.call("echo.ping").data, json({{"pong", true}}));
}

TEST(EchoLoad, OtherMajorAbiIsRefused) {
  for (const int major : {OPBASE_ABI_MAJOR - 1, OPBASE_ABI_MAJOR + 1}) {
    opbase_plugin_descriptor copy = *opbase_plugin_entry();
    copy.abi_major = static_cast<uint16_t>(major);
    copy.abi_minor = 0;
    FakeHost host;
    const opbase::Status refused = host.load(&copy);
    EXPECT_FALSE(refused.is_ok()) << major;
    EXPECT_TRUE(host.op_names().empty());
  }
}

// ---- the ops ----------------------------------------------------------------------------------

TEST_F(EchoTest, Ping) {
  const CallResult r = host_.call("echo.ping");
  ASSERT_TRUE(r.ok) << r.code << ": " << r.message;
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(r.data, json({{"pong", true}}));
  EXPECT_TRUE(r.meta.is_null());
  EXPECT_TRUE(r.top_level.is_null());
  EXPECT_TRUE(r.code.empty());
}

TEST_F(EchoTest, EchoAnswersTheBodyWithoutOp) {
  const json body = {{"a", 1}, {"nested", {{"b", {1, 2, 3}}, {"s", "ü ✓"}}}, {"n", nullptr}};
  const CallResult r = host_.call("echo.echo", body);
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.data, body);

  // With "op" in the body as the gateway sends it.
  const CallResult with_op = host_.call("echo.echo", {{"op", "echo.echo"}, {"x", 1}});
  ASSERT_TRUE(with_op.ok);
  EXPECT_EQ(with_op.data, json({{"x", 1}}));

  const CallResult empty = host_.call("echo.echo");
  ASSERT_TRUE(empty.ok);
  EXPECT_EQ(empty.data, json::object());
}

TEST_F(EchoTest, GreetWithDefaultGreeting) {
  const CallResult r = host_.call("echo.greet", {{"name", "Ada"}});
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.data, "Hello, Ada!");
}

TEST(EchoGreeting, GreetingComesFromConfigAtLoad) {
  FakeHost host;
  host.set_config("echo.greeting", "Hi");
  ASSERT_TRUE(host.load(opbase_plugin_entry()).is_ok());
  EXPECT_EQ(host.call("echo.greet", {{"name", "Ada"}}).data, "Hi, Ada!");
  // Read once in init: a later change does not reach the loaded plugin.
  host.set_config("echo.greeting", "Bye");
  EXPECT_EQ(host.call("echo.greet", {{"name", "Ada"}}).data, "Hi, Ada!");
}

TEST_F(EchoTest, GreetValidationErrorWithDetails) {
  for (const json& body :
       {json::object(), json({{"name", 5}}), json({{"name", nullptr}}), json({{"Name", "Ada"}})}) {
    const CallResult r = host_.call("echo.greet", body);
    ASSERT_FALSE(r.ok) << body;
    EXPECT_EQ(r.code, "VALIDATION_ERROR");
    EXPECT_EQ(r.http_status, 400);
    EXPECT_EQ(r.message, "field 'name' must be a string");
    EXPECT_EQ(r.details, json({{"field", "name"}}));
  }
}

TEST_F(EchoTest, WhoamiNeedsAUser) {
  const CallResult anonymous = host_.call("echo.whoami");
  ASSERT_FALSE(anonymous.ok);
  EXPECT_EQ(anonymous.code, "AUTHENTICATION_FAILED");
  EXPECT_EQ(anonymous.http_status, 401);
}

TEST_F(EchoTest, WhoamiAnswersTheCaller) {
  const json claims = {{"sub", "u1"}, {"roles", {"user"}}, {"project_id", "test"}};
  const CallResult r = host_.call("echo.whoami", json::object(), signed_in("u1", claims));
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.data, json({{"user", "u1"}, {"claims", claims}}));

  // Without explicit claims the fake host makes the minimal ones.
  const CallResult minimal = host_.call("echo.whoami", json::object(), signed_in("u2"));
  ASSERT_TRUE(minimal.ok);
  EXPECT_EQ(minimal.data, json({{"user", "u2"}, {"claims", {{"sub", "u2"}}}}));
}

TEST_F(EchoTest, UnknownOp) {
  const CallResult r = host_.call("echo.nope");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.code, "UNKNOWN_OPERATION");
  EXPECT_EQ(r.http_status, 404);
}

TEST_F(EchoTest, EchoPluginLogsNothingAndPublishesNothing) {
  host_.call("echo.ping");
  host_.call("echo.greet");
  EXPECT_TRUE(host_.log_lines().empty());
  EXPECT_TRUE(host_.published().empty());
}

TEST_F(EchoTest, ConcurrentCalls) {
  constexpr int kThreads = 4;
  constexpr int kEach = 200;
  std::vector<int> ok(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        const json body = {{"t", t}, {"i", i}};
        const CallResult r = host_.call("echo.echo", body);
        if (r.ok && r.data == body) ++ok[t];
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(ok[t], kEach) << t;
}

TEST_F(EchoTest, TheRouteCountsABodyAndWritesBytesInPieces) {
  const RouteResult counted =
      host_.call_route({"PUT", "/echo/count", {}, std::string(200'000, 'x')});
  EXPECT_EQ(counted.status, 200);
  EXPECT_EQ(counted.content_type, "text/plain");
  EXPECT_EQ(counted.body, "200000");
  const RouteResult bytes = host_.call_route({"GET", "/echo/bytes/100000", {}, ""});
  EXPECT_EQ(bytes.status, 200);
  EXPECT_TRUE(bytes.complete);
  ASSERT_EQ(bytes.body.size(), 100'000u);
  EXPECT_EQ(bytes.body.substr(0, 8), "echoecho");
  EXPECT_EQ(bytes.body.substr(65536, 4), "echo");  // the second piece starts the pattern again
}

TEST_F(EchoTest, TheRouteAnswersAnythingElseWithTheErrorEnvelope) {
  for (const RouteRequest& request :
       {RouteRequest{"GET", "/echo/count", {}, ""}, RouteRequest{"GET", "/echo/bytes/x", {}, ""},
        RouteRequest{"GET", "/echo/bytes/2000000000", {}, ""},
        RouteRequest{"DELETE", "/echo/bytes/5", {}, ""}}) {
    const RouteResult r = host_.call_route(request);
    EXPECT_EQ(r.status, 404) << request.method << " " << request.target;
    EXPECT_EQ(json::parse(r.body)["error"]["code"], "UNKNOWN_OPERATION");
  }
  EXPECT_EQ(host_.call_route({"GET", "/other/x", {}, ""}).status, 0);  // no route of the plugin's
}

}  // namespace
