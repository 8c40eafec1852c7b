// ALTCHA challenges and solutions (plugins/captcha/altcha): a challenge matches one made by an
// independent implementation (Python's hashlib and hmac, the vector below), a solution the
// widget would send passes until its salt expires, and every refusal names its reason: a wrong
// number, another key's signature, a changed salt or challenge, an expiry missing or past, digits
// moved from the number onto the salt,
// another algorithm, and payloads that are not base64 of the five fields.
#include "altcha/altcha.hpp"

#include <gtest/gtest.h>

#include <string>

#include "opbase/base64.hpp"

namespace opbase::captcha {
namespace {

using nlohmann::json;

constexpr std::string_view kKey = "opbase-test-key";
constexpr std::string_view kSaltHex = "0123456789abcdef01234567";
constexpr int64_t kExpires = 1'800'000'000;
// From Python: sha256(salt + "4242") and hmac-sha256(key, challenge), both hex.
constexpr std::string_view kChallenge =
    "90b4d5ef34b655bb875f3586a2d6d4eba888015c62c9382256b097de8968de9e";
constexpr std::string_view kSignature =
    "797fa7dd36801747d3c4cf0576a152a26caed41672552c0463d2ec8322fb5364";
// base64 of Python's json.dumps of the widget's answer, "took" included.
constexpr std::string_view kPayload =
    "eyJhbGdvcml0aG0iOiAiU0hBLTI1NiIsICJjaGFsbGVuZ2UiOiAiOTBiNGQ1ZWYzNGI2NTViYjg3NWYzNTg2YTJkNmQ0"
    "ZWJhODg4MDE1YzYyYzkzODIyNTZiMDk3ZGU4OTY4ZGU5ZSIsICJudW1iZXIiOiA0MjQyLCAic2FsdCI6ICIwMTIzNDU2"
    "Nzg5YWJjZGVmMDEyMzQ1Njc/ZXhwaXJlcz0xODAwMDAwMDAwJiIsICJzaWduYXR1cmUiOiAiNzk3ZmE3ZGQzNjgwMTc0"
    "N2QzYzRjZjA1NzZhMTUyYTI2Y2FlZDQxNjcyNTUyYzA0NjNkMmVjODMyMmZiNTM2NCIsICJ0b29rIjogODEyfQ==";

std::string payload_of(json fields) { return base64_encode(fields.dump()); }

json solved_fields() {
  const Challenge c = make_challenge(kKey, 4242, 100'000, kSaltHex, kExpires);
  return {{"algorithm", "SHA-256"},
          {"challenge", c.challenge},
          {"number", 4242},
          {"salt", c.salt},
          {"signature", c.signature}};
}

std::string reason_of(const Status& status) {
  return status.details().is_object() ? status.details().value("reason", "") : "";
}

Status check(const std::string& payload, int64_t now_s = kExpires - 60) {
  auto solution = parse_solution(payload);
  if (!solution) return solution.status();
  return check_solution(*solution, kKey, now_s);
}

TEST(CaptchaAltcha, AChallengeMatchesAnIndependentImplementation) {
  const Challenge c = make_challenge(kKey, 4242, 100'000, kSaltHex, kExpires);
  EXPECT_EQ(c.salt, "0123456789abcdef01234567?expires=1800000000&");
  EXPECT_EQ(c.challenge, kChallenge);
  EXPECT_EQ(c.signature, kSignature);
  const json shown = c.to_json();
  EXPECT_EQ(shown["algorithm"], "SHA-256");
  EXPECT_EQ(shown["maxnumber"], 100'000);
}

TEST(CaptchaAltcha, TheWidgetsAnswerPassesUntilItExpires) {
  EXPECT_TRUE(check(std::string(kPayload)).is_ok());
  EXPECT_EQ(reason_of(check(std::string(kPayload), kExpires)), "expired");
  EXPECT_EQ(reason_of(check(std::string(kPayload), kExpires + 1)), "expired");
}

TEST(CaptchaAltcha, EveryForgeryIsRefusedWithItsReason) {
  json wrong_number = solved_fields();
  wrong_number["number"] = 4243;
  EXPECT_EQ(reason_of(check(payload_of(wrong_number))), "wrong");

  json other_key = solved_fields();
  other_key["signature"] =
      make_challenge("another key", 4242, 100'000, kSaltHex, kExpires).signature;
  EXPECT_EQ(reason_of(check(payload_of(other_key))), "signature");

  // A later expiry written into the salt no longer hashes to the signed challenge.
  json longer = solved_fields();
  longer["salt"] = std::string(kSaltHex) + "?expires=1900000000&";
  EXPECT_EQ(reason_of(check(payload_of(longer))), "wrong");

  // The number's leading digits moved onto the salt hash the same text under the same signed
  // challenge, but the salt no longer ends with '&', so its expiry is not trusted.
  json spliced = solved_fields();
  spliced["salt"] = std::string(kSaltHex) + "?expires=1800000000&4";
  spliced["number"] = 242;
  EXPECT_EQ(reason_of(check(payload_of(spliced))), "expired");
  json stretched = solved_fields();
  stretched["salt"] = std::string(kSaltHex) + "?expires=18000000004";
  stretched["number"] = 242;
  EXPECT_EQ(reason_of(check(payload_of(stretched))), "expired");

  // A challenge of the client's own making is not signed by the key.
  json own = solved_fields();
  own["challenge"] = std::string(64, 'a');
  EXPECT_EQ(reason_of(check(payload_of(own))), "signature");

  // A salt without its expiry counts as expired: a key's old challenges never work for ever.
  json bare = solved_fields();
  bare["salt"] = std::string(kSaltHex);
  EXPECT_EQ(reason_of(check(payload_of(bare))), "expired");
  json garbled = solved_fields();
  garbled["salt"] = std::string(kSaltHex) + "?expires=18e8&";
  EXPECT_EQ(reason_of(check(payload_of(garbled))), "expired");
}

TEST(CaptchaAltcha, PayloadsThatAreNotSolutionsAreMalformed) {
  json sha1 = solved_fields();
  sha1["algorithm"] = "SHA-1";
  EXPECT_EQ(reason_of(check(payload_of(sha1))), "algorithm");
  json negative = solved_fields();
  negative["number"] = -1;
  json text_number = solved_fields();
  text_number["number"] = "4242";
  json missing = solved_fields();
  missing.erase("signature");
  for (const std::string& bad : {std::string("not base64!"), base64_encode("[1,2]"),
                                 base64_encode("{"), payload_of(negative), payload_of(text_number),
                                 payload_of(missing), std::string(5000, 'A'), std::string()}) {
    EXPECT_EQ(reason_of(check(bad)), "malformed") << bad.substr(0, 40);
  }
}

}  // namespace
}  // namespace opbase::captcha
