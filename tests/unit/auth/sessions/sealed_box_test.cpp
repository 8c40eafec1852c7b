// SealedBox: what is sealed under a secret opens under that secret only, and any change to the
// box is noticed.
#include "sessions/sealed_box.hpp"

#include <gtest/gtest.h>

#include "opbase/base64.hpp"

namespace opbase::auth {
namespace {

constexpr std::string_view kSecret = "sid.ThisIsTheOldRefreshToken0123456789abcdefghij";

TEST(SealedBox, OpensUnderTheSecretItWasSealedWith) {
  const std::string box = seal(kSecret, R"({"refresh_token":"next"})");
  EXPECT_EQ(open_sealed(kSecret, box), R"({"refresh_token":"next"})");
  EXPECT_EQ(box.find("next"), std::string::npos) << "the plaintext shows in the box";
}

TEST(SealedBox, EachSealingLooksDifferent) {
  EXPECT_NE(seal(kSecret, "same"), seal(kSecret, "same"));  // a fresh nonce each time
}

TEST(SealedBox, AnotherSecretOpensNothing) {
  const std::string box = seal(kSecret, "text");
  EXPECT_EQ(open_sealed("sid.AnotherToken", box), std::nullopt);
  EXPECT_EQ(open_sealed("", box), std::nullopt);
}

TEST(SealedBox, AnAlteredOrMalformedBoxOpensNothing) {
  const std::string box = seal(kSecret, "text");
  std::string raw = *base64url_decode(box);
  for (size_t i = 0; i < raw.size(); ++i) {
    std::string altered = raw;
    altered[i] = static_cast<char>(altered[i] ^ 1);
    EXPECT_EQ(open_sealed(kSecret, base64url_encode(altered)), std::nullopt) << "byte " << i;
  }
  EXPECT_EQ(open_sealed(kSecret, base64url_encode(raw.substr(0, raw.size() - 1))), std::nullopt);
  EXPECT_EQ(open_sealed(kSecret, "not base64url!"), std::nullopt);
  EXPECT_EQ(open_sealed(kSecret, ""), std::nullopt);
}

TEST(SealedBox, AnEmptyTextSealsToo) { EXPECT_EQ(open_sealed(kSecret, seal(kSecret, "")), ""); }

}  // namespace
}  // namespace opbase::auth
