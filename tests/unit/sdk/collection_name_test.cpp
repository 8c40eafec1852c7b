// check_collection_name: the rules of docs/api.md#collections and the details of each refusal.
#include "opbase/collection_name.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

namespace opbase::collection {
namespace {

using nlohmann::json;

// The name is refused for `rule`, with the standard details.
void expect_broken(const std::string& name, const std::string& rule) {
  SCOPED_TRACE("name: '" + name + "'");
  const Status status = check_collection_name(name);
  ASSERT_FALSE(status.is_ok());
  EXPECT_EQ(status.code(), "VALIDATION_ERROR");
  EXPECT_EQ(status.http_status(), 400);
  EXPECT_EQ(status.details(), json({{"collection", name}, {"rule", rule}}));
}

TEST(CollectionName, AcceptsLowercaseDigitsAndUnderscores) {
  for (const char* name : {"things", "a", "_", "_private", "order_items_2", "x9", "a_b_c_1_2_3"}) {
    EXPECT_TRUE(check_collection_name(name).is_ok()) << name;
  }
}

TEST(CollectionName, SixtyFourCharactersIsTheLimit) {
  EXPECT_TRUE(check_collection_name(std::string(64, 'a')).is_ok());
  EXPECT_TRUE(check_collection_name("_" + std::string(63, '9')).is_ok());
  expect_broken(std::string(65, 'a'), "max_length");
  EXPECT_EQ(check_collection_name(std::string(65, 'a')).message(),
            "collection name must be at most 64 characters");
}

TEST(CollectionName, EmptyIsRefused) {
  expect_broken("", "non_empty");
  EXPECT_EQ(check_collection_name("").message(), "collection name must not be empty");
}

TEST(CollectionName, FirstCharacterMustBeALowercaseLetterOrUnderscore) {
  for (const char* name : {"1things", "9", "Things", "THINGS", "-things", " things", "$data"}) {
    expect_broken(name, "first_character");
  }
  EXPECT_EQ(check_collection_name("1things").message(),
            "collection name must start with a lowercase letter or an underscore");
}

TEST(CollectionName, OtherCharactersMustBeLowercaseDigitsOrUnderscores) {
  for (const char* name :
       {"thIngs", "my-things", "my things", "things.v2", "things;", "a\tb", "things$", "a/b"}) {
    expect_broken(name, "characters");
  }
  EXPECT_EQ(check_collection_name("my-things").message(),
            "collection name may contain only lowercase letters, digits and underscores");
}

TEST(CollectionName, NonAsciiIsRefused) {
  expect_broken("caf\xC3\xA9", "characters");             // café
  expect_broken("\xC3\xA9t\xC3\xA9", "first_character");  // été
  expect_broken(std::string("a\0b", 3), "characters");
}

TEST(CollectionName, CharacterRulesComeBeforeLength) {
  // A long name with a bad character is told about the character, the more useful fix.
  expect_broken(std::string(70, 'a') + "-", "characters");
}

TEST(CollectionName, DetailsEchoAtMostOneHundredCharacters) {
  const std::string long_name(5000, 'x');
  const Status status = check_collection_name(long_name);
  ASSERT_FALSE(status.is_ok());
  EXPECT_EQ(status.details()["collection"], std::string(100, 'x'));
  EXPECT_EQ(status.details()["rule"], "max_length");
  EXPECT_EQ(status.message().find(long_name.substr(0, 65)), std::string::npos)
      << "the message must not echo the name";
}

TEST(CollectionName, EchoIsCutBetweenUtf8Sequences) {
  // 99 ASCII characters, then two-byte characters: the cut keeps exactly one of them whole.
  const std::string name = "A" + std::string(98, 'a') + "\xC3\xA9\xC3\xA9\xC3\xA9";
  const Status status = check_collection_name(name);
  ASSERT_FALSE(status.is_ok());
  EXPECT_EQ(status.details()["collection"], "A" + std::string(98, 'a') + "\xC3\xA9");
  // The details can be written as JSON.
  EXPECT_NO_THROW((void)status.details().dump());
}

}  // namespace
}  // namespace opbase::collection
