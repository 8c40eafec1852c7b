// browser_test: a page served from another origin calls the daemon from Debian's chromium
// (tests/browser/cors_test.mjs, driven by playwright-core): sign-up, sign-in, insert and find
// work with CORS on, and the same page fails with CORS off, so the test sees what a browser
// enforces. Then the chat example (docs/examples/chat.html, tests/browser/chat_test.mjs) with two
// people in two browser contexts: what one types appears on the other's page, live.
// Thread-safety: the one gtest thread.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "child_server.hpp"
#include "daemon_process.hpp"
#include "file_text.hpp"
#include "http_client.hpp"

namespace opbase::test {
namespace {

using namespace std::chrono_literals;

// Runs tests/browser/<script> against `daemon`; its exit code, its output in `output_text`.
int run_script(const DaemonProcess& daemon, const std::string& script, std::string* output_text) {
  ::setenv("OPBASE_URL", daemon.base_url().c_str(), 1);
  ::setenv("OPBASE_ENDPOINT_KEY", daemon.endpoint_key().c_str(), 1);
  ::setenv("OPBASE_API_KEY", daemon.api_key().c_str(), 1);
  const std::string output = daemon.dir() + "/" + script + ".out";
  const int rc = run_to_file(
      {"node", std::string(OPBASE_TEST_SOURCE_DIR) + "/tests/browser/" + script}, output, 180s);
  *output_text = file_text(output);
  return rc;
}

// Runs the page against a daemon with server.cors_origins = `origins`; the script's exit code.
int run_page(const std::string& origins, std::string* output_text) {
  DaemonOptions options;
  options.plugins = {"auth", "collection"};
  options.config = {{"auth.rate.signup_per_address", "off"}, {"server.cors_origins", origins}};
  auto daemon = DaemonProcess::start(options);
  return run_script(*daemon, "cors_test.mjs", output_text);
}

TEST(Browser, APageOnAnotherOriginSignsInAndStoresDocuments) {
  std::string output;
  EXPECT_EQ(run_page("*", &output), 0) << output;
}

TEST(Browser, TheChatExampleShowsEachMessageOnTheOtherPersonsPage) {
  constexpr const char* kAdminKey = "browser-test-admin-key-0123456789abcdef";
  DaemonOptions options;
  options.plugins = {"auth", "collection", "realtime"};
  options.config = {{"auth.rate.signup_per_address", "off"},
                    {"server.cors_origins", "*"},
                    {"server.admin_key", kAdminKey}};
  auto daemon = DaemonProcess::start(options);
  ASSERT_NE(daemon, nullptr);
  // As the example says: every signed-in user reads the room's messages.
  const HttpResponse rules = daemon->call({{"op", "collection.rules.update"},
                                           {"collection", "messages"},
                                           {"rules", {{"read", {"users"}}}}},
                                          {{"X-Admin-Key", kAdminKey}});
  ASSERT_EQ(rules.status, 200) << rules.describe();
  std::string output;
  EXPECT_EQ(run_script(*daemon, "chat_test.mjs", &output), 0) << output;
  std::printf("%s", output.c_str());
}

TEST(Browser, WithCorsOffTheBrowserKeepsTheAnswersFromThePage) {
  std::string output;
  EXPECT_EQ(run_page("off", &output), 1) << output;
  EXPECT_NE(output.find("FAILED sign up: NETWORK_ERROR"), std::string::npos) << output;
}

}  // namespace
}  // namespace opbase::test
