// opbase/url_query.hpp: one parameter of a target's query, percent-escapes and '+' decoded, the
// first of repeated names, and malformed escapes refused rather than guessed at.
#include "opbase/url_query.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace opbase {
namespace {

TEST(UrlQuery, FindsTheNamedParameterAmongOthers) {
  const std::string target = "/api/k1/realtime?x=1&api_key=pk_abc&last=9";
  EXPECT_EQ(url_query_value(target, "api_key"), "pk_abc");
  EXPECT_EQ(url_query_value(target, "x"), "1");
  EXPECT_EQ(url_query_value(target, "last"), "9");
  EXPECT_EQ(url_query_value(target, "api"), std::nullopt);
  EXPECT_EQ(url_query_value("/api/k1/realtime", "api_key"), std::nullopt);
}

TEST(UrlQuery, DecodesEscapesAndPlusInNamesAndValues) {
  EXPECT_EQ(url_query_value("/p?a=x%20y+z%2B%26", "a"), "x y z+&");
  EXPECT_EQ(url_query_value("/p?a%5Fb=1", "a_b"), "1");
  EXPECT_EQ(url_query_value("/p?a=%e2%82%AC", "a"), "\xe2\x82\xac");
}

TEST(UrlQuery, TheFirstOfRepeatedNamesWins) { EXPECT_EQ(url_query_value("/p?a=1&a=2", "a"), "1"); }

TEST(UrlQuery, AParameterWithoutAValueIsEmpty) {
  EXPECT_EQ(url_query_value("/p?flag&a=", "flag"), "");
  EXPECT_EQ(url_query_value("/p?flag&a=", "a"), "");
  EXPECT_EQ(url_query_value("/p?&&a=3&", "a"), "3");
}

TEST(UrlQuery, AMalformedEscapeIsNoValue) {
  EXPECT_EQ(url_query_value("/p?a=%", "a"), std::nullopt);
  EXPECT_EQ(url_query_value("/p?a=%2", "a"), std::nullopt);
  EXPECT_EQ(url_query_value("/p?a=%zz", "a"), std::nullopt);
  EXPECT_EQ(url_decode("100%"), std::nullopt);
  EXPECT_EQ(url_decode("%41%42"), "AB");
}

TEST(UrlQuery, AFragmentIsNotPartOfTheLastValue) {
  EXPECT_EQ(url_query_value("/p?a=1#top", "a"), "1");
}

}  // namespace
}  // namespace opbase
