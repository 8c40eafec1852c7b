// audit_test: the audit log of administrators' changes (docs/api.md#the-audit-log) in the real
// daemon: an admin op that succeeds is written with who (an admin's _userkey, or the server
// admin key), what (the op and its parameters, secrets redacted) and when; reads (list, get, ...)
// and refused calls are not; the log is read newest first through the audit.list host service.
#include <gtest/gtest.h>

#include <string>

#include "daemon_process.hpp"
#include "http_client.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;

const std::string kAdminKey = "sak_audit_test_0123456789abcdef012345";  // server.admin_key

TEST(Audit, AdminChangesAreWrittenWithWhoWhatAndWhenAndSecretsRedacted) {
  DaemonOptions options;
  options.plugins = {"auth", test_plugin_path("probe")};
  options.with_admin = true;
  options.config = {{"server.admin_key", kAdminKey}};
  auto daemon = DaemonProcess::start(options);
  ASSERT_NE(daemon, nullptr);
  const DaemonProcess::User signed_in = daemon->admin();
  const Headers admin = signed_in.bearer();
  const std::string admin_key = signed_in.key;
  const std::string bob = daemon->user("bob").key;

  const HttpResponse by_key = daemon->call({{"op", "probe.admin"},
                                            {"password", "hunter2"},
                                            {"nested", {{"webhook_secret", "whsec_x"}}},
                                            {"x", 1}},
                                           {{"X-Admin-Key", kAdminKey}});
  ASSERT_EQ(by_key.status, 200) << by_key.describe();
  ASSERT_EQ(daemon
                ->call({{"op", "auth.user.update"},
                        {"_userkey", bob},
                        {"data", {{"roles", {"user", "editor"}}}}},
                       admin)
                .status,
            200);
  // Not written: a read, a refused change, and a non-admin's call.
  ASSERT_EQ(daemon->call({{"op", "auth.user.list"}}, admin).status, 200);
  ASSERT_EQ(
      daemon->call({{"op", "auth.user.update"}, {"_userkey", bob}, {"data", {{"x", 1}}}}, admin)
          .status,
      400);
  ASSERT_EQ(daemon->call({{"op", "probe.admin"}}, daemon->user("bob").bearer()).status, 403);

  const HttpResponse log =
      daemon->call({{"op", "probe.call"}, {"service", "audit.list"}, {"input", {{"limit", 10}}}});
  ASSERT_EQ(log.status, 200) << log.describe();
  const json page = log.json()["data"];
  EXPECT_EQ(page["total"], 2);
  ASSERT_EQ(page["entries"].size(), 2u) << page.dump();
  const json newest = page["entries"][0];
  EXPECT_EQ(newest["op"], "auth.user.update");
  EXPECT_EQ(newest["actor"], json({{"user", admin_key}}));
  EXPECT_EQ(newest["params"]["_userkey"], bob);
  EXPECT_EQ(newest["params"]["data"]["roles"], json({"user", "editor"}));
  EXPECT_TRUE(newest["at"].get<std::string>().ends_with("Z"));
  EXPECT_FALSE(newest["request_id"].get<std::string>().empty());
  const json oldest = page["entries"][1];
  EXPECT_EQ(oldest["op"], "probe.admin");
  EXPECT_EQ(oldest["actor"], json({{"admin_key", true}}));
  EXPECT_EQ(
      oldest["params"],
      json({{"password", "[redacted]"}, {"nested", {{"webhook_secret", "[redacted]"}}}, {"x", 1}}));
  EXPECT_EQ(log.body.find("hunter2"), std::string::npos);
  EXPECT_EQ(log.body.find("whsec_x"), std::string::npos);
  for (const json& input :
       {json{{"limit", 0}}, json{{"limit", 501}}, json{{"offset", -1}}, json{{"limit", "10"}}}) {
    const HttpResponse bad =
        daemon->call({{"op", "probe.call"}, {"service", "audit.list"}, {"input", input}});
    EXPECT_EQ(bad.json()["error"]["code"], "VALIDATION_ERROR") << input.dump();
  }
}

}  // namespace
}  // namespace opbase::test
