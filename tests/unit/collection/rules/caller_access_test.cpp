// What a rule lets a caller reach (rules/caller_access.hpp): every document, their own, the
// shared ones through the right lists, or nothing.
#include "rules/caller_access.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace opbase::collection {
namespace {

using nlohmann::json;

Rule rule_of(const json& entries, Action action = Action::kRead) {
  auto rule = parse_rule(entries, action);
  EXPECT_TRUE(rule) << rule.status().to_string();
  return rule ? *rule : Rule{};
}

const Caller kAnonymous{};
const Caller kAda{"ada", {"user"}};
const Caller kStaff{"sam", {"user", "staff"}};

TEST(CallerAccess, WholeCollectionEntriesReachEveryDocument) {
  EXPECT_EQ(scope_for(rule_of({"anyone"}), Action::kRead, kAnonymous), store::Scope::everyone());
  EXPECT_EQ(scope_for(rule_of({"anyone"}), Action::kRead, kAda), store::Scope::everyone());
  EXPECT_EQ(scope_for(rule_of({"users"}), Action::kRead, kAda), store::Scope::everyone());
  EXPECT_EQ(scope_for(rule_of({"users"}), Action::kRead, kAnonymous), std::nullopt);
  EXPECT_EQ(scope_for(rule_of({"role:staff"}), Action::kUpdate, kStaff), store::Scope::everyone());
  EXPECT_EQ(scope_for(rule_of({"role:staff"}), Action::kUpdate, kAda), std::nullopt);
  EXPECT_EQ(scope_for(rule_of(json::array()), Action::kRead, kStaff), std::nullopt);
}

TEST(CallerAccess, OwnerAndSharedReachTheCallersAndTheListedDocuments) {
  EXPECT_EQ(scope_for(rule_of({"owner"}), Action::kRead, kAda), store::Scope::user("ada"));
  EXPECT_EQ(
      scope_for(rule_of({"owner", "shared"}), Action::kRead, kStaff),
      store::Scope::shared("sam", {"sam", "role:user", "role:staff"}, {"_readers", "_writers"}));
  EXPECT_EQ(scope_for(rule_of({"owner", "shared"}), Action::kUpdate, kAda),
            store::Scope::shared("ada", {"ada", "role:user"}, {"_writers"}));
  EXPECT_EQ(scope_for(rule_of({"shared"}), Action::kDelete, kAda),
            store::Scope::shared(std::nullopt, {"ada", "role:user"}, {"_writers"}));
  // A caller without a token owns nothing and is named in no list.
  EXPECT_EQ(scope_for(rule_of({"owner", "shared"}), Action::kRead, kAnonymous), std::nullopt);
}

TEST(CallerAccess, OnlyRolesAndSharingNeedTheTokensRoles) {
  EXPECT_FALSE(needs_roles(rule_of({"owner", "users", "anyone"})));
  EXPECT_TRUE(needs_roles(rule_of({"owner", "shared"})));
  EXPECT_TRUE(needs_roles(rule_of({"role:staff"})));
}

TEST(CallerAccess, CreateNeedsAWholeCollectionEntry) {
  EXPECT_TRUE(may_create(rule_of({"users"}, Action::kCreate), kAda));
  EXPECT_FALSE(may_create(rule_of({"users"}, Action::kCreate), kAnonymous));
  EXPECT_TRUE(may_create(rule_of({"anyone"}, Action::kCreate), kAnonymous));
  EXPECT_TRUE(may_create(rule_of({"role:staff"}, Action::kCreate), kStaff));
  EXPECT_FALSE(may_create(rule_of({"role:staff"}, Action::kCreate), kAda));
  EXPECT_FALSE(may_create(rule_of(json::array(), Action::kCreate), kStaff));
}

TEST(CallerAccess, TheScopesHoldWhatTheirEntriesSay) {
  const store::Scope shared = *scope_for(rule_of({"owner", "shared"}), Action::kRead, kStaff);
  EXPECT_TRUE(store::in_scope(shared, {{"_userkey", "sam"}}));
  EXPECT_TRUE(store::in_scope(shared, {{"_userkey", "x"}, {"_readers", {"sam"}}}));
  EXPECT_TRUE(store::in_scope(shared, {{"_userkey", "x"}, {"_writers", {"role:staff"}}}));
  EXPECT_TRUE(store::in_scope(shared, {{"_userkey", nullptr}, {"_readers", "sam"}}));
  EXPECT_FALSE(store::in_scope(shared, {{"_userkey", "x"}, {"_readers", {"role:admin", 7}}}));
  EXPECT_FALSE(store::in_scope(shared, {{"_userkey", "x"}, {"_readers", {{"sam"}}}}));
  EXPECT_FALSE(store::in_scope(shared, {{"_userkey", "x"}, {"readers", {"sam"}}}));
  const store::Scope writes = *scope_for(rule_of({"shared"}), Action::kUpdate, kStaff);
  EXPECT_FALSE(store::in_scope(writes, {{"_userkey", "sam"}}));
  EXPECT_FALSE(store::in_scope(writes, {{"_userkey", "x"}, {"_readers", {"sam"}}}));
  EXPECT_TRUE(store::in_scope(writes, {{"_userkey", "x"}, {"_writers", {"sam"}}}));
}

}  // namespace
}  // namespace opbase::collection
