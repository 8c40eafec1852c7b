// shipped_configs_test: every configuration this repository ships — conf/opbase.properties,
// which `make run` starts, and the one the package installs — names only plugins the build's
// `plugins` target makes, and each of them loads from the folder `make run` loads from: /readyz
// says "loaded" for every name, no start-up line says "refused", and the start banner lists
// them. Only the storage folder, the address and the project are the test's own.
// Thread-safety: each test runs on the one gtest thread.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "daemon_process.hpp"
#include "file_text.hpp"
#include "properties_text.hpp"

namespace opbase::test {
namespace {

struct ShippedConfig {
  const char* name;
  const char* file;
};

const ShippedConfig kShipped[] = {
    {"make_run", OPBASE_TEST_SOURCE_DIR "/conf/opbase.properties"},
    {"installed", OPBASE_INSTALLED_CONFIG},
};

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

class ShippedConfigs : public testing::TestWithParam<ShippedConfig> {};

TEST_P(ShippedConfigs, LoadEveryEnabledPluginFromTheBuiltTree) {
  const std::string properties = file_text(GetParam().file);
  ASSERT_FALSE(properties.empty()) << "no " << GetParam().file;
  const std::vector<std::string> names = enabled_plugins(properties);
  ASSERT_FALSE(names.empty()) << GetParam().file << " enables no plugin";

  DaemonOptions options;
  options.properties = properties;
  options.plugins_from_properties = true;
  options.config = {{"plugins.dir", OPBASE_BUILT_PLUGIN_DIR}};
  auto daemon = DaemonProcess::start(options);

  const HttpResponse ready = daemon->request("GET", "/readyz");
  EXPECT_EQ(ready.status, 200) << ready.describe();
  const auto plugins = ready.json()["checks"]["plugins"];
  EXPECT_EQ(plugins.size(), names.size()) << plugins.dump();
  for (const std::string& name : names) {
    EXPECT_EQ(plugins.value(name, ""), "loaded") << name << " in " << GetParam().file;
  }
  EXPECT_EQ(daemon->log().find("refused"), std::string::npos) << daemon->log();
  EXPECT_NE(daemon->output().find("plugins loaded: " + joined(names) + "\n"), std::string::npos)
      << daemon->output();
  EXPECT_EQ(daemon->output().find("plugins refused"), std::string::npos) << daemon->output();
  for (const std::string& name : names) {
    if (name == "console") EXPECT_EQ(daemon->request("GET", "/console/").status, 200);
  }
}

INSTANTIATE_TEST_SUITE_P(Each, ShippedConfigs, testing::ValuesIn(kShipped),
                         [](const auto& info) { return std::string(info.param.name); });

// The banner names a plugin that did not load, and /readyz says so: what a newcomer reads first
// when a configuration names a plugin the tree lacks.
TEST(ShippedConfigsBanner, NamesARefusedPlugin) {
  DaemonOptions options;
  options.plugins = {"echo", "not_built"};
  auto daemon = DaemonProcess::start(options);
  EXPECT_NE(daemon->output().find("plugins loaded: echo\n"), std::string::npos) << daemon->output();
  EXPECT_NE(daemon->output().find("plugins refused: not_built"), std::string::npos)
      << daemon->output();
  const HttpResponse ready = daemon->request("GET", "/readyz");
  EXPECT_EQ(ready.status, 503);
  EXPECT_EQ(ready.json()["checks"]["plugins"]["not_built"], "refused");
}

}  // namespace
}  // namespace opbase::test
