// browser_test: a page served from another origin calls the daemon from Debian's chromium
// (tests/browser/cors_test.mjs, driven by playwright-core): sign-up, sign-in, insert and find
// work with CORS on, and the same page fails with CORS off, so the test sees what a browser
// enforces.
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

// Runs the page against a daemon with server.cors_origins = `origins`; the script's exit code.
int run_page(const std::string& origins, std::string* output_text) {
  DaemonOptions options;
  options.plugins = {"auth", "collection"};
  options.config = {{"auth.rate.signup_per_address", "off"}, {"server.cors_origins", origins}};
  auto daemon = DaemonProcess::start(options);
  ::setenv("OPBASE_URL", daemon->base_url().c_str(), 1);
  ::setenv("OPBASE_ENDPOINT_KEY", daemon->endpoint_key().c_str(), 1);
  ::setenv("OPBASE_API_KEY", daemon->api_key().c_str(), 1);
  const std::string output = daemon->dir() + "/browser.out";
  const int rc = run_to_file(
      {"node", std::string(OPBASE_TEST_SOURCE_DIR) + "/tests/browser/cors_test.mjs"}, output, 180s);
  *output_text = file_text(output);
  return rc;
}

TEST(Browser, APageOnAnotherOriginSignsInAndStoresDocuments) {
  std::string output;
  EXPECT_EQ(run_page("*", &output), 0) << output;
}

TEST(Browser, WithCorsOffTheBrowserKeepsTheAnswersFromThePage) {
  std::string output;
  EXPECT_EQ(run_page("off", &output), 1) << output;
  EXPECT_NE(output.find("FAILED sign up: NETWORK_ERROR"), std::string::npos) << output;
}

}  // namespace
}  // namespace opbase::test
