// Settings administrators change, on the reference store: unchanged settings follow the
// configuration; a change is stored and wins; null follows the configuration again; a name that
// is not a setting or a refused value stores nothing; another daemon of the same store sees a
// change once its copy is older than the reload interval; stored names a later version dropped
// are ignored.
#include "opbase/stored_settings.hpp"

#include <gtest/gtest.h>

#include "store_backed_host.hpp"

namespace opbase {
namespace {

using nlohmann::json;

constexpr std::string_view kProject = "p1";
constexpr int64_t kReloadMs = 60'000;

const json kConfigured = {{"max_size", 1000}, {"provider", "offline"}};

Status at_most_5000(const json& values) {
  if (values["max_size"].get<int64_t>() > 5000) {
    return Status::validation("data.max_size is too large", {{"field", "max_size"}});
  }
  return Status::ok();
}

class StoredSettingsTest : public ::testing::Test {
 protected:
  StoredSettingsTest()
      : store_(env_.host()), settings_(store_, "settings_test", kConfigured, kReloadMs) {}
  Result<std::shared_ptr<const StoredSettings::Snapshot>> change(const json& changes) {
    return settings_.change(kProject, changes, env_.now_ms(), at_most_5000);
  }
  json values(const StoredSettings& settings) {
    auto snapshot = settings.of(kProject, env_.now_ms());
    EXPECT_TRUE(snapshot.is_ok()) << snapshot.status().to_string();
    return snapshot ? (*snapshot)->values : json();
  }

  test::StoreBackedHost env_{"file"};
  DocumentStore store_;
  StoredSettings settings_;
};

TEST_F(StoredSettingsTest, UnchangedSettingsFollowTheConfigurationAndStoreNothing) {
  auto snapshot = settings_.of(kProject, env_.now_ms());
  ASSERT_TRUE(snapshot.is_ok());
  EXPECT_EQ((*snapshot)->values, kConfigured);
  EXPECT_TRUE((*snapshot)->changed.empty());
  EXPECT_TRUE(env_.documents(kProject, "settings").empty());
}

TEST_F(StoredSettingsTest, AChangeIsStoredAndWinsUntilSetBackToNull) {
  auto changed = change({{"max_size", 2000}});
  ASSERT_TRUE(changed.is_ok()) << changed.status().to_string();
  EXPECT_EQ((*changed)->values["max_size"], 2000);
  EXPECT_EQ((*changed)->values["provider"], "offline");
  EXPECT_EQ((*changed)->changed, std::vector<std::string>{"max_size"});
  EXPECT_EQ(values(settings_)["max_size"], 2000);
  const auto docs = env_.documents(kProject, "settings");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0]["_key"], "settings_test");
  EXPECT_EQ(docs[0]["max_size"], 2000);
  EXPECT_FALSE(docs[0].contains("provider"));

  auto back = change({{"max_size", nullptr}});
  ASSERT_TRUE(back.is_ok()) << back.status().to_string();
  EXPECT_EQ((*back)->values, kConfigured);
  EXPECT_TRUE((*back)->changed.empty());
  EXPECT_FALSE(env_.documents(kProject, "settings")[0].contains("max_size"));
}

TEST_F(StoredSettingsTest, ANameThatIsNotASettingOrARefusedValueStoresNothing) {
  for (const json& bad : {json{{"max_sizes", 1}}, json{{"_key", "x"}}, json::array()}) {
    auto refused = change(bad);
    ASSERT_FALSE(refused.is_ok()) << bad;
    EXPECT_EQ(refused.status().code(), code::kValidationError);
  }
  auto refused = change({{"max_size", 9000}, {"provider", "openai"}});
  ASSERT_FALSE(refused.is_ok());
  EXPECT_EQ(refused.status().details()["field"], "max_size");
  EXPECT_TRUE(env_.documents(kProject, "settings").empty());
  EXPECT_EQ(values(settings_), kConfigured);
}

TEST_F(StoredSettingsTest, AnotherDaemonSeesAChangeOnceItsCopyIsOlderThanTheReloadInterval) {
  StoredSettings other(store_, "settings_test", kConfigured, kReloadMs);
  EXPECT_EQ(values(other)["provider"], "offline");
  ASSERT_TRUE(change({{"provider", "openai"}}).is_ok());
  EXPECT_EQ(values(other)["provider"], "offline");  // its copy is still fresh
  env_.fake().advance_ms(kReloadMs);
  EXPECT_EQ(values(other)["provider"], "openai");
}

TEST_F(StoredSettingsTest, ProjectsAreApartAndDroppedNamesAreIgnored) {
  ASSERT_TRUE(change({{"max_size", 3000}}).is_ok());
  auto p2 = settings_.of("p2", env_.now_ms());
  ASSERT_TRUE(p2.is_ok());
  EXPECT_EQ((*p2)->values["max_size"], 1000);
  // A later version without "provider" reads a document that still holds it.
  ASSERT_TRUE(change({{"provider", "openai"}}).is_ok());
  StoredSettings later(store_, "settings_test", {{"max_size", 1000}}, kReloadMs);
  auto snapshot = later.of(kProject, env_.now_ms());
  ASSERT_TRUE(snapshot.is_ok());
  EXPECT_EQ((*snapshot)->values, json({{"max_size", 3000}}));
}

}  // namespace
}  // namespace opbase
