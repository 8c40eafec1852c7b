// The rules of every collection, kept in the reference store (rules/rule_book.hpp): the defaults
// until an administrator sets some; a change of some actions keeps the others; null goes back
// to the default; a bad change stores nothing; a second daemon of the store sees a change once
// its copy is older than the reload interval; the rules sit where no collection op reaches
// them; the cache of many collections stays bounded and right.
#include "rules/rule_book.hpp"

#include <gtest/gtest.h>

#include "opbase/collection_name.hpp"
#include "store_backed_host.hpp"

namespace opbase::collection {
namespace {

using nlohmann::json;

constexpr std::string_view kProject = "p1";

class RuleBookTest : public ::testing::Test {
 protected:
  RuleBookTest() : store_(env_.host()), book_(store_, {"guestbook"}) {}
  json rules_of(const RuleBook& book, std::string_view collection) {
    auto rules = book.of(kProject, collection, env_.now_ms());
    EXPECT_TRUE(rules) << rules.status().to_string();
    return rules ? rules->to_json() : json();
  }
  test::StoreBackedHost env_{"collection"};
  DocumentStore store_;
  RuleBook book_;
};

TEST_F(RuleBookTest, DefaultsUntilSetAndNullGoesBack) {
  EXPECT_EQ(rules_of(book_, "notes"), Rules::defaults(false).to_json());
  EXPECT_EQ(rules_of(book_, "guestbook")["create"], (json{"users", "anyone"}));
  auto changed = book_.change(kProject, "notes", {{"read", {"users", "users"}}}, env_.now_ms());
  ASSERT_TRUE(changed) << changed.status().to_string();
  EXPECT_EQ(changed->to_json()["read"], json{"users"});
  EXPECT_EQ(rules_of(book_, "notes")["read"], json{"users"});
  EXPECT_EQ(rules_of(book_, "notes")["update"], json{"owner"});
  ASSERT_TRUE(book_.change(kProject, "notes", {{"delete", json::array()}}, env_.now_ms()));
  EXPECT_EQ(rules_of(book_, "notes")["read"], json{"users"});  // kept
  EXPECT_EQ(rules_of(book_, "notes")["delete"], json::array());
  ASSERT_TRUE(book_.change(kProject, "notes", {{"read", nullptr}}, env_.now_ms()));
  EXPECT_EQ(rules_of(book_, "notes")["read"], json{"owner"});
  EXPECT_EQ(rules_of(book_, "other")["read"], json{"owner"});  // one collection's only
}

TEST_F(RuleBookTest, ABadChangeStoresNothing) {
  for (const json& changes :
       {json{{"read", {"users"}}, {"write", {"users"}}},
        json{{"read", {"users"}}, {"create", {"owner"}}}, json::object(), json::array()}) {
    auto refused = book_.change(kProject, "notes", changes, env_.now_ms());
    ASSERT_FALSE(refused) << changes.dump();
    EXPECT_EQ(refused.status().code(), "VALIDATION_ERROR");
  }
  EXPECT_EQ(rules_of(book_, "notes"), Rules::defaults(false).to_json());
}

TEST_F(RuleBookTest, AnotherDaemonSeesTheChangeAfterItsReloadAndNoUserCollectionHoldsIt) {
  RuleBook other(store_, {});
  EXPECT_EQ(rules_of(other, "notes")["read"], json{"owner"});
  ASSERT_TRUE(book_.change(kProject, "notes", {{"read", {"anyone"}}}, env_.now_ms()));
  EXPECT_EQ(rules_of(other, "notes")["read"], json{"owner"});  // its copy is fresh
  env_.fake().advance_ms(61'000);
  EXPECT_EQ(rules_of(other, "notes")["read"], json{"anyone"});
  auto names = store_.collections(kProject);
  ASSERT_TRUE(names);
  ASSERT_EQ(names->size(), 1u);
  EXPECT_EQ(names->front(), RuleBook::kRulesCollection);
  EXPECT_FALSE(check_collection_name(names->front()));
}

TEST_F(RuleBookTest, ManyCollectionsKeepTheirRulesPastTheCache) {
  ASSERT_TRUE(book_.change(kProject, "first", {{"read", {"users"}}}, env_.now_ms()));
  for (std::size_t i = 0; i < RuleBook::kCachedCollections + 10; ++i) {
    ASSERT_EQ(rules_of(book_, "c" + std::to_string(i))["read"], json{"owner"});
  }
  EXPECT_EQ(rules_of(book_, "first")["read"], json{"users"});  // read back from the store
}

}  // namespace
}  // namespace opbase::collection
