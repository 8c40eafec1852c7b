// The SDK's typed host services (opbase/host_services.hpp) on the fake host: what each sends to
// the host's service of its name, and how it reads the answer the daemon gives
// (host/plugin_host/host_services.cpp answers the same shapes), failures passed on unchanged.
#include <gtest/gtest.h>

#include <opbase/host_services.hpp>
#include <opbase/sdk.hpp>
#include <opbase/testing/fake_host.hpp>
#include <string>
#include <vector>

extern "C" OPBASE_EXPORT const opbase_plugin_descriptor* opbase_plugin_entry(void);

namespace {

using nlohmann::json;

const opbase::Host* g_host = nullptr;

// A plugin that only hands its Host to the test.
class HandlePlugin final : public opbase::Plugin {
 public:
  opbase::Status init(opbase::Registrar&) override {
    g_host = &host();
    return opbase::Status::ok();
  }
};

class HostServicesTest : public ::testing::Test {
 protected:
  void load() {
    const opbase::Status loaded = fake_.load(opbase_plugin_entry());
    ASSERT_TRUE(loaded.is_ok()) << loaded.to_string();
  }
  const opbase::Host& host() const { return *g_host; }
  opbase::testing::FakeHost fake_;
};

TEST_F(HostServicesTest, ListProjectsReadsTheIdsAndSkipsAnythingElse) {
  fake_.provide_service("projects.list", [](std::string_view, const json& input) {
    EXPECT_EQ(input, json::object());
    return opbase::Result<json>(json{{"projects", {"default", 7, "shop"}}});
  });
  load();
  auto ids = opbase::list_projects(host());
  ASSERT_TRUE(ids.is_ok()) << ids.status().to_string();
  EXPECT_EQ(*ids, (std::vector<std::string>{"default", "shop"}));
}

TEST_F(HostServicesTest, AFailedServiceIsTheCallersFailure) {
  fake_.provide_service("projects.list", [](std::string_view, const json&) {
    return opbase::Result<json>(opbase::Status::internal("no stores"));
  });
  load();
  auto ids = opbase::list_projects(host());
  ASSERT_FALSE(ids.is_ok());
  EXPECT_EQ(ids.status().message(), "no stores");
  // A service the host lacks (an older daemon) is a failure too, never a crash.
  EXPECT_FALSE(opbase::server_url(host()).is_ok());
}

TEST_F(HostServicesTest, ServerUrlIsTheAnswersUrl) {
  fake_.provide_service("server.url", [](std::string_view, const json&) {
    return opbase::Result<json>(json{{"url", "http://127.0.0.1:8080"}});
  });
  load();
  auto url = opbase::server_url(host());
  ASSERT_TRUE(url.is_ok());
  EXPECT_EQ(*url, "http://127.0.0.1:8080");
}

TEST_F(HostServicesTest, SendMailSendsTheFieldsAndDiscardOnlyForADecoy) {
  std::vector<std::pair<std::string, json>> sent;
  fake_.provide_service("mail.send", [&sent](std::string_view project, const json& input) {
    sent.emplace_back(std::string(project), input);
    return opbase::Result<json>(json{{"queued", true}});
  });
  load();
  EXPECT_TRUE(opbase::send_mail(host(), "shop", {"ann@example.com", "Hi", "Hello"}).is_ok());
  opbase::Mail decoy{"bob@example.com", "Hi", "Hello"};
  decoy.discard = true;
  EXPECT_TRUE(opbase::send_mail(host(), "shop", decoy).is_ok());
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0].first, "shop");
  EXPECT_EQ(sent[0].second,
            (json{{"to", "ann@example.com"}, {"subject", "Hi"}, {"text", "Hello"}}));
  EXPECT_EQ(sent[1].second["discard"], true);
}

TEST_F(HostServicesTest, ListAuditPassesThePagingAndReadsThePage) {
  fake_.provide_service("audit.list", [](std::string_view project, const json& input) {
    EXPECT_EQ(project, "shop");
    EXPECT_EQ(input, (json{{"limit", 20}, {"offset", 40}}));
    return opbase::Result<json>(json{{"entries", {{{"op", "auth.user.update"}}}}, {"total", 41}});
  });
  load();
  auto page = opbase::list_audit(host(), "shop", 20, 40);
  ASSERT_TRUE(page.is_ok()) << page.status().to_string();
  EXPECT_EQ(page->total, 41);
  ASSERT_EQ(page->entries.size(), 1u);
  EXPECT_EQ(page->entries[0]["op"], "auth.user.update");
}

}  // namespace

OPBASE_PLUGIN(HandlePlugin, "probe", "0.0.0-test")
