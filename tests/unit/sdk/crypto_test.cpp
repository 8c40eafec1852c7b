// opbase/crypto.hpp: SHA-256 against FIPS 180-2's examples (at once and in pieces), HMAC-SHA256
// against RFC 4231's test cases, the constant-time comparison, and the random draws' lengths,
// alphabets, bounds and that two draws differ.
#include "opbase/crypto.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "opbase/hex.hpp"

namespace opbase {
namespace {

// FIPS 180-2 appendix B: one block, two blocks, a million 'a'.
constexpr std::string_view kAbc = "abc";
constexpr std::string_view kAbcDigest =
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
constexpr std::string_view kTwoBlocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
constexpr std::string_view kTwoBlocksDigest =
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
constexpr std::string_view kMillionADigest =
    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";

TEST(Sha256, HashesTheFipsExamples) {
  EXPECT_EQ(sha256_hex(kAbc), kAbcDigest);
  EXPECT_EQ(sha256_hex(kTwoBlocks), kTwoBlocksDigest);
  EXPECT_EQ(sha256_hex(std::string(1'000'000, 'a')), kMillionADigest);
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, AnswersRawBytesThatHexEncodeToTheDigest) {
  const std::string raw = sha256(kAbc);
  EXPECT_EQ(raw.size(), 32u);
  EXPECT_EQ(hex_encode(raw), kAbcDigest);
}

TEST(Sha256, InPiecesHashesAsAtOnce) {
  Sha256 pieces;
  pieces.add("ab");
  pieces.add("");
  pieces.add("c");
  EXPECT_EQ(hex_encode(pieces.finish()), kAbcDigest);

  Sha256 million;
  const std::string thousand(1000, 'a');
  for (int i = 0; i < 1000; ++i) million.add(thousand);
  EXPECT_EQ(hex_encode(million.finish()), kMillionADigest);
}

TEST(Sha256, InPiecesOfNothingIsTheEmptyDigest) { EXPECT_EQ(Sha256().finish(), sha256("")); }

TEST(Sha256, MovesWithWhatWasAdded) {
  Sha256 first;
  first.add("a");
  Sha256 moved = std::move(first);
  moved.add("bc");
  EXPECT_EQ(hex_encode(moved.finish()), kAbcDigest);
}

struct HmacCase {
  std::string key;
  std::string data;
  std::string_view mac_hex;
};

// RFC 4231 section 4, test cases 1-4, 6 and 7 (5 is truncated: below).
const HmacCase kRfc4231[] = {
    {std::string(20, '\x0b'), "Hi There",
     "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
    {"Jefe", "what do ya want for nothing?",
     "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
    {std::string(20, '\xaa'), std::string(50, '\xdd'),
     "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"},
    {"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16"
     "\x17\x18\x19",
     std::string(50, '\xcd'), "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"},
    {std::string(131, '\xaa'), "Test Using Larger Than Block-Size Key - Hash Key First",
     "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
    {std::string(131, '\xaa'),
     "This is a test using a larger than block-size key and a larger than block-size data. The "
     "key needs to be hashed before being used by the HMAC algorithm.",
     "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"},
};

TEST(HmacSha256, MatchesTheRfc4231TestCases) {
  for (const HmacCase& c : kRfc4231) {
    EXPECT_EQ(hmac_sha256_hex(c.key, c.data), c.mac_hex) << c.data;
    EXPECT_EQ(hex_encode(hmac_sha256(c.key, c.data)), c.mac_hex) << c.data;
  }
}

TEST(HmacSha256, MatchesRfc4231TestCase5TruncatedTo128Bits) {
  EXPECT_EQ(hmac_sha256_hex(std::string(20, '\x0c'), "Test With Truncation").substr(0, 32),
            "a3b6167473100ee06e0c796c2955552b");
}

TEST(HmacSha256, TakesAnEmptyKeyAsAKeyOfNoBytes) {
  // Python: hmac.new(b"", b"", hashlib.sha256).hexdigest()
  const std::string_view expected =
      "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad";
  EXPECT_EQ(hmac_sha256_hex("", ""), expected);
  // An empty view may hold a null pointer, which OpenSSL must not take for "no key given".
  (void)hmac_sha256("Jefe", "what do ya want for nothing?");
  EXPECT_EQ(hmac_sha256_hex(std::string_view(), std::string_view()), expected);
}

TEST(ConstantTimeEqual, IsTrueOnlyForTheSameBytes) {
  EXPECT_TRUE(constant_time_equal("", ""));
  EXPECT_TRUE(constant_time_equal("secret", "secret"));
  EXPECT_TRUE(constant_time_equal(std::string("a\0b", 3), std::string("a\0b", 3)));
  EXPECT_FALSE(constant_time_equal("secret", "secreT"));
  EXPECT_FALSE(constant_time_equal("secret", "Secret"));
  EXPECT_FALSE(constant_time_equal(std::string("a\0b", 3), std::string("a\0c", 3)));
}

TEST(ConstantTimeEqual, IsFalseForDifferentLengths) {
  EXPECT_FALSE(constant_time_equal("secret", "secre"));
  EXPECT_FALSE(constant_time_equal("secre", "secret"));
  EXPECT_FALSE(constant_time_equal("", "x"));
  EXPECT_FALSE(constant_time_equal(std::string("a\0", 2), "a"));
}

TEST(RandomBytes, AnswersTheLengthAskedAndDiffersBetweenDraws) {
  EXPECT_EQ(random_bytes(0), "");
  EXPECT_EQ(random_bytes(1).size(), 1u);
  EXPECT_EQ(random_bytes(32).size(), 32u);
  EXPECT_EQ(random_bytes(1000).size(), 1000u);
  // Two draws of 128 bits agree with probability 2^-128.
  EXPECT_NE(random_bytes(16), random_bytes(16));
}

TEST(RandomHex, IsTwoLowercaseHexDigitsPerByte) {
  const std::string hex = random_hex(16);
  ASSERT_EQ(hex.size(), 32u);
  EXPECT_EQ(hex.find_first_not_of("0123456789abcdef"), std::string::npos) << hex;
  EXPECT_EQ(random_hex(0), "");
  EXPECT_NE(random_hex(16), random_hex(16));
}

TEST(RandomBelow, StaysBelowTheBoundAndReachesEveryValue) {
  std::set<uint64_t> seen;
  for (int i = 0; i < 2000; ++i) {
    const uint64_t value = random_below(10);
    ASSERT_LT(value, 10u);
    seen.insert(value);
  }
  EXPECT_EQ(seen.size(), 10u);  // each value missed 2000 times: probability below 10^-90
}

TEST(RandomBelow, TakesEveryBoundFromOneToTheLargest) {
  for (int i = 0; i < 100; ++i) EXPECT_EQ(random_below(1), 0u);
  const uint64_t largest = std::numeric_limits<uint64_t>::max();
  for (int i = 0; i < 100; ++i) EXPECT_LT(random_below(largest), largest);
  const uint64_t above_half = (uint64_t{1} << 63) + 1;  // rejects nearly half of all draws
  for (int i = 0; i < 100; ++i) EXPECT_LT(random_below(above_half), above_half);
}

TEST(RandomBelow, RefusesABoundOfZero) { EXPECT_THROW(random_below(0), std::invalid_argument); }

}  // namespace
}  // namespace opbase
