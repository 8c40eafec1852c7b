// installed_prefix_test: an install to a prefix other than the configured one
// (install_to_prefix.sh: `cmake --install build --prefix DIR`) runs as it is. The installed
// daemon, started with the installed configuration and no plugins.dir, loads every plugin it
// names from DIR, the ai plugin reads its data from DIR/share/opbase/ai and the console serves
// its page from DIR/share/opbase/console. Only the storage folder, the address and the project
// are the test's own.
// Thread-safety: each test runs on the one gtest thread.
#include <gtest/gtest.h>

#include <string>

#include "daemon_process.hpp"
#include "file_text.hpp"
#include "properties_text.hpp"

namespace opbase::test {
namespace {

const std::string kPrefix = OPBASE_INSTALL_PREFIX;

TEST(InstalledPrefix, ServesEveryAreaFromWhereItWasInstalled) {
  const std::string properties = file_text(kPrefix + "/etc/opbase/opbase.properties");
  ASSERT_FALSE(properties.empty()) << "no configuration under " << kPrefix;
  DaemonOptions options;
  options.daemon = kPrefix + "/bin/opbase";
  options.properties = properties;
  options.plugins_from_properties = true;
  options.config = {{"auth.rate.signup_per_address", "off"}};
  auto daemon = DaemonProcess::start(options);

  const HttpResponse ready = daemon->request("GET", "/readyz");
  ASSERT_EQ(ready.status, 200) << ready.describe();
  for (const std::string& name : enabled_plugins(properties)) {
    EXPECT_EQ(ready.json()["checks"]["plugins"].value(name, ""), "loaded") << name;
    EXPECT_NE(daemon->log().find("plugin '" + name + "' "), std::string::npos);
  }
  EXPECT_EQ(daemon->log().find("refused"), std::string::npos) << daemon->log();
  // Every plugin came from the prefix: the log names each file it loaded.
  EXPECT_NE(daemon->log().find("loaded from " + kPrefix + "/lib"), std::string::npos)
      << daemon->log();

  const HttpResponse page = daemon->request("GET", "/console/");
  EXPECT_EQ(page.status, 200) << page.describe();
  EXPECT_NE(page.body.find("<html"), std::string::npos);
  EXPECT_EQ(daemon->request("GET", "/console/js/main.js").status, 200);

  const auto& user = daemon->user("prefix");
  const HttpResponse felt =
      daemon->call({{"op", "ai.sentiment"}, {"content", "What a lovely day"}}, user.bearer());
  ASSERT_EQ(felt.status, 200) << felt.describe();
  EXPECT_EQ(felt.json()["data"]["output"]["overall_sentiment"], "positive") << felt.describe();
  const HttpResponse summary = daemon->call(
      {{"op", "ai.summarize"},
       {"content",
        "The river rose overnight. Farmers moved their animals to higher fields before dawn. By "
        "noon the water had covered the lower road, and the school closed for the day."}},
      user.bearer());
  EXPECT_EQ(summary.status, 200) << summary.describe();
}

}  // namespace
}  // namespace opbase::test
