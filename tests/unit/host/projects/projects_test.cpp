// Projects: loading from configuration, lookups by endpoint key and API key, and the generated
// keys of the `default` project.
#include "projects/projects.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "config/properties_file.hpp"

namespace opbase::host {
namespace {

const std::string kShopApiKey = "shop-api-key-0123456789";
const std::string kBlogApiKey = "blog-api-key-9876543210";

class TempDir {
 public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "opbase-projects-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// A config with projects.generate_default off plus `settings`.
Config config_with(std::map<std::string, std::string> settings) {
  settings.emplace("projects.generate_default", "false");
  return Config::defaults_with(settings);
}

Result<std::unique_ptr<Projects>> load(std::map<std::string, std::string> settings) {
  Config config = config_with(std::move(settings));
  return Projects::load(config);
}

std::string load_error(std::map<std::string, std::string> settings) {
  auto projects = load(std::move(settings));
  if (projects) return "(loaded)";
  EXPECT_EQ(projects.status().code(), code::kValidationError);
  return projects.status().message();
}

// ---- loading ----------------------------------------------------------------------------------

TEST(ProjectsLoad, NoProjectsConfigured) {
  auto projects = load({});
  ASSERT_TRUE(projects) << projects.status().to_string();
  EXPECT_TRUE((*projects)->all().empty());
}

TEST(ProjectsLoad, LoadsEveryProject) {
  auto projects = load({{"projects.shop.endpoint_key", "shop_EP-1"},
                        {"projects.shop.api_key", kShopApiKey},
                        {"projects.blog.endpoint_key", "blog"},
                        {"projects.blog.api_key", kBlogApiKey}});
  ASSERT_TRUE(projects) << projects.status().to_string();
  ASSERT_EQ((*projects)->all().size(), 2u);
  const Project* shop = (*projects)->by_endpoint_key("shop_EP-1");
  ASSERT_NE(shop, nullptr);
  EXPECT_EQ(shop->id, "shop");
  EXPECT_EQ(shop->endpoint_key, "shop_EP-1");
  // Only a digest of the API key is kept.
  EXPECT_EQ(shop->api_key_digest.size(), 32u);
  EXPECT_EQ(shop->api_key_digest.find(kShopApiKey), std::string::npos);
  const Project* blog = (*projects)->by_endpoint_key("blog");
  ASSERT_NE(blog, nullptr);
  EXPECT_EQ(blog->id, "blog");
}

TEST(ProjectsLoad, BothKeysAreRequired) {
  EXPECT_EQ(load_error({{"projects.shop.endpoint_key", "shop"}}),
            "project 'shop' needs both projects.shop.endpoint_key and projects.shop.api_key");
  EXPECT_EQ(load_error({{"projects.shop.api_key", kShopApiKey}}),
            "project 'shop' needs both projects.shop.endpoint_key and projects.shop.api_key");
}

TEST(ProjectsLoad, OtherSettingsUnderAProjectAreNotAProject) {
  // A key below projects.<id>. that is neither key does not make a project by itself.
  auto projects = load({{"projects.shop.some_setting", "x"}});
  ASSERT_TRUE(projects) << projects.status().to_string();
  EXPECT_TRUE((*projects)->all().empty());
}

TEST(ProjectsLoad, ProjectIdRules) {
  for (const std::string& good :
       std::vector<std::string>{"a", "shop-2", "my_shop", "0", std::string(64, 'x')}) {
    auto projects = load({{"projects." + good + ".endpoint_key", "ep"},
                          {"projects." + good + ".api_key", kShopApiKey}});
    EXPECT_TRUE(projects) << good << ": " << projects.status().to_string();
  }
  for (const std::string& bad :
       std::vector<std::string>{"Shop", "sh op", "shöp", "a+b", std::string(65, 'x')}) {
    const std::string error = load_error({{"projects." + bad + ".endpoint_key", "ep"},
                                          {"projects." + bad + ".api_key", kShopApiKey}});
    EXPECT_EQ(error,
              "project id '" + bad + "' must be 1-64 of lowercase letters, digits, '_' and '-'");
  }
}

TEST(ProjectsLoad, EndpointKeyRules) {
  for (const std::string& good : std::vector<std::string>{"A", "aZ09_-", std::string(128, 'k')}) {
    auto projects =
        load({{"projects.shop.endpoint_key", good}, {"projects.shop.api_key", kShopApiKey}});
    EXPECT_TRUE(projects) << good << ": " << projects.status().to_string();
  }
  for (const std::string& bad : std::vector<std::string>{"", "with space", "slash/es", "dot.ted",
                                                         "ü", std::string(129, 'k')}) {
    EXPECT_EQ(
        load_error({{"projects.shop.endpoint_key", bad}, {"projects.shop.api_key", kShopApiKey}}),
        "projects.shop.endpoint_key must be 1-128 of letters, digits, '_' and '-'")
        << "'" << bad << "'";
  }
}

TEST(ProjectsLoad, ApiKeyMinimumLength) {
  EXPECT_EQ(load_error({{"projects.shop.endpoint_key", "shop"},
                        {"projects.shop.api_key", std::string(15, 'k')}}),
            "projects.shop.api_key must be at least 16 characters");
  EXPECT_EQ(load_error({{"projects.shop.endpoint_key", "shop"}, {"projects.shop.api_key", ""}}),
            "projects.shop.api_key must be at least 16 characters");
  auto projects = load(
      {{"projects.shop.endpoint_key", "shop"}, {"projects.shop.api_key", std::string(16, 'k')}});
  EXPECT_TRUE(projects) << projects.status().to_string();
}

TEST(ProjectsLoad, DuplicateEndpointKeyIsRefused) {
  // Projects load in id order: "blog" first, so "shop" is the duplicate.
  EXPECT_EQ(load_error({{"projects.shop.endpoint_key", "same"},
                        {"projects.shop.api_key", kShopApiKey},
                        {"projects.blog.endpoint_key", "same"},
                        {"projects.blog.api_key", kBlogApiKey}}),
            "projects.shop.endpoint_key is already another project's");
}

TEST(ProjectsLoad, DuplicateApiKeyIsRefused) {
  EXPECT_EQ(load_error({{"projects.shop.endpoint_key", "shop"},
                        {"projects.shop.api_key", kShopApiKey},
                        {"projects.blog.endpoint_key", "blog"},
                        {"projects.blog.api_key", kShopApiKey}}),
            "projects.shop.api_key is already another project's");
}

// ---- lookups ----------------------------------------------------------------------------------

class ProjectsLookup : public ::testing::Test {
 protected:
  void SetUp() override {
    auto loaded = load({{"projects.shop.endpoint_key", "shop-ep"},
                        {"projects.shop.api_key", kShopApiKey},
                        {"projects.blog.endpoint_key", "blog-ep"},
                        {"projects.blog.api_key", kBlogApiKey}});
    ASSERT_TRUE(loaded) << loaded.status().to_string();
    projects_ = std::move(*loaded);
  }
  std::unique_ptr<Projects> projects_;
};

TEST_F(ProjectsLookup, ByEndpointKey) {
  ASSERT_NE(projects_->by_endpoint_key("shop-ep"), nullptr);
  EXPECT_EQ(projects_->by_endpoint_key("shop-ep")->id, "shop");
  EXPECT_EQ(projects_->by_endpoint_key("blog-ep")->id, "blog");
  EXPECT_EQ(projects_->by_endpoint_key("SHOP-EP"), nullptr);  // case matters
  EXPECT_EQ(projects_->by_endpoint_key("shop"), nullptr);     // the id is not the key
  EXPECT_EQ(projects_->by_endpoint_key(""), nullptr);
}

TEST_F(ProjectsLookup, ByApiKey) {
  ASSERT_NE(projects_->by_api_key(kShopApiKey), nullptr);
  EXPECT_EQ(projects_->by_api_key(kShopApiKey)->id, "shop");
  EXPECT_EQ(projects_->by_api_key(kBlogApiKey)->id, "blog");
  EXPECT_EQ(projects_->by_api_key(kShopApiKey + "x"), nullptr);
  EXPECT_EQ(projects_->by_api_key(kShopApiKey.substr(1)), nullptr);
  EXPECT_EQ(projects_->by_api_key(""), nullptr);
}

TEST_F(ProjectsLookup, ApiKeyMatches) {
  const Project& shop = *projects_->by_endpoint_key("shop-ep");
  EXPECT_TRUE(Projects::api_key_matches(shop, kShopApiKey));
  EXPECT_FALSE(Projects::api_key_matches(shop, kBlogApiKey));  // another project's key
  EXPECT_FALSE(Projects::api_key_matches(shop, ""));
  EXPECT_FALSE(Projects::api_key_matches(shop, kShopApiKey + " "));
  std::string flipped = kShopApiKey;
  flipped.back() ^= 1;
  EXPECT_FALSE(Projects::api_key_matches(shop, flipped));
}

// ---- the default project's generated keys ----------------------------------------------------

TEST(DefaultProjectKeys, CreatedOnFirstCallWithMode0600AndReadOnTheSecond) {
  TempDir dir;
  const std::string storage = dir.path() + "/nested/data";  // created when missing
  const std::string file = storage + "/default-project.properties";

  Config first = Config::defaults_with({{"storage.path", storage}});
  auto created = ensure_default_project_keys(first);
  ASSERT_TRUE(created) << created.status().to_string();
  EXPECT_TRUE(*created);
  ASSERT_TRUE(std::filesystem::exists(file));
  EXPECT_EQ(std::filesystem::status(file).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);

  const auto endpoint_key = first.get("projects.default.endpoint_key");
  const auto api_key = first.get("projects.default.api_key");
  ASSERT_TRUE(endpoint_key && api_key);
  EXPECT_EQ(first.source_of("projects.default.api_key"), file);
  EXPECT_EQ(endpoint_key->rfind("ep_", 0), 0u) << *endpoint_key;
  EXPECT_EQ(api_key->rfind("ak_", 0), 0u) << *api_key;
  EXPECT_GE(api_key->size(), 16u);

  // The file holds exactly those keys.
  auto on_disk = read_properties_file(file);
  ASSERT_TRUE(on_disk);
  const Properties expected = {{"projects.default.endpoint_key", *endpoint_key},
                               {"projects.default.api_key", *api_key}};
  EXPECT_EQ(*on_disk, expected);

  // The generated keys load as the project "default".
  auto projects = Projects::load(first);
  ASSERT_TRUE(projects) << projects.status().to_string();
  const Project* project = (*projects)->by_endpoint_key(*endpoint_key);
  ASSERT_NE(project, nullptr);
  EXPECT_EQ(project->id, "default");
  EXPECT_EQ((*projects)->by_api_key(*api_key), project);

  // A second start reads the same keys.
  Config second = Config::defaults_with({{"storage.path", storage}});
  auto read = ensure_default_project_keys(second);
  ASSERT_TRUE(read) << read.status().to_string();
  EXPECT_TRUE(*read);
  EXPECT_EQ(second.get("projects.default.endpoint_key"), endpoint_key);
  EXPECT_EQ(second.get("projects.default.api_key"), api_key);
  EXPECT_EQ(second.source_of("projects.default.endpoint_key"), file);
}

TEST(DefaultProjectKeys, EachStorageGetsItsOwnKeys) {
  TempDir dir;
  Config a = Config::defaults_with({{"storage.path", dir.path() + "/a"}});
  Config b = Config::defaults_with({{"storage.path", dir.path() + "/b"}});
  ASSERT_TRUE(ensure_default_project_keys(a));
  ASSERT_TRUE(ensure_default_project_keys(b));
  EXPECT_NE(a.get("projects.default.api_key"), b.get("projects.default.api_key"));
  EXPECT_NE(a.get("projects.default.endpoint_key"), b.get("projects.default.endpoint_key"));
}

TEST(DefaultProjectKeys, NothingWhenGenerationIsOff) {
  TempDir dir;
  Config config =
      Config::defaults_with({{"storage.path", dir.path()}, {"projects.generate_default", "false"}});
  auto result = ensure_default_project_keys(config);
  ASSERT_TRUE(result) << result.status().to_string();
  EXPECT_FALSE(*result);
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/default-project.properties"));
  EXPECT_FALSE(config.get("projects.default.api_key"));
  EXPECT_FALSE(config.get("projects.default.endpoint_key"));
}

TEST(DefaultProjectKeys, NothingWhenKeysAreConfigured) {
  TempDir dir;
  Config config = Config::defaults_with({{"storage.path", dir.path()},
                                         {"projects.default.endpoint_key", "mine"},
                                         {"projects.default.api_key", kShopApiKey}});
  auto result = ensure_default_project_keys(config);
  ASSERT_TRUE(result) << result.status().to_string();
  EXPECT_FALSE(*result);
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/default-project.properties"));
  EXPECT_EQ(config.get("projects.default.endpoint_key"), "mine");
  EXPECT_EQ(config.get("projects.default.api_key"), kShopApiKey);
}

TEST(DefaultProjectKeys, HalfConfiguredDefaultIsAnErrorNotReplaced) {
  // One key configured means the operator meant to configure the project: nothing is generated
  // over it, and the missing key is named.
  for (const std::string& configured :
       {std::string("projects.default.endpoint_key"), std::string("projects.default.api_key")}) {
    TempDir dir;
    Config config = Config::defaults_with(
        {{"storage.path", dir.path()}, {configured, "my-configured-value-1"}});
    auto result = ensure_default_project_keys(config);
    ASSERT_FALSE(result) << configured;
    EXPECT_EQ(result.status().code(), code::kValidationError);
    EXPECT_EQ(result.status().message(),
              "project 'default' needs both projects.default.endpoint_key and "
              "projects.default.api_key");
    EXPECT_EQ(config.get(configured), "my-configured-value-1");
    EXPECT_EQ(config.source_of(configured), "command line");
    EXPECT_FALSE(std::filesystem::exists(dir.path() + "/default-project.properties"));
  }
}

TEST(DefaultProjectKeys, BadGenerateSettingIsAnError) {
  TempDir dir;
  Config config =
      Config::defaults_with({{"storage.path", dir.path()}, {"projects.generate_default", "maybe"}});
  auto result = ensure_default_project_keys(config);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.status().code(), code::kValidationError);
  EXPECT_NE(result.status().message().find("projects.generate_default"), std::string::npos);
}

}  // namespace
}  // namespace opbase::host
