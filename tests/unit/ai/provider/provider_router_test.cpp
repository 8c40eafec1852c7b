// ProviderRouter: the provider of each op for each project, from the most specific key
// (projects.<id>.ai.provider.<op>, projects.<id>.ai.provider, ai.provider.<op>, ai.provider) to
// the built-in default "offline"; a project's own provider answers for it under its name; a
// name no provider answers to is refused naming the key.
#include "provider/provider_router.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace opbase::ai {
namespace {

class NamedProvider final : public Provider {
 public:
  explicit NamedProvider(std::string name) : name_(std::move(name)) {}
  std::string_view name() const override { return name_; }
  Result<TaskAnswer> run(const Task&) const override { return TaskAnswer{}; }
  Result<Embeddings> embed(const std::vector<std::string>&) const override { return Embeddings{}; }

 private:
  std::string name_;
};

using Providers = std::map<std::string, std::shared_ptr<const Provider>, std::less<>>;

Providers two_providers() {
  return {{"offline", std::make_shared<NamedProvider>("offline")},
          {"openai", std::make_shared<NamedProvider>("openai")}};
}

Result<ProviderRouter> route(const std::map<std::string, std::string>& keys,
                             const std::map<std::string, Providers, std::less<>>& own = {}) {
  return ProviderRouter::build(
      two_providers(), {"shop", "blog"},
      [&](std::string_view key) -> std::optional<std::string> {
        const auto found = keys.find(std::string(key));
        if (found == keys.end()) return std::nullopt;
        return found->second;
      },
      own);
}

TEST(ProviderRouter, EveryOpIsOfflineWithoutConfiguration) {
  auto router = route({});
  ASSERT_TRUE(router.is_ok()) << router.status().to_string();
  for (TaskKind kind : {TaskKind::kGenerate, TaskKind::kSummarize, TaskKind::kVectorize}) {
    EXPECT_EQ(router->choose("shop", kind).name(), "offline");
    EXPECT_EQ(router->choose("unknown-project", kind).name(), "offline");
  }
}

TEST(ProviderRouter, TheMostSpecificKeyWins) {
  auto router = route({{"ai.provider", "openai"},
                       {"ai.provider.vectorize", "offline"},
                       {"projects.shop.ai.provider", "offline"},
                       {"projects.shop.ai.provider.generate", "openai"}});
  ASSERT_TRUE(router.is_ok()) << router.status().to_string();
  EXPECT_EQ(router->choose("blog", TaskKind::kSummarize).name(), "openai");   // ai.provider
  EXPECT_EQ(router->choose("blog", TaskKind::kVectorize).name(), "offline");  // ai.provider.<op>
  EXPECT_EQ(router->choose("shop", TaskKind::kSummarize).name(), "offline");  // the project's
  EXPECT_EQ(router->choose("shop", TaskKind::kGenerate).name(), "openai");    // project and op
  EXPECT_EQ(router->choose("shop", TaskKind::kVectorize).name(), "offline");
}

TEST(ProviderRouter, AProjectsOpKeyFallsBackToTheGlobalOnesForOtherOps) {
  auto router = route(
      {{"ai.provider.translate", "openai"}, {"projects.blog.ai.provider.summarize", "openai"}});
  ASSERT_TRUE(router.is_ok());
  EXPECT_EQ(router->choose("blog", TaskKind::kTranslate).name(), "openai");
  EXPECT_EQ(router->choose("blog", TaskKind::kSummarize).name(), "openai");
  EXPECT_EQ(router->choose("shop", TaskKind::kSummarize).name(), "offline");
}

TEST(ProviderRouter, AProjectsOwnProviderAnswersForItUnderItsName) {
  const std::map<std::string, Providers, std::less<>> own = {
      {"shop", {{"openai", std::make_shared<NamedProvider>("shop's openai")}}}};
  auto router = route(
      {{"ai.provider.generate", "openai"}, {"projects.shop.ai.provider.summarize", "openai"}}, own);
  ASSERT_TRUE(router.is_ok()) << router.status().to_string();
  EXPECT_EQ(router->choose("shop", TaskKind::kGenerate).name(),
            "shop's openai");  // ai.provider.<op>
  EXPECT_EQ(router->choose("shop", TaskKind::kSummarize).name(), "shop's openai");
  EXPECT_EQ(router->choose("shop", TaskKind::kVectorize).name(), "offline");
  EXPECT_EQ(router->choose("blog", TaskKind::kGenerate).name(), "openai");
}

TEST(ProviderRouter, AnUnknownProviderNameIsRefusedNamingTheKey) {
  auto router = route({{"projects.shop.ai.provider.classify", "gpt"}});
  ASSERT_FALSE(router.is_ok());
  EXPECT_EQ(router.status().code(), "VALIDATION_ERROR");
  EXPECT_NE(router.status().message().find("projects.shop.ai.provider.classify"),
            std::string::npos);
  EXPECT_NE(router.status().message().find("offline, openai"), std::string::npos)
      << router.status().message();
}

}  // namespace
}  // namespace opbase::ai
