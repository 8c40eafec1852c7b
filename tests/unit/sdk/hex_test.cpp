// opbase/hex.hpp: lowercase, two digits a byte, high nibble first; time_hex as 12 digits that
// sort as the times do.
#include "opbase/hex.hpp"

#include <gtest/gtest.h>

#include <string>

namespace opbase {
namespace {

TEST(Hex, EncodesEveryByteLowercaseHighNibbleFirst) {
  EXPECT_EQ(hex_encode(""), "");
  EXPECT_EQ(hex_encode(std::string("\x00\x0f\xa0\xff", 4)), "000fa0ff");
  std::string all;
  for (int i = 0; i < 256; ++i) all += static_cast<char>(i);
  const std::string text = hex_encode(all);
  ASSERT_EQ(text.size(), 512u);
  EXPECT_EQ(text.substr(0, 6), "000102");
  EXPECT_EQ(text.substr(text.size() - 4), "feff");
}

TEST(Hex, TimeHexIsTwelveDigitsThatSortAsTheTimes) {
  EXPECT_EQ(time_hex(0), "000000000000");
  EXPECT_EQ(time_hex(1'700'000'000'000), "018bcfe56800");
  EXPECT_LT(time_hex(1'700'000'000'000), time_hex(1'700'000'000'001));
  EXPECT_LT(time_hex(0xFFFFFFFFFF), time_hex(0x10000000000));
}

}  // namespace
}  // namespace opbase
