// Collection rules as values (rules/collection_rules.hpp): the defaults, parsing each action's
// entries, and the VALIDATION_ERROR of every refused form.
#include "rules/collection_rules.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

namespace opbase::collection {
namespace {

using nlohmann::json;

TEST(CollectionRules, TheDefaultsAreTheOwnersAndAnonymousInsertAddsAnyoneToCreate) {
  EXPECT_EQ(Rules::defaults(false).to_json(), (json{{"read", {"owner"}},
                                                    {"create", {"users"}},
                                                    {"update", {"owner"}},
                                                    {"delete", {"owner"}}}));
  EXPECT_EQ(Rules::defaults(true).create.to_json(), (json{"users", "anyone"}));
}

TEST(CollectionRules, EntriesParseOnceEachInTheirOwnOrder) {
  auto rule = parse_rule(
      json{"role:staff", "shared", "owner", "role:staff", "users", "anyone", "role:a-b_9"},
      Action::kRead);
  ASSERT_TRUE(rule) << rule.status().to_string();
  EXPECT_TRUE(rule->owner && rule->users && rule->anyone && rule->shared);
  EXPECT_EQ(rule->roles, (std::vector<std::string>{"staff", "a-b_9"}));
  EXPECT_EQ(rule->to_json(),
            (json{"owner", "users", "anyone", "shared", "role:staff", "role:a-b_9"}));
  auto none = parse_rule(json::array(), Action::kDelete);
  ASSERT_TRUE(none);
  EXPECT_EQ(none->to_json(), json::array());
}

TEST(CollectionRules, EveryBadFormIsRefusedNamingTheAction) {
  const std::string long_role(33, 'a');
  for (const auto& [entries, action, index] :
       std::vector<std::tuple<json, Action, int>>{{json("owner"), Action::kRead, -1},
                                                  {json::object(), Action::kUpdate, -1},
                                                  {json{"owner", 1}, Action::kRead, 1},
                                                  {json{"everyone"}, Action::kRead, 0},
                                                  {json{"Owner"}, Action::kRead, 0},
                                                  {json{"role:"}, Action::kRead, 0},
                                                  {json{"role:Staff"}, Action::kRead, 0},
                                                  {json{"role:" + long_role}, Action::kRead, 0},
                                                  {json{"users", "owner"}, Action::kCreate, 1},
                                                  {json{"shared"}, Action::kCreate, 0}}) {
    SCOPED_TRACE(entries.dump());
    auto rule = parse_rule(entries, action);
    ASSERT_FALSE(rule);
    EXPECT_EQ(rule.status().code(), "VALIDATION_ERROR");
    EXPECT_EQ(rule.status().details()["field"], "rules." + std::string(action_name(action)));
    if (index >= 0) EXPECT_EQ(rule.status().details()["index"], index);
  }
  json many = json::array();
  for (std::size_t i = 0; i <= kMaxRuleEntries; ++i) many.push_back("role:r" + std::to_string(i));
  auto rule = parse_rule(many, Action::kRead);
  ASSERT_FALSE(rule);
  EXPECT_EQ(rule.status().details()["max"], kMaxRuleEntries);
}

TEST(CollectionRules, RoleNamesFollowTheAuthPluginsRules) {
  EXPECT_TRUE(valid_role_name("staff"));
  EXPECT_TRUE(valid_role_name("a_b-9"));
  EXPECT_TRUE(valid_role_name(std::string(32, 'x')));
  EXPECT_FALSE(valid_role_name(""));
  EXPECT_FALSE(valid_role_name(std::string(33, 'x')));
  EXPECT_FALSE(valid_role_name("Staff"));
  EXPECT_FALSE(valid_role_name("a:b"));
}

}  // namespace
}  // namespace opbase::collection
