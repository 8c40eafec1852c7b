// The SDK's endpoint routes and held responses (Registrar::endpoint_route, RouteCall::hold,
// opbase/held_stream.hpp) on the fake host, with a small plugin of its own ("stream"): the route
// sees the project and its query, pushes reach the held body in order, the plugin's on_end is
// called once with the reason, and pushes after the end say so. Over HTTP in the daemon:
// tests/integration/routes_test.cpp.
#include <gtest/gtest.h>

#include <memory>
#include <mutex>
#include <opbase/sdk.hpp>
#include <opbase/testing/fake_host.hpp>
#include <string>
#include <vector>

extern "C" OPBASE_EXPORT const opbase_plugin_descriptor* opbase_plugin_entry(void);

namespace {

using opbase::HeldEnd;
using opbase::testing::RouteRequest;

// Holds GET /api/<key>/stream open, its first bytes naming the project and `hello`'s value.
class StreamPlugin final : public opbase::Plugin {
 public:
  opbase::Status init(opbase::Registrar& r) override {
    g_plugin = this;
    r.endpoint_route("stream", [this](opbase::RouteCall& call) {
      opbase::HoldSettings settings;
      settings.on_end = [this](HeldEnd why) {
        std::lock_guard lock(mu);
        ends.push_back(why);
      };
      auto held = call.hold(200, "text/event-stream", std::move(settings));
      if (!held) return;
      held->push(std::string(call.project_id()) + " " + call.query("hello").value_or("-") + "\n");
      std::lock_guard lock(mu);
      this->held = std::move(held);
    });
    return opbase::Status::ok();
  }

  static StreamPlugin* g_plugin;
  std::mutex mu;
  std::unique_ptr<opbase::HeldStream> held;
  std::vector<HeldEnd> ends;
};
StreamPlugin* StreamPlugin::g_plugin = nullptr;

class HeldStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const opbase::Status loaded = fake_.load(opbase_plugin_entry());
    ASSERT_TRUE(loaded.is_ok()) << loaded.to_string();
    plugin_ = StreamPlugin::g_plugin;
  }
  opbase::testing::RouteResult open() {
    RouteRequest request{"GET", "/api/ek/stream?hello=w%20rld", {}, ""};
    request.project_id = "shop";
    return fake_.call_route(request);
  }
  opbase::testing::FakeHost fake_;
  StreamPlugin* plugin_ = nullptr;
};

TEST_F(HeldStreamTest, TheRouteSeesItsProjectAndQueryAndPushesArriveInOrder) {
  const auto result = open();
  EXPECT_EQ(result.status, 200);
  EXPECT_EQ(result.content_type, "text/event-stream");
  ASSERT_NE(result.held, nullptr);
  EXPECT_TRUE(plugin_->held->push("a\n"));
  EXPECT_TRUE(plugin_->held->push("b\n"));
  EXPECT_EQ(result.held->body(), "shop w rld\na\nb\n");
}

TEST_F(HeldStreamTest, TheEndIsToldOnceAndLaterPushesFail) {
  const auto result = open();
  ASSERT_NE(result.held, nullptr);
  EXPECT_TRUE(result.held->end(HeldEnd::kClientLeft));
  EXPECT_FALSE(result.held->end(HeldEnd::kServerStopping));
  EXPECT_EQ(plugin_->ends, std::vector<HeldEnd>{HeldEnd::kClientLeft});
  EXPECT_FALSE(plugin_->held->push("late\n"));
}

TEST_F(HeldStreamTest, ACloseSendsItsLastBytesAndEndsAsClosed) {
  const auto result = open();
  ASSERT_NE(result.held, nullptr);
  plugin_->held->close("bye\n");
  EXPECT_EQ(result.held->body(), "shop w rld\nbye\n");
  EXPECT_TRUE(result.held->ended());
  EXPECT_EQ(plugin_->ends, std::vector<HeldEnd>{HeldEnd::kClosed});
}

TEST_F(HeldStreamTest, APlainRouteOrAnotherNameIsNotTheEndpointRoute) {
  EXPECT_EQ(fake_.call_route({"GET", "/stream/x", {}, ""}).status, 0);
  EXPECT_EQ(fake_.call_route({"GET", "/api/ek/streams", {}, ""}).status, 0);
}

}  // namespace

OPBASE_PLUGIN(StreamPlugin, "stream", "0.0.0-test")
