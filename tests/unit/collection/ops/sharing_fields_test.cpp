// The sharing lists (ops/sharing_fields.hpp): what a list may hold, and the change that touches
// one.
#include "ops/sharing_fields.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace opbase::collection {
namespace {

using nlohmann::json;

TEST(SharingFields, AListIsUserKeysAndRolesKeptOnceEach) {
  auto list = sharing_list(json{"0f3a9c", "role:staff", "0f3a9c", "A-b_1"}, "_readers", 4);
  ASSERT_TRUE(list) << list.status().to_string();
  EXPECT_EQ(*list, (json{"0f3a9c", "role:staff", "A-b_1"}));
  auto empty = sharing_list(json::array(), "_writers", 4);
  ASSERT_TRUE(empty);
  EXPECT_EQ(*empty, json::array());
}

TEST(SharingFields, EveryBadListIsRefusedNamingItsField) {
  for (const json& bad :
       {json("abc"), json::object(), json{1}, json{""}, json{"a b"}, json{"role:"},
        json{"role:Staff"}, json{std::string(65, 'a')}, json{"a", "b", "c"}}) {
    SCOPED_TRACE(bad.dump());
    auto list = sharing_list(bad, "_writers", 2);
    ASSERT_FALSE(list);
    EXPECT_EQ(list.status().code(), "VALIDATION_ERROR");
    EXPECT_EQ(list.status().details()["field"], "_writers");
  }
  EXPECT_EQ(sharing_list(json{"a", "b", "c"}, "_writers", 2).status().details()["max"], 2);
  EXPECT_EQ(sharing_list(json{"a", 3}, "_readers", 5).status().details()["index"], 1);
}

TEST(SharingFields, AChangeSharesWhenItSetsOrRemovesAList) {
  store::Change change;
  change.set = {{"name", "x"}};
  EXPECT_FALSE(changes_sharing(change));
  change.set["_readers"] = json::array();
  EXPECT_TRUE(changes_sharing(change));
  store::Change removal;
  removal.unset = {"_writers"};
  EXPECT_TRUE(changes_sharing(removal));
  EXPECT_TRUE(is_sharing_field("_readers"));
  EXPECT_FALSE(is_sharing_field("readers"));
}

}  // namespace
}  // namespace opbase::collection
