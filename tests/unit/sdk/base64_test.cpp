// opbase/base64.hpp: the RFC 4648 section 10 vectors in both forms (base64url with the padding
// stripped and "-_" for "+/"), and the strict decoders refusing wrong padding, foreign
// characters, impossible lengths and non-canonical last characters.
#include "opbase/base64.hpp"

#include <gtest/gtest.h>

#include <string>

namespace opbase {
namespace {

struct Vector {
  const char* bytes;
  const char* text;
};

// RFC 4648 section 10, "=" removed.
constexpr Vector kRfc4648[] = {
    {"", ""},           {"f", "Zg"},          {"fo", "Zm8"},         {"foo", "Zm9v"},
    {"foob", "Zm9vYg"}, {"fooba", "Zm9vYmE"}, {"foobar", "Zm9vYmFy"}};

TEST(Base64url, EncodesTheRfc4648Vectors) {
  for (const Vector& v : kRfc4648) EXPECT_EQ(base64url_encode(v.bytes), v.text) << v.bytes;
}

TEST(Base64url, DecodesTheRfc4648Vectors) {
  for (const Vector& v : kRfc4648) EXPECT_EQ(base64url_decode(v.text), v.bytes) << v.text;
}

TEST(Base64url, UsesTheUrlSafeAlphabet) {
  // 0xFB 0xFF is "+/8=" in standard base64.
  EXPECT_EQ(base64url_encode("\xfb\xff"), "-_8");
  EXPECT_EQ(base64url_decode("-_8"), "\xfb\xff");
  EXPECT_EQ(base64url_decode("+/8"), std::nullopt);
}

// Every byte value, in every length from 0 to 256, decodes back from its encoding.
template <typename Encode, typename Decode>
void expect_round_trips(Encode encode, Decode decode) {
  std::string all;
  for (int i = 0; i < 256; ++i) all += static_cast<char>(i);
  for (size_t n = 0; n <= all.size(); ++n) {
    const std::string bytes = all.substr(all.size() - n);
    ASSERT_EQ(decode(encode(bytes)), bytes) << n;
  }
}

TEST(Base64url, RoundTripsEveryByteValueAndLength) {
  expect_round_trips(base64url_encode, base64url_decode);
}

TEST(Base64url, RefusesPadding) {
  EXPECT_EQ(base64url_decode("Zg=="), std::nullopt);
  EXPECT_EQ(base64url_decode("Zm8="), std::nullopt);
  EXPECT_EQ(base64url_decode("="), std::nullopt);
}

TEST(Base64url, RefusesCharactersOutsideTheAlphabet) {
  for (const char* text : {"Zm9v YmFy", "Zm9v\n", "Zm.9", "Zm9v\xc3\xa9"}) {
    EXPECT_EQ(base64url_decode(text), std::nullopt) << text;
  }
  EXPECT_EQ(base64url_decode(std::string_view("Zm\0v", 4)), std::nullopt);
}

TEST(Base64url, RefusesALengthOfOneModFour) {
  EXPECT_EQ(base64url_decode("Z"), std::nullopt);
  EXPECT_EQ(base64url_decode("Zm9vY"), std::nullopt);
}

TEST(Base64url, RefusesNonZeroUnusedBits) {
  // "Zg" is "f"; "Zh" carries the same byte plus a set bit that belongs to no byte.
  EXPECT_EQ(base64url_decode("Zh"), std::nullopt);
  EXPECT_EQ(base64url_decode("Zm9"), std::nullopt);  // "Zm8" is canonical
}

constexpr Vector kRfc4648Padded[] = {{"", ""},
                                     {"f", "Zg=="},
                                     {"fo", "Zm8="},
                                     {"foo", "Zm9v"},
                                     {"foob", "Zm9vYg=="},
                                     {"fooba", "Zm9vYmE="},
                                     {"foobar", "Zm9vYmFy"}};

TEST(Base64, EncodesAndDecodesTheRfc4648Vectors) {
  for (const Vector& v : kRfc4648Padded) {
    EXPECT_EQ(base64_encode(v.bytes), v.text) << v.bytes;
    EXPECT_EQ(base64_decode(v.text), v.bytes) << v.text;
  }
  EXPECT_EQ(base64_encode("\xfb\xff"), "+/8=");
}

TEST(Base64, RoundTripsEveryByteValueAndLength) {
  expect_round_trips(base64_encode, base64_decode);
}

TEST(Base64, RefusesMissingExtraOrMisplacedPaddingAndForeignCharacters) {
  for (const char* text : {"Zg", "Zg=", "Zg===", "Zm8", "Zm8==", "Z===", "Zg=a",
                           "=Zg=", "Zm9v=", "-_8=", "Zm9v YmFy", "Zh==", "Zm9=", "===="}) {
    EXPECT_EQ(base64_decode(text), std::nullopt) << text;
  }
}

}  // namespace
}  // namespace opbase
