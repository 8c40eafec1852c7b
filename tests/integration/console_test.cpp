// console_test: the management console (docs/operations.md#the-management-console) served by the
// daemon: its files with a strict Content-Security-Policy, ETags and refusals; switched off by
// console.enabled; console.audit.list for administrators only; and the page itself in Debian's
// chromium (tests/browser/console_test.mjs, driven by playwright-core), which saves a
// screenshot of every step in <build>/console-screenshots.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "child_server.hpp"
#include "daemon_process.hpp"
#include "file_text.hpp"
#include "http_client.hpp"

namespace opbase::test {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

DaemonOptions console_options() {
  DaemonOptions options;
  options.plugins = {"auth", "collection", "webhooks", "file", "vdb", "realtime", "console"};
  options.with_admin = true;
  options.config = {{"webhooks.allow_private_targets", "true"},
                    {"webhooks.poll", "100ms"},
                    {"webhooks.retry_delays", "300ms,600ms"}};
  return options;
}

TEST(Console, TheFilesAreServedWithTheirSecurityHeaders) {
  auto daemon = DaemonProcess::start(console_options());
  const HttpResponse index = daemon->request("GET", "/console/");
  ASSERT_EQ(index.status, 200) << index.describe();
  EXPECT_NE(index.body.find("<script type=\"module\" src=\"js/main.js\">"), std::string::npos);
  EXPECT_EQ(index.header("Content-Type"), "text/html; charset=utf-8");
  const std::string csp = index.header("Content-Security-Policy");
  EXPECT_NE(csp.find("default-src 'none'"), std::string::npos) << csp;
  EXPECT_NE(csp.find("script-src 'self'"), std::string::npos) << csp;
  EXPECT_EQ(csp.find("unsafe"), std::string::npos) << csp;
  EXPECT_EQ(index.header("X-Frame-Options"), "DENY");
  EXPECT_EQ(index.header("X-Content-Type-Options"), "nosniff");

  const HttpResponse script = daemon->request("GET", "/console/js/main.js?v=1");
  EXPECT_EQ(script.status, 200);
  EXPECT_EQ(script.header("Content-Type"), "text/javascript; charset=utf-8");
  const std::string etag = script.header("ETag");
  ASSERT_FALSE(etag.empty());
  EXPECT_EQ(daemon->request("GET", "/console/js/main.js", "", {{"If-None-Match", etag}}).status,
            304);
  EXPECT_EQ(daemon->request("GET", "/console/nope.js").status, 404);
  EXPECT_EQ(daemon->request("GET", "/console/../conf/opbase.properties").status, 404);
  const HttpResponse posted = daemon->request("POST", "/console/", "x");
  EXPECT_EQ(posted.status, 405);
  EXPECT_EQ(posted.header("Allow"), "GET");
}

TEST(Console, ConsoleAuditListIsForAdministratorsOnly) {
  auto daemon = DaemonProcess::start(console_options());
  EXPECT_EQ(daemon->call({{"op", "console.audit.list"}}, daemon->user("ada").bearer()).status, 403);
  const Headers admin = daemon->admin().bearer();
  ASSERT_EQ(daemon
                ->call({{"op", "auth.user.update"},
                        {"_userkey", daemon->user("ada").key},
                        {"data", {{"disabled", true}}}},
                       admin)
                .status,
            200);
  const HttpResponse log = daemon->call({{"op", "console.audit.list"}, {"limit", 5}}, admin);
  ASSERT_EQ(log.status, 200) << log.describe();
  EXPECT_EQ(log.json()["meta"]["total"], 1);
  EXPECT_EQ(log.json()["data"][0]["op"], "auth.user.update");
  EXPECT_EQ(daemon->call({{"op", "console.audit.list"}, {"limit", 0}}, admin).status, 400);
}

TEST(Console, SwitchedOffThereIsNoPageAndNoOp) {
  DaemonOptions options = console_options();
  options.config["console.enabled"] = "false";
  auto daemon = DaemonProcess::start(options);
  EXPECT_EQ(daemon->request("GET", "/console/").status, 404);
  EXPECT_EQ(daemon->call({{"op", "console.audit.list"}}, daemon->admin().bearer()).status, 404);
}

TEST(Console, TheBannerOfGeneratedKeysGivesTheConsolesBookmark) {
  DaemonOptions options;
  options.plugins = {"auth", "console"};
  options.use_default_project = true;
  options.config = {{"projects.print_generated_keys", "true"}};
  auto daemon = DaemonProcess::start(options);
  const std::string expected = "console: " + daemon->base_url() +
                               "/console/#endpoint_key=" + daemon->endpoint_key() +
                               "&api_key=" + daemon->api_key() + "\n";
  EXPECT_NE(daemon->output().find(expected), std::string::npos) << daemon->output();
}

TEST(Console, AnAdministratorRunsTheProjectFromChromium) {
  auto daemon = DaemonProcess::start(console_options());
  ::setenv("OPBASE_URL", daemon->base_url().c_str(), 1);
  ::setenv("OPBASE_ENDPOINT_KEY", daemon->endpoint_key().c_str(), 1);
  ::setenv("OPBASE_API_KEY", daemon->api_key().c_str(), 1);
  ::setenv("OPBASE_ADMIN_EMAIL", kTestAdminEmail, 1);
  ::setenv("OPBASE_ADMIN_PASSWORD", kTestAdminPassword, 1);
  ::setenv("OPBASE_SCREENSHOTS",
           (std::string(OPBASE_TEST_BINARY_DIR) + "/console-screenshots").c_str(), 1);
  ::setenv("OPBASE_DAEMON_LOG", (daemon->dir() + "/stderr.txt").c_str(), 1);
  const std::string output = daemon->dir() + "/browser.out";
  const int rc =
      run_to_file({"node", std::string(OPBASE_TEST_SOURCE_DIR) + "/tests/browser/console_test.mjs"},
                  output, 180s);
  const std::string printed = file_text(output);
  EXPECT_EQ(rc, 0) << printed;
  EXPECT_NE(printed.find("console test passed"), std::string::npos) << printed;
  std::printf("%s", printed.c_str());
}

}  // namespace
}  // namespace opbase::test
