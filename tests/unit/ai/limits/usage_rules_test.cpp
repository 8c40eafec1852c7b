// The AI usage rules read from configuration: the documented defaults, daemon-wide keys, a
// project's own keys over them (the rest inherited), "off" and 0 switching a limit off, and a
// bad value refused with a message naming its key.
#include "limits/usage_rules.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace opbase::ai {
namespace {

using Config = std::map<std::string, std::string, std::less<>>;

Result<UsageRulesByProject> build(const Config& config) {
  return UsageRulesByProject::build({"p1", "p2"}, [&](std::string_view key) {
    const auto found = config.find(key);
    return found == config.end() ? std::nullopt : std::optional<std::string>(found->second);
  });
}

TEST(AiUsageRulesTest, TheDefaultsAreTheDocumentedOnes) {
  auto rules = build({});
  ASSERT_TRUE(rules.is_ok());
  const UsageRules& p1 = rules->of("p1");
  EXPECT_EQ(p1.rate.limit, 60);
  EXPECT_EQ(p1.rate.window_s, 60);
  EXPECT_EQ(p1.daily.calls, 1000);
  EXPECT_EQ(p1.daily.code_points, 5'000'000);
}

TEST(AiUsageRulesTest, AProjectsOwnKeysWinAndTheRestIsInherited) {
  auto rules = build({{"ai.rate_limit", "10/1"},
                      {"ai.quota.calls_per_day", "50"},
                      {"projects.p2.ai.quota.calls_per_day", "7"},
                      {"projects.p2.ai.rate_limit", "off"}});
  ASSERT_TRUE(rules.is_ok());
  EXPECT_EQ(rules->of("p1").rate.limit, 10);
  EXPECT_EQ(rules->of("p1").daily.calls, 50);
  EXPECT_EQ(rules->of("p2").rate.limit, 0);
  EXPECT_EQ(rules->of("p2").daily.calls, 7);
  EXPECT_EQ(rules->of("p2").daily.code_points, 5'000'000);
  EXPECT_EQ(rules->of("unknown").daily.calls, 50);  // a project unknown at start: daemon-wide
}

TEST(AiUsageRulesTest, ZeroSwitchesAQuotaOff) {
  auto rules = build({{"ai.quota.calls_per_day", "0"}, {"ai.quota.code_points_per_day", "0"}});
  ASSERT_TRUE(rules.is_ok());
  EXPECT_EQ(rules->of("p1").daily.calls, 0);
  EXPECT_EQ(rules->of("p1").daily.code_points, 0);
}

TEST(AiUsageRulesTest, ABadValueIsRefusedNamingItsKey) {
  const std::pair<const char*, const char*> bad[] = {
      {"ai.rate_limit", "60"},
      {"ai.rate_limit", "many/60"},
      {"ai.quota.calls_per_day", "-1"},
      {"ai.quota.calls_per_day", "ten"},
      {"projects.p1.ai.quota.code_points_per_day", "5e6"},
  };
  for (const auto& [key, value] : bad) {
    auto rules = build({{key, value}});
    ASSERT_FALSE(rules.is_ok()) << key << " = " << value;
    EXPECT_EQ(rules.status().code(), code::kValidationError);
    EXPECT_NE(rules.status().message().find(key), std::string::npos) << rules.status().message();
  }
}

}  // namespace
}  // namespace opbase::ai
