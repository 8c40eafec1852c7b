// js_client_test: the JavaScript client's own tests (sdk/js/test, run with `node --test`) against
// the real daemon, started here as every integration test starts it. The tests read where it is
// from OPBASE_URL, OPBASE_ENDPOINT_KEY, OPBASE_API_KEY and OPBASE_ADMIN_KEY.
// Thread-safety: the one gtest thread.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "child_server.hpp"
#include "daemon_process.hpp"
#include "file_text.hpp"

namespace opbase::test {
namespace {

using namespace std::chrono_literals;

constexpr const char* kAdminKey = "js-client-test-admin-key-0123456789abcdef";

TEST(JsClient, PassesItsTestsAgainstTheDaemon) {
  DaemonOptions options;
  options.plugins = {"auth", "collection", "webhooks", "realtime"};
  options.config = {{"auth.rate.signup_per_address", "off"},
                    {"webhooks.allow_private_targets", "true"},
                    {"server.admin_key", kAdminKey},
                    {"log.requests", "false"}};
  auto daemon = DaemonProcess::start(options);
  ::setenv("OPBASE_URL", daemon->base_url().c_str(), 1);
  ::setenv("OPBASE_ENDPOINT_KEY", daemon->endpoint_key().c_str(), 1);
  ::setenv("OPBASE_API_KEY", daemon->api_key().c_str(), 1);
  ::setenv("OPBASE_ADMIN_KEY", kAdminKey, 1);
  const std::string output = daemon->dir() + "/node-test.out";
  const int rc = run_to_file({"node", "--test", "--test-reporter=spec",
                              std::string(OPBASE_TEST_SOURCE_DIR) + "/sdk/js/test/"},
                             output, 300s);
  EXPECT_EQ(rc, 0) << file_text(output);
}

}  // namespace
}  // namespace opbase::test
