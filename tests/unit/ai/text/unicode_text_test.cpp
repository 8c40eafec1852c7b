// The AI ops' content checks: lengths in code points (docs/api.md#ai-text-lengths), blank text.
#include "text/unicode_text.hpp"

#include <gtest/gtest.h>

#include <string>

namespace opbase::ai {
namespace {

TEST(CodePoints, CountsCharactersNotBytes) {
  EXPECT_EQ(code_points(""), 0u);
  EXPECT_EQ(code_points("hello"), 5u);
  EXPECT_EQ(code_points("caf\xC3\xA9"), 4u);               // é: 2 bytes
  EXPECT_EQ(code_points("\xE6\x97\xA5\xE6\x9C\xAC"), 2u);  // 日本: 3 bytes each
  EXPECT_EQ(code_points("\xF0\x9F\x98\x80!"), 2u);         // an emoji (4 bytes) and !
  EXPECT_EQ(code_points(std::string(50'000, 'a')), 50'000u);
  EXPECT_EQ(code_points(std::string(3, '\0')), 3u) << "a NUL is a code point too";
}

TEST(IsBlank, OnlyWhiteSpaceIsBlank) {
  EXPECT_TRUE(is_blank(""));
  EXPECT_TRUE(is_blank(" \t\r\n"));
  EXPECT_TRUE(is_blank("\xC2\xA0"));                   // no-break space
  EXPECT_TRUE(is_blank("\xE3\x80\x80 \xE2\x80\x83"));  // ideographic space, em space
  EXPECT_TRUE(is_blank("\xEF\xBB\xBF"));               // a byte order mark alone
  EXPECT_FALSE(is_blank(" a "));
  EXPECT_FALSE(is_blank("\xE6\x97\xA5"));
  EXPECT_FALSE(is_blank("   ."));
  EXPECT_FALSE(is_blank("\xE2\x80\x8C")) << "a zero-width non-joiner is not white space";
}

}  // namespace
}  // namespace opbase::ai
