// The two example plugins, built out of tree against the installed SDK (the fixture
// examples_out_of_tree_build does that first), loaded by the daemon and responding over HTTP.
#include <gtest/gtest.h>

#include <filesystem>

#include "daemon_process.hpp"

namespace opbase::test {
namespace {

#ifndef OPBASE_EXAMPLES_OUT
#define OPBASE_EXAMPLES_OUT ""
#endif

std::unique_ptr<DaemonProcess> start_with_out_of_tree_examples() {
  DaemonOptions options;
  options.plugins = {"echo", "hello_c"};
  // Only the out-of-tree folder: the in-tree builds of the same plugins must not be picked up.
  options.config["plugins.dir"] = OPBASE_EXAMPLES_OUT;
  options.config["echo.greeting"] = "Howdy";
  return DaemonProcess::start(options);
}

// Whether `root` holds a file named `name` anywhere below it (the library folder depends on the
// install prefix: lib, lib64 or a multiarch lib/<triplet>).
bool holds_file(const std::filesystem::path& root, const std::string& name) {
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(root, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->path().filename() == name) return true;
  }
  return false;
}

TEST(ExamplesOutOfTree, BothPluginFilesWereBuiltAgainstTheInstalledSdk) {
  EXPECT_TRUE(std::filesystem::exists(std::string(OPBASE_EXAMPLES_OUT) + "/echo.so"));
  EXPECT_TRUE(std::filesystem::exists(std::string(OPBASE_EXAMPLES_OUT) + "/hello_c.so"));
  const std::string prefix = std::string(OPBASE_EXAMPLES_OUT) + "/prefix";
  EXPECT_TRUE(holds_file(prefix, "opbaseConfig.cmake")) << "no package config under " << prefix;
  EXPECT_TRUE(holds_file(prefix, "abi.h")) << "no SDK headers under " << prefix;
  EXPECT_TRUE(holds_file(prefix, "libopbase_sdk.a")) << "no SDK library under " << prefix;
}

TEST(ExamplesOutOfTree, TheDaemonLoadsThemFromTheirOwnFolder) {
  auto daemon = start_with_out_of_tree_examples();
  const std::string log = daemon->log();
  EXPECT_NE(log.find("plugin 'echo' 1.0.0 loaded from " OPBASE_EXAMPLES_OUT "/echo.so"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("plugin 'hello_c' 1.0.0 loaded from " OPBASE_EXAMPLES_OUT "/hello_c.so"),
            std::string::npos)
      << log;
}

TEST(ExamplesOutOfTree, TheCppPluginAnswersOverHttp) {
  auto daemon = start_with_out_of_tree_examples();
  auto ping = daemon->call({{"op", "echo.ping"}});
  ASSERT_EQ(ping.status, 200) << ping.body;
  EXPECT_EQ(ping.json()["data"]["pong"], true);

  auto echoed = daemon->call({{"op", "echo.echo"}, {"list", {1, 2, 3}}, {"text", "héllo"}});
  ASSERT_EQ(echoed.status, 200) << echoed.body;
  EXPECT_EQ(echoed.json()["data"], (nlohmann::json{{"list", {1, 2, 3}}, {"text", "héllo"}}));

  auto greeted = daemon->call({{"op", "echo.greet"}, {"name", "Ada"}});
  ASSERT_EQ(greeted.status, 200) << greeted.body;
  EXPECT_EQ(greeted.json()["data"], "Howdy, Ada!");  // config reached the plugin

  auto invalid = daemon->call({{"op", "echo.greet"}, {"name", 42}});
  EXPECT_EQ(invalid.status, 400);
  EXPECT_EQ(invalid.json()["error"]["code"], "VALIDATION_ERROR");
  EXPECT_EQ(invalid.json()["error"]["details"]["field"], "name");
}

TEST(ExamplesOutOfTree, ThePlainCPluginAnswersOverHttp) {
  auto daemon = start_with_out_of_tree_examples();
  auto hello = daemon->call({{"op", "hello_c.hello"}});
  ASSERT_EQ(hello.status, 200) << hello.body;
  EXPECT_EQ(hello.json()["data"]["hello"], "world");
  EXPECT_EQ(hello.json()["data"]["project"], "test");

  auto fail = daemon->call({{"op", "hello_c.fail"}});
  EXPECT_EQ(fail.status, 400);
  EXPECT_EQ(fail.json()["error"]["code"], "VALIDATION_ERROR");
  EXPECT_EQ(fail.json()["error"]["details"]["field"], "nothing");
  EXPECT_NE(daemon->log().find("[plugin hello_c] hello from C"), std::string::npos);
}

}  // namespace
}  // namespace opbase::test
