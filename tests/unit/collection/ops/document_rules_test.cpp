// The rules of user documents (docs/api.md#documents): keys, refs, times, the stored
// form of a new document and its refusals, and `_updated_at` in results.
#include "ops/document_rules.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace opbase::collection {
namespace {

using nlohmann::json;

constexpr int64_t kNow = 1700000000123;
constexpr const char* kNowText = "2023-11-14T22:13:20.123Z";
constexpr int64_t kBig = 1 << 20;

bool lower_hex(const std::string& text) {
  return text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// The document is refused with VALIDATION_ERROR and exactly these details.
void expect_refused(const json& data, int64_t index, const json& details,
                    int64_t max_bytes = kBig) {
  SCOPED_TRACE("data: " + data.dump());
  auto doc = new_document(data, "user1", kNow, max_bytes, index);
  ASSERT_FALSE(doc.is_ok());
  const Status status = doc.status();
  EXPECT_EQ(status.code(), "VALIDATION_ERROR");
  EXPECT_EQ(status.http_status(), 400);
  EXPECT_FALSE(status.message().empty());
  EXPECT_EQ(status.details(), details);
}

// ---- new_key / new_ref --------------------------------------------------------------------------

TEST(NewKey, IsUuid4As32LowercaseHexDigits) {
  for (int i = 0; i < 200; ++i) {
    const std::string key = new_key();
    ASSERT_EQ(key.size(), 32u) << key;
    EXPECT_TRUE(lower_hex(key)) << key;
    EXPECT_EQ(key[12], '4') << key;  // version nibble: first digit of byte 6
    EXPECT_TRUE(key[16] == '8' || key[16] == '9' || key[16] == 'a' || key[16] == 'b')
        << key;  // RFC 4122 variant 10xx: first digit of byte 8
  }
}

TEST(NewKey, ThousandKeysAreDistinct) {
  std::set<std::string> keys;
  for (int i = 0; i < 1000; ++i) keys.insert(new_key());
  EXPECT_EQ(keys.size(), 1000u);
}

TEST(NewKey, RandomBitsVary) {
  // Each of the 30 random hex digits takes more than one value over 200 keys: a digit stuck at
  // one value (a byte not filled, a mask too wide) would show here.
  std::set<char> seen[32];
  for (int i = 0; i < 200; ++i) {
    const std::string key = new_key();
    for (std::size_t d = 0; d < 32; ++d) seen[d].insert(key[d]);
  }
  for (std::size_t d = 0; d < 32; ++d) {
    if (d == 12) {
      EXPECT_EQ(seen[d], std::set<char>{'4'});
    } else if (d == 16) {
      EXPECT_EQ(seen[d].size(), 4u);  // 8, 9, a, b
    } else {
      EXPECT_GT(seen[d].size(), 1u) << "digit " << d;
    }
  }
}

TEST(NewRef, Is32LowercaseHexDigitsAndDistinct) {
  std::set<std::string> refs;
  for (int i = 0; i < 1000; ++i) {
    const std::string ref = new_ref();
    ASSERT_EQ(ref.size(), 32u) << ref;
    EXPECT_TRUE(lower_hex(ref)) << ref;
    refs.insert(ref);
  }
  EXPECT_EQ(refs.size(), 1000u);
}

TEST(NewRef, IsNotShapedLikeAUuid4) {
  // All 128 bits are random: over 200 refs, digit 12 is not always '4'.
  std::set<char> version_digit;
  for (int i = 0; i < 200; ++i) version_digit.insert(new_ref()[12]);
  EXPECT_GT(version_digit.size(), 1u);
}

// ---- iso_time ---------------------------------------------------------------------------------

TEST(IsoTime, Epoch) { EXPECT_EQ(iso_time(0), "1970-01-01T00:00:00.000Z"); }

TEST(IsoTime, KnownDatesWithMilliseconds) {
  EXPECT_EQ(iso_time(kNow), kNowText);
  EXPECT_EQ(iso_time(1700000000000), "2023-11-14T22:13:20.000Z");
  EXPECT_EQ(iso_time(1700000000999), "2023-11-14T22:13:20.999Z");
  EXPECT_EQ(iso_time(1700000001000), "2023-11-14T22:13:21.000Z");
  EXPECT_EQ(iso_time(1), "1970-01-01T00:00:00.001Z");
  EXPECT_EQ(iso_time(951782400000), "2000-02-29T00:00:00.000Z");     // leap day
  EXPECT_EQ(iso_time(946684799999), "1999-12-31T23:59:59.999Z");     // millennium eve
  EXPECT_EQ(iso_time(4102444800000), "2100-01-01T00:00:00.000Z");    // past 2038
  EXPECT_EQ(iso_time(253402300799999), "9999-12-31T23:59:59.999Z");  // the last 4-digit year
}

TEST(IsoTime, IsAlwaysTwentyFourCharactersForModernTimes) {
  for (int64_t ms = 1600000000000; ms < 1800000000000; ms += 9876543211) {
    const std::string text = iso_time(ms);
    EXPECT_EQ(text.size(), 24u) << text;
    EXPECT_EQ(text[10], 'T');
    EXPECT_EQ(text[19], '.');
    EXPECT_EQ(text.back(), 'Z');
  }
}

// ---- new_document -----------------------------------------------------------------------------

TEST(NewDocument, StampsTheSystemFields) {
  auto doc = new_document({{"name", "Lamp"}, {"price", 25}}, "user1", kNow, kBig, -1);
  ASSERT_TRUE(doc.is_ok()) << doc.status().to_string();
  EXPECT_EQ(doc->size(), 6u);
  EXPECT_EQ(doc->at("name"), "Lamp");
  EXPECT_EQ(doc->at("price"), 25);
  EXPECT_EQ(doc->at("_userkey"), "user1");
  EXPECT_EQ(doc->at("_created_at"), kNowText);
  EXPECT_EQ(doc->at("_modified_at"), kNowText);
  const std::string key = doc->at("_key").get<std::string>();
  EXPECT_EQ(key.size(), 32u);
  EXPECT_TRUE(lower_hex(key));
  EXPECT_EQ(key[12], '4');
}

TEST(NewDocument, EachDocumentGetsItsOwnKey) {
  auto a = new_document({{"x", 1}}, "u", kNow, kBig, 0);
  auto b = new_document({{"x", 1}}, "u", kNow, kBig, 1);
  ASSERT_TRUE(a.is_ok() && b.is_ok());
  EXPECT_NE(a->at("_key"), b->at("_key"));
}

TEST(NewDocument, EmptyObjectIsADocument) {
  auto doc = new_document(json::object(), "u", kNow, kBig, -1);
  ASSERT_TRUE(doc.is_ok()) << doc.status().to_string();
  EXPECT_EQ(doc->size(), 4u);
}

TEST(NewDocument, AnonymousOwnerIsNull) {
  auto doc = new_document({{"msg", "hi"}}, nullptr, kNow, kBig, -1);
  ASSERT_TRUE(doc.is_ok()) << doc.status().to_string();
  ASSERT_TRUE(doc->contains("_userkey"));
  EXPECT_TRUE(doc->at("_userkey").is_null());
}

TEST(NewDocument, UnderscoreFieldsAreDroppedNotRefused) {
  auto doc = new_document({{"_key", "mine"},
                           {"_userkey", "someone_else"},
                           {"_created_at", "1999-01-01T00:00:00.000Z"},
                           {"_modified_at", 5},
                           {"_secret", true},
                           {"_", 1},
                           {"kept", 1}},
                          "user1", kNow, kBig, -1);
  ASSERT_TRUE(doc.is_ok()) << doc.status().to_string();
  EXPECT_NE(doc->at("_key"), "mine");
  EXPECT_EQ(doc->at("_key").get<std::string>().size(), 32u);
  EXPECT_EQ(doc->at("_userkey"), "user1");
  EXPECT_EQ(doc->at("_created_at"), kNowText);
  EXPECT_EQ(doc->at("_modified_at"), kNowText);
  EXPECT_FALSE(doc->contains("_secret"));
  EXPECT_FALSE(doc->contains("_"));
  EXPECT_EQ(doc->at("kept"), 1);
  EXPECT_EQ(doc->size(), 5u);
}

TEST(NewDocument, NestedValuesAreKeptAsGiven) {
  const json data = {{"a", {{"b", {{"c", json::array({1, {{"d", nullptr}}, "x"})}}}}},
                     {"n", 9223372036854775807},
                     {"u", "日本"},
                     {"nested_underscore", {{"_inner", 1}}}};
  auto doc = new_document(data, "u", kNow, kBig, -1);
  ASSERT_TRUE(doc.is_ok()) << doc.status().to_string();
  for (const auto& [name, value] : data.items()) EXPECT_EQ(doc->at(name), value) << name;
  EXPECT_EQ(doc->at("n").get<int64_t>(), INT64_MAX);
}

TEST(NewDocument, DollarTopLevelNameIsRefusedWithIndex) {
  expect_refused({{"$where", 1}}, 3, {{"field", "$where"}, {"index", 3}});
  expect_refused({{"$where", 1}}, -1, {{"field", "$where"}});
}

TEST(NewDocument, EmptyTopLevelNameIsRefused) {
  expect_refused({{"", 1}}, 0, {{"field", ""}, {"index", 0}});
}

TEST(NewDocument, DollarOrEmptyNamesAreRefusedAtAnyDepth) {
  expect_refused({{"a", {{"$gt", 1}}}}, 2, {{"field", "a.$gt"}, {"index", 2}});
  expect_refused({{"a", {{"", 1}}}}, -1, {{"field", "a."}});
  // Deeper: refused all the same (the details name the top field and the bad name).
  auto deep = new_document({{"a", {{"b", {{"c", {{"$x", 1}}}}}}}}, "u", kNow, kBig, 1);
  ASSERT_FALSE(deep.is_ok());
  EXPECT_EQ(deep.status().code(), "VALIDATION_ERROR");
  EXPECT_EQ(deep.status().details().value("index", json()), 1);
  const std::string field = deep.status().details().value("field", "");
  EXPECT_TRUE(field.starts_with("a.")) << field;
  EXPECT_TRUE(field.ends_with("$x")) << field;
}

TEST(NewDocument, DollarNamesInsideArraysAreRefused) {
  expect_refused({{"list", json::array({1, {{"ok", 2}}, {{"$bad", 3}}})}}, 0,
                 {{"field", "list.$bad"}, {"index", 0}});
  expect_refused({{"m", json::array({json::array({{{"", 1}}})})}}, -1, {{"field", "m."}});
  auto deep = new_document({{"a", json::array({{{"b", json::array({{{"$c", 1}}})}}})}}, "u", kNow,
                           kBig, -1);
  ASSERT_FALSE(deep.is_ok());
  EXPECT_EQ(deep.status().code(), "VALIDATION_ERROR");
}

TEST(NewDocument, DollarInsideAStringValueIsData) {
  auto doc = new_document({{"price", "$5"}, {"list", json::array({"$x"})}}, "u", kNow, kBig, -1);
  ASSERT_TRUE(doc.is_ok()) << doc.status().to_string();
  EXPECT_EQ(doc->at("price"), "$5");
}

TEST(NewDocument, NamesNotAtTheStartMayHoldDollarAndDots) {
  auto doc = new_document({{"a$b", 1}, {"a.b", 2}, {"x", {{"y$", 3}}}}, "u", kNow, kBig, -1);
  ASSERT_TRUE(doc.is_ok()) << doc.status().to_string();
  EXPECT_EQ(doc->at("a$b"), 1);
  EXPECT_EQ(doc->at("a.b"), 2);  // stored as one name (docs/api.md#documents)
}

TEST(NewDocument, NonObjectIsRefused) {
  for (const json& bad :
       {json(nullptr), json(1), json("x"), json::array(), json::array({{{"a", 1}}})}) {
    expect_refused(bad, 4, {{"field", "data"}, {"index", 4}});
    expect_refused(bad, -1, {{"field", "data"}});
  }
}

TEST(NewDocument, SizeLimitCountsTheStoredJsonWithSystemFields) {
  const json data = {{"text", std::string(100, 'x')}};
  auto doc = new_document(data, "user1", kNow, kBig, -1);
  ASSERT_TRUE(doc.is_ok());
  const auto size = static_cast<int64_t>(doc->dump().size());
  // The system fields count: the user part alone is far smaller.
  EXPECT_GT(size, static_cast<int64_t>(data.dump().size()) + 100);

  EXPECT_TRUE(new_document(data, "user1", kNow, size, -1).is_ok());  // exactly at the limit
  expect_refused(data, 7, {{"limit", size - 1}, {"size", size}, {"index", 7}}, size - 1);
  expect_refused(data, -1, {{"limit", 10}, {"size", size}}, 10);
}

TEST(NewDocument, SizeIsOfTheDocumentAfterUnderscoreFieldsAreDropped) {
  const json small = {{"a", 1}};
  auto doc = new_document(small, "u", kNow, kBig, -1);
  ASSERT_TRUE(doc.is_ok());
  const auto size = static_cast<int64_t>(doc->dump().size());
  json padded = small;
  padded["_ignored"] = std::string(1000, 'z');
  EXPECT_TRUE(new_document(padded, "u", kNow, size, -1).is_ok());
}

TEST(NewDocument, SizeMessageNamesTheLimit) {
  auto doc = new_document({{"a", std::string(50, 'a')}}, "u", kNow, 64, -1);
  ASSERT_FALSE(doc.is_ok());
  EXPECT_NE(doc.status().message().find("64"), std::string::npos) << doc.status().message();
}

TEST(UserFieldName, Rules) {
  EXPECT_TRUE(user_field_name("name"));
  EXPECT_TRUE(user_field_name("a_b"));
  EXPECT_TRUE(user_field_name("a$"));
  EXPECT_TRUE(user_field_name("日本"));
  EXPECT_FALSE(user_field_name(""));
  EXPECT_FALSE(user_field_name("_key"));
  EXPECT_FALSE(user_field_name("_"));
  EXPECT_FALSE(user_field_name("$gt"));
}

TEST(BaseFields, AreTheFourOfSpec21) {
  EXPECT_EQ(base_fields(),
            (std::vector<std::string>{"_key", "_userkey", "_created_at", "_modified_at"}));
}

// ---- with_updated_at --------------------------------------------------------------------------

TEST(WithUpdatedAt, CopiesModifiedAt) {
  const json doc = {{"_key", "k"}, {"_modified_at", kNowText}, {"a", 1}};
  const json out = with_updated_at(doc);
  EXPECT_EQ(out.at("_updated_at"), kNowText);
  EXPECT_EQ(out.at("_modified_at"), kNowText);
  json expected = doc;
  expected["_updated_at"] = kNowText;
  EXPECT_EQ(out, expected);
}

TEST(WithUpdatedAt, ReplacesAStaleUpdatedAt) {
  const json out = with_updated_at({{"_modified_at", "B"}, {"_updated_at", "A"}});
  EXPECT_EQ(out.at("_updated_at"), "B");
}

TEST(WithUpdatedAt, WithoutModifiedAtNothingChanges) {
  const json doc = {{"_key", "k"}, {"a", 1}};
  EXPECT_EQ(with_updated_at(doc), doc);
}

TEST(WithUpdatedAt, NewDocumentAnswersBothTimes) {
  auto doc = new_document({{"a", 1}}, "u", kNow, kBig, -1);
  ASSERT_TRUE(doc.is_ok());
  const json out = with_updated_at(*doc);
  EXPECT_EQ(out.at("_updated_at"), out.at("_modified_at"));
  EXPECT_EQ(out.at("_updated_at"), kNowText);
}

}  // namespace
}  // namespace opbase::collection
