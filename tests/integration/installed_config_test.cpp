// installed_config_test: the configuration the Debian package installs as
// /etc/opbase/opbase.properties (packaging/opbase.production.properties, as this build installs
// it) makes a daemon that serves: it loads the shipped service areas, is ready, and a user can
// sign up, store a document and ask an AI op. Only the folders and the port are the test's own.
// Thread-safety: each test runs on the one gtest thread.
#include <gtest/gtest.h>

#include <string>

#include "daemon_process.hpp"
#include "file_text.hpp"
#include "properties_text.hpp"

namespace opbase::test {
namespace {

std::string installed_config() { return file_text(OPBASE_INSTALLED_CONFIG); }

TEST(InstalledConfig, LoadsEveryShippedAreaButWebhooksAndIsReady) {
  const std::string properties = installed_config();
  ASSERT_FALSE(properties.empty()) << "no " << OPBASE_INSTALLED_CONFIG;
  DaemonOptions options;
  options.properties = properties;
  options.plugins = enabled_plugins(properties);
  ASSERT_EQ(options.plugins, (std::vector<std::string>{"auth", "collection", "ai", "vdb", "file",
                                                       "captcha", "console"}));
  options.config = {{"auth.rate.signup_per_address", "off"}};
  auto daemon = DaemonProcess::start(options);

  const HttpResponse ready = daemon->request("GET", "/readyz");
  ASSERT_EQ(ready.status, 200) << ready.describe();
  EXPECT_EQ(ready.json()["checks"]["plugins"]["auth"], "loaded");
  EXPECT_EQ(ready.json()["checks"]["plugins"]["collection"], "loaded");
  EXPECT_EQ(ready.json()["checks"]["plugins"]["ai"], "loaded");
  EXPECT_EQ(ready.json()["checks"]["plugins"]["vdb"], "loaded");
  EXPECT_EQ(ready.json()["checks"]["plugins"]["file"], "loaded");
  EXPECT_EQ(ready.json()["checks"]["plugins"]["console"], "loaded");
  EXPECT_EQ(daemon->request("GET", "/console/").status, 200);

  const auto& user = daemon->user("installed");
  const HttpResponse stored = daemon->call(
      {{"op", "collection.insert"}, {"collection", "notes"}, {"data", {{"text", "hello"}}}},
      user.bearer());
  EXPECT_EQ(stored.status, 200) << stored.describe();
  const HttpResponse felt =
      daemon->call({{"op", "ai.sentiment"}, {"content", "What a lovely day"}}, user.bearer());
  EXPECT_EQ(felt.status, 200) << felt.describe();
  EXPECT_EQ(felt.json()["data"]["output"]["overall_sentiment"], "positive") << felt.describe();
  const HttpResponse kept = daemon->call(
      {{"op", "vdb.insert"}, {"collection", "notes"}, {"data", {{"content", "a lovely day"}}}},
      user.bearer());
  EXPECT_EQ(kept.status, 200) << kept.describe();
  const HttpResponse found = daemon->call(
      {{"op", "vdb.search"}, {"collection", "notes"}, {"query", "a nice day"}}, user.bearer());
  ASSERT_EQ(found.status, 200) << found.describe();
  EXPECT_EQ(found.json()["data"].size(), 1u) << found.describe();
  const HttpResponse presigned = daemon->call({{"op", "file.presign_upload"},
                                               {"name", "a.txt"},
                                               {"content_type", "text/plain"},
                                               {"size", 5}},
                                              user.bearer());
  EXPECT_EQ(presigned.status, 200) << presigned.describe();
}

}  // namespace
}  // namespace opbase::test
