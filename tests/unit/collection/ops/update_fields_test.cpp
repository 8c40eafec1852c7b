// change_from_fields: the update fields of collection.update / upsert (docs/api.md#update-fields)
// as a store change, and the VALIDATION_ERROR (with details.field) of every refused form.
#include "ops/update_fields.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "opbase/store.hpp"

namespace opbase::collection {
namespace {

using nlohmann::json;

constexpr int64_t kNow = 1700000000123;  // 2023-11-14T22:13:20.123Z
constexpr const char* kNowText = "2023-11-14T22:13:20.123Z";

store::Change change_of(const json& fields, int64_t now_ms = kNow) {
  auto change = change_from_fields(fields, now_ms);
  EXPECT_TRUE(change.is_ok()) << fields.dump() << " -> " << change.status().to_string();
  return change.is_ok() ? *change : store::Change{};
}

// The update is refused with VALIDATION_ERROR naming `field`.
void expect_refused(const json& fields, const std::string& field) {
  SCOPED_TRACE("fields: " + fields.dump());
  auto change = change_from_fields(fields, kNow);
  ASSERT_FALSE(change.is_ok());
  const Status status = change.status();
  EXPECT_EQ(status.code(), "VALIDATION_ERROR");
  EXPECT_EQ(status.http_status(), 400);
  EXPECT_FALSE(status.message().empty());
  ASSERT_TRUE(status.details().is_object()) << status.details().dump();
  EXPECT_EQ(status.details().value("field", json()), json(field)) << status.details().dump();
}

TEST(UpdateFields, PlainFieldIsSetAndModifiedAtStamped) {
  const store::Change change = change_of({{"name", "Lamp"}, {"price", 25}});
  EXPECT_EQ(change.set, json({{"name", "Lamp"}, {"price", 25}, {"_modified_at", kNowText}}));
  EXPECT_TRUE(change.inc.empty());
  EXPECT_TRUE(change.unset.empty());
}

TEST(UpdateFields, AnyJsonValueIsSetAsIs) {
  const json value = {{"nested", {{"list", {1, "two", nullptr, false, 2.5}}}}};
  const store::Change change =
      change_of({{"obj", value}, {"nothing", nullptr}, {"flag", true}, {"arr", json::array()}});
  EXPECT_EQ(change.set.at("obj"), value);
  EXPECT_TRUE(change.set.at("nothing").is_null());
  EXPECT_EQ(change.set.at("flag"), json(true));
  EXPECT_EQ(change.set.at("arr"), json::array());
}

TEST(UpdateFields, DotPathIsKeptAsOnePath) {
  const store::Change change = change_of({{"address.city", "Paris"}, {"a.b.c", 1}});
  EXPECT_EQ(change.set.at("address.city"), json("Paris"));
  EXPECT_EQ(change.set.at("a.b.c"), json(1));
  EXPECT_FALSE(change.set.contains("address"));
}

TEST(UpdateFields, DotPathSetAppliesToTheNestedField) {
  json doc = {{"_key", "k"}, {"address", {{"city", "Lyon"}, {"zip", "69000"}}}};
  ASSERT_TRUE(store::apply_change(doc, change_of({{"address.city", "Paris"}})).is_ok());
  EXPECT_EQ(doc.at("address"), json({{"city", "Paris"}, {"zip", "69000"}}));
  EXPECT_EQ(doc.at("_modified_at"), json(kNowText));
}

TEST(UpdateFields, NowIsIsoTimeWithMillisecondsFromTheGivenClock) {
  const store::Change change = change_of({{"@seen_at", "@now()"}});
  EXPECT_EQ(change.set.at("seen_at"), json(kNowText));
  EXPECT_EQ(change.set.at("_modified_at"), json(kNowText));
  EXPECT_EQ(change_of({{"@t", "@now()"}}, 0).set.at("t"), json("1970-01-01T00:00:00.000Z"));
  EXPECT_EQ(change_of({{"@t", "@now()"}}, 1000).set.at("t"), json("1970-01-01T00:00:01.000Z"));
  EXPECT_EQ(change_of({{"@t", "@now()"}}, 951782400007).set.at("t"),
            json("2000-02-29T00:00:00.007Z"));
}

TEST(UpdateFields, NowOnADotPath) {
  const store::Change change = change_of({{"@meta.touched", "@now()"}});
  EXPECT_EQ(change.set.at("meta.touched"), json(kNowText));
}

TEST(UpdateFields, IncInteger) {
  const store::Change change = change_of({{"@views", "@inc(1)"}});
  ASSERT_TRUE(change.inc.contains("views"));
  EXPECT_TRUE(change.inc.at("views").is_number_integer());
  EXPECT_EQ(change.inc.at("views"), json(1));
  EXPECT_FALSE(change.set.contains("views"));
  EXPECT_EQ(change.set, json({{"_modified_at", kNowText}}));
}

TEST(UpdateFields, IncDouble) {
  const store::Change change = change_of({{"@score", "@inc(2.5)"}});
  ASSERT_TRUE(change.inc.at("score").is_number_float());
  EXPECT_DOUBLE_EQ(change.inc.at("score").get<double>(), 2.5);
  EXPECT_DOUBLE_EQ(change_of({{"@x", "@inc(1e3)"}}).inc.at("x").get<double>(), 1000.0);
}

TEST(UpdateFields, IncNegative) {
  EXPECT_EQ(change_of({{"@stock", "@inc(-3)"}}).inc.at("stock"), json(-3));
  EXPECT_DOUBLE_EQ(change_of({{"@t", "@inc(-0.25)"}}).inc.at("t").get<double>(), -0.25);
  EXPECT_EQ(change_of({{"@m", "@inc(-9223372036854775808)"}}).inc.at("m").get<int64_t>(),
            INT64_MIN);
}

TEST(UpdateFields, IncOnADotPathAppliesAndMissingCountsAsZero) {
  json doc = {{"_key", "k"}, {"stats", {{"views", 41}}}};
  ASSERT_TRUE(store::apply_change(
                  doc, change_of({{"@stats.views", "@inc(1)"}, {"@stats.likes", "@inc(-2)"}}))
                  .is_ok());
  EXPECT_EQ(doc.at("stats"), json({{"views", 42}, {"likes", -2}}));
}

TEST(UpdateFields, IncWithoutExactlyOneNumberIsRefused) {
  for (const char* bad :
       {"@inc()", "@inc(x)", "@inc(1,2)", "@inc(\"1\")", "@inc(true)", "@inc(null)", "@inc([1])",
        "@inc(1 2)", "@inc(--1)", "@inc(0x10)", "@inc(NaN)", "@inc(1", "@inc1)", "@inc(1))"}) {
    expect_refused({{"@n", bad}}, "@n");
  }
}

TEST(UpdateFields, UnsetRemovesThePath) {
  const store::Change change = change_of({{"@old", "@unset()"}, {"@a.b", "@unset()"}});
  std::vector<std::string> unset = change.unset;
  std::sort(unset.begin(), unset.end());
  EXPECT_EQ(unset, (std::vector<std::string>{"a.b", "old"}));
  EXPECT_FALSE(change.set.contains("old"));
  EXPECT_TRUE(change.inc.empty());

  json doc = {{"_key", "k"}, {"old", 1}, {"a", {{"b", 2}, {"c", 3}}}};
  ASSERT_TRUE(store::apply_change(doc, change).is_ok());
  EXPECT_FALSE(doc.contains("old"));
  EXPECT_EQ(doc.at("a"), json({{"c", 3}}));
}

TEST(UpdateFields, UnknownAtFormsAreRefused) {
  for (const char* bad : {"@now", "@now( )", "@NOW()", "@unset", "@unset(1)", "@today()", "now()",
                          "", "@", "@inc", " @now()", "@now() "}) {
    expect_refused({{"@f", bad}}, "@f");
  }
}

TEST(UpdateFields, AtFieldWithANonStringValueIsRefused) {
  for (const json& bad :
       {json(1), json(nullptr), json(true), json::array({"@now()"}), json({{"x", "@now()"}})}) {
    expect_refused({{"@f", bad}}, "@f");
  }
}

TEST(UpdateFields, AtLooksOnlyAtTheKeyNotAtPlainValues) {
  // A plain field whose value looks like a function is stored as text.
  const store::Change change = change_of({{"note", "@now()"}});
  EXPECT_EQ(change.set.at("note"), json("@now()"));
  EXPECT_TRUE(change.inc.empty());
}

TEST(UpdateFields, UnderscoreNamesAreRefused) {
  expect_refused({{"_key", "x"}}, "_key");
  expect_refused({{"_modified_at", "2020-01-01T00:00:00.000Z"}}, "_modified_at");
  expect_refused({{"_userkey", "someone"}}, "_userkey");
  expect_refused({{"_anything", 1}}, "_anything");
  expect_refused({{"@_created_at", "@now()"}}, "@_created_at");
  expect_refused({{"@_n", "@inc(1)"}}, "@_n");
  expect_refused({{"a._b", 1}}, "a._b");
  expect_refused({{"@a._b", "@unset()"}}, "@a._b");
}

TEST(UpdateFields, DollarNamesAreRefusedAtAnyDepth) {
  expect_refused({{"$set", {{"a", 1}}}}, "$set");
  expect_refused({{"@$inc", "@inc(1)"}}, "@$inc");
  expect_refused({{"a.$b", 1}}, "a.$b");
  expect_refused({{"a", {{"$gt", 1}}}}, "a.$gt");
  expect_refused({{"a", json::array({{{"ok", 1}}, {{"$x", 1}}})}}, "a.$x");
}

TEST(UpdateFields, EmptyNamesAndSegmentsAreRefused) {
  expect_refused({{"", 1}}, "");
  expect_refused({{"@", "@now()"}}, "@");
  expect_refused({{"a..b", 1}}, "a..b");
  expect_refused({{".a", 1}}, ".a");
  expect_refused({{"a.", 1}}, "a.");
  expect_refused({{"a", {{"", 1}}}}, "a.");
}

TEST(UpdateFields, EmptyUpdateIsRefused) { expect_refused(json::object(), "data"); }

TEST(UpdateFields, NonObjectUpdateIsRefused) {
  for (const json& bad :
       {json(nullptr), json::array(), json::array({{{"a", 1}}}), json("a"), json(1)}) {
    expect_refused(bad, "data");
  }
}

TEST(UpdateFields, OverlappingPathsAreRefused) {
  // Whichever of the two comes second (nlohmann orders object keys) is the one named.
  expect_refused({{"a", 1}, {"a.b", 2}}, "a.b");
  expect_refused({{"a", 1}, {"@a", "@now()"}}, "a");  // "@a" < "a"
  expect_refused({{"@a", "@inc(1)"}, {"@a.b", "@unset()"}}, "@a.b");
  expect_refused({{"x.y", 1}, {"x.y.z", 2}}, "x.y.z");
  expect_refused({{"@x.y.z", "@now()"}, {"x.y", 1}}, "x.y");
}

TEST(UpdateFields, PathsSharingOnlyAPrefixDoNotOverlap) {
  const store::Change change =
      change_of({{"a", 1}, {"ab", 2}, {"a_b", 3}, {"x.y", 4}, {"x.yz", 5}, {"x.z", 6}});
  EXPECT_EQ(change.set, json({{"a", 1},
                              {"ab", 2},
                              {"a_b", 3},
                              {"x.y", 4},
                              {"x.yz", 5},
                              {"x.z", 6},
                              {"_modified_at", kNowText}}));
}

TEST(UpdateFields, MixedFunctionsGoToTheirParts) {
  const store::Change change = change_of(
      {{"name", "Lamp"}, {"@seen", "@now()"}, {"@count", "@inc(2)"}, {"@gone", "@unset()"}});
  EXPECT_EQ(change.set, json({{"name", "Lamp"}, {"seen", kNowText}, {"_modified_at", kNowText}}));
  EXPECT_EQ(change.inc, json({{"count", 2}}));
  EXPECT_EQ(change.unset, std::vector<std::string>{"gone"});
}

TEST(UpdateFields, ModifiedAtIsAlwaysSetEvenForOnlyUnsetOrInc) {
  EXPECT_EQ(change_of({{"@a", "@unset()"}}).set, json({{"_modified_at", kNowText}}));
  EXPECT_EQ(change_of({{"@a", "@inc(1)"}}).set, json({{"_modified_at", kNowText}}));
  EXPECT_EQ(change_of({{"a", 1}}, 0).set.at("_modified_at"), json("1970-01-01T00:00:00.000Z"));
}

TEST(UpdateFields, NestedUnderscoreNamesInsideAValueAreData) {
  // Only addressed names are checked for '_'; inside a value only empty and '$' names are refused.
  const store::Change change = change_of({{"a", {{"_b", 1}}}});
  EXPECT_EQ(change.set.at("a"), json({{"_b", 1}}));
}

TEST(UpdateFields, NonAsciiNamesAreFieldNames) {
  const store::Change change = change_of({{"prix_€", 3}, {"名前", "x"}});
  EXPECT_EQ(change.set.at("prix_€"), json(3));
  EXPECT_EQ(change.set.at("名前"), json("x"));
}

TEST(UpdateFields, ReservedFieldsOnlyWhenTheCallerAllowsThem) {
  expect_refused({{"_readers", {"a"}}}, "_readers");
  expect_refused({{"_userkey", "a"}}, "_userkey");
  const ReservedFields sharing{4, false};
  auto change = change_from_fields(
      {{"_readers", {"a", "a", "role:r"}}, {"@_writers", "@unset()"}, {"n", 1}}, kNow, sharing);
  ASSERT_TRUE(change) << change.status().to_string();
  EXPECT_EQ(change->set["_readers"], (json{"a", "role:r"}));
  EXPECT_EQ(change->unset, std::vector<std::string>{"_writers"});
  for (const auto& [fields, field] : std::vector<std::pair<json, std::string>>{
           {{{"_readers", "a"}}, "_readers"},
           {{{"_readers", {"a", "b", "c", "d", "e"}}}, "_readers"},
           {{{"@_readers", "@inc(1)"}}, "@_readers"},
           {{{"_readers.0", "a"}}, "_readers.0"},
           {{{"_userkey", "a"}}, "_userkey"},
           {{{"_readers", {"a"}}, {"@_readers", "@unset()"}}, "_readers"}}) {  // '@' first
    SCOPED_TRACE(fields.dump());
    auto refused = change_from_fields(fields, kNow, sharing);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.status().details()["field"], field);
  }
  auto owner = change_from_fields({{"_userkey", "b"}}, kNow, {0, true});
  ASSERT_TRUE(owner) << owner.status().to_string();
  EXPECT_EQ(owner->set["_userkey"], "b");
  auto unowned = change_from_fields({{"_userkey", nullptr}}, kNow, {0, true});
  ASSERT_TRUE(unowned);
  EXPECT_TRUE(unowned->set["_userkey"].is_null());
  EXPECT_FALSE(change_from_fields({{"_userkey", 5}}, kNow, {0, true}));
}

}  // namespace
}  // namespace opbase::collection
