// Standard Webhooks signing: the known-answer vector the official libraries test themselves with
// (standard-webhooks/standard-webhooks, libraries/go/webhook_test.go TestWebhookSign, the same
// vector in the PHP, JavaScript, Python ... tests), the spec's "timestamp.body" text against an
// HMAC computed here with OpenSSL, secrets refused for their prefix, encoding and key length,
// rotation headers with one signature per key, and fresh secrets.
#include "endpoints/webhook_signature.hpp"

#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <string>
#include <vector>

namespace opbase::webhooks {
namespace {

// The vector of TestWebhookSign. The key is 24 bytes, the convention's minimum.
constexpr std::string_view kVectorSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
constexpr std::string_view kVectorMsgId = "msg_p5jXN8AQM9LWM0D4loKWxJek";
constexpr int64_t kVectorTimestamp = 1614265330;
constexpr std::string_view kVectorPayload = R"({"test": 2432232314})";
constexpr std::string_view kVectorSignature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

std::string vector_key() {
  auto key = secret_key_bytes(kVectorSecret);
  EXPECT_TRUE(key.has_value());
  return key.value_or("");
}

// "whsec_" + base64 of n bytes valued 0, 1, 2 ... (base64 by OpenSSL, independent of ours).
std::string secret_of(size_t n) {
  std::string bytes;
  for (size_t i = 0; i < n; ++i) bytes += static_cast<char>(i);
  std::string text(4 * ((n + 2) / 3) + 1, '\0');
  const int length =
      EVP_EncodeBlock(reinterpret_cast<unsigned char*>(text.data()),
                      reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(n));
  text.resize(static_cast<size_t>(length));
  return "whsec_" + text;
}

// base64 (OpenSSL's) of HMAC-SHA256(key, text), computed without the code under test.
std::string independent_hmac_base64(std::string_view key, std::string_view text) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int mac_length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(text.data()), text.size(), mac, &mac_length);
  std::string out(4 * ((mac_length + 2) / 3) + 1, '\0');
  const int length = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), mac,
                                     static_cast<int>(mac_length));
  out.resize(static_cast<size_t>(length));
  return out;
}

TEST(WebhookSignature, ReproducesTheStandardWebhooksVector) {
  const std::string key = vector_key();
  EXPECT_EQ(key.size(), 24u);
  EXPECT_EQ(signature(key, SignatureContent::kIdTimestampBody, kVectorMsgId, kVectorTimestamp,
                      kVectorPayload),
            kVectorSignature);
}

TEST(WebhookSignature, SignsTheStandardTextByDefault) {
  EXPECT_EQ(kDefaultSignatureContent, SignatureContent::kIdTimestampBody);
  EXPECT_EQ(signed_text(kDefaultSignatureContent, kVectorMsgId, kVectorTimestamp, kVectorPayload),
            R"(msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.{"test": 2432232314})");
}

TEST(WebhookSignature, TimestampBodySignsTheSpecsLiteralText) {
  const std::string key = vector_key();
  const std::string text = R"(1614265330.{"test": 2432232314})";
  EXPECT_EQ(
      signed_text(SignatureContent::kTimestampBody, kVectorMsgId, kVectorTimestamp, kVectorPayload),
      text);
  const std::string expected = "v1," + independent_hmac_base64(key, text);
  EXPECT_EQ(signature(key, SignatureContent::kTimestampBody, kVectorMsgId, kVectorTimestamp,
                      kVectorPayload),
            expected);
  // The message id is not part of it.
  EXPECT_EQ(signature(key, SignatureContent::kTimestampBody, "msg_other", kVectorTimestamp,
                      kVectorPayload),
            expected);
  EXPECT_NE(expected, kVectorSignature);
}

TEST(WebhookSignature, IdTimestampBodyMatchesAnIndependentHmac) {
  const std::string key = secret_key_bytes(secret_of(32)).value();
  const std::string body = "{\"type\":\"document.created\",\"data\":{\"_key\":\"k\"}}\n\x01\xff";
  EXPECT_EQ(signature(key, SignatureContent::kIdTimestampBody, "msg_1", 1700000000, body),
            "v1," + independent_hmac_base64(key, "msg_1.1700000000." + body));
}

TEST(WebhookSignature, ParsesAndNamesTheContentStrings) {
  EXPECT_EQ(parse_signature_content("id.timestamp.body"), SignatureContent::kIdTimestampBody);
  EXPECT_EQ(parse_signature_content("timestamp.body"), SignatureContent::kTimestampBody);
  for (const char* name : {"", "body", "Timestamp.Body", "timestamp.body ", "id.timestamp"}) {
    EXPECT_EQ(parse_signature_content(name), std::nullopt) << name;
  }
  for (SignatureContent content :
       {SignatureContent::kIdTimestampBody, SignatureContent::kTimestampBody}) {
    EXPECT_EQ(parse_signature_content(signature_content_name(content)), content);
  }
}

TEST(WebhookSignature, AcceptsKeysFrom24To64Bytes) {
  for (size_t n : {24, 25, 26, 32, 48, 63, 64}) {
    const auto key = secret_key_bytes(secret_of(n));
    ASSERT_TRUE(key.has_value()) << n;
    EXPECT_EQ(key->size(), n);
    EXPECT_EQ(static_cast<unsigned char>(key->back()), n - 1);
  }
}

TEST(WebhookSignature, RefusesKeysShorterThan24OrLongerThan64Bytes) {
  for (size_t n : {0, 1, 16, 23, 65, 96}) {
    EXPECT_EQ(secret_key_bytes(secret_of(n)), std::nullopt) << n;
  }
}

TEST(WebhookSignature, RefusesSecretsWithoutTheWhsecPrefix) {
  for (const char* secret :
       {"MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "WHSEC_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        "whsec-MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsk_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        " whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec", ""}) {
    EXPECT_EQ(secret_key_bytes(secret), std::nullopt) << secret;
  }
}

TEST(WebhookSignature, RefusesSecretsThatAreNotCanonicalPaddedBase64) {
  const std::string good = secret_of(32);  // 44 characters, one '='
  ASSERT_EQ(good.back(), '=');
  const std::vector<std::string> bad = {
      good.substr(0, good.size() - 1),             // padding left out
      good + "=",                                  // too much padding
      good + "AAAA",                               // data after the padding
      "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS",     // length not a multiple of 4
      "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLa-w",    // base64url's '-'
      "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLa_w",    // base64url's '_'
      "whsec_MfKQ9r8GKYqrTwjUPD8I LPZIo2LaLaS",    // a space
      "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw\n",  // a line end
      "whsec_MfKQ9r8GKYqrTwjUPD8I=PZIo2LaLaSw",    // '=' inside
      "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS=",  // unused bits set
      "whsec_====",
  };
  for (const std::string& secret : bad) {
    EXPECT_EQ(secret_key_bytes(secret), std::nullopt) << secret;
  }
  EXPECT_EQ(secret_key_bytes(std::string("whsec_MfKQ9r8GKYqrTwjUPD8I\0PZIo2LaLaSw", 38)),
            std::nullopt);
}

TEST(WebhookSignature, HeaderHoldsOneSignaturePerKeySeparatedBySpaces) {
  const std::string old_key = vector_key();
  const std::string new_key = secret_key_bytes(secret_of(32)).value();
  const std::string header =
      signature_header({new_key, old_key}, SignatureContent::kIdTimestampBody, kVectorMsgId,
                       kVectorTimestamp, kVectorPayload);
  const std::string first = signature(new_key, SignatureContent::kIdTimestampBody, kVectorMsgId,
                                      kVectorTimestamp, kVectorPayload);
  EXPECT_EQ(header, first + " " + std::string(kVectorSignature));
  EXPECT_NE(first, kVectorSignature);

  EXPECT_EQ(signature_header({old_key}, SignatureContent::kIdTimestampBody, kVectorMsgId,
                             kVectorTimestamp, kVectorPayload),
            kVectorSignature);
  EXPECT_EQ(signature_header({}, SignatureContent::kIdTimestampBody, kVectorMsgId, kVectorTimestamp,
                             kVectorPayload),
            "");
}

TEST(WebhookSignature, HeaderUsesTheChosenContent) {
  const std::string key = vector_key();
  EXPECT_EQ(signature_header({key}, SignatureContent::kTimestampBody, kVectorMsgId,
                             kVectorTimestamp, kVectorPayload),
            signature(key, SignatureContent::kTimestampBody, kVectorMsgId, kVectorTimestamp,
                      kVectorPayload));
}

TEST(WebhookSignature, NewSecretsRoundTripAndDiffer) {
  const std::string a = new_secret();
  const std::string b = new_secret();
  EXPECT_NE(a, b);
  for (const std::string& secret : {a, b}) {
    EXPECT_EQ(secret.substr(0, 6), "whsec_");
    EXPECT_EQ(secret.size(), 6u + 44u) << secret;  // 32 bytes: 44 base64 characters
    const auto key = secret_key_bytes(secret);
    ASSERT_TRUE(key.has_value()) << secret;
    EXPECT_EQ(key->size(), kNewKeyBytes);
  }
  EXPECT_NE(secret_key_bytes(a), secret_key_bytes(b));
}

TEST(WebhookSignature, EncodesEveryKeyLengthLikeOpenSsl) {
  // secret_of encodes with OpenSSL; decoding each and signing must agree with OpenSSL's HMAC of
  // the same bytes, for every length the convention allows.
  for (size_t n = kMinKeyBytes; n <= kMaxKeyBytes; ++n) {
    const auto key = secret_key_bytes(secret_of(n));
    ASSERT_TRUE(key.has_value()) << n;
    EXPECT_EQ(signature(*key, SignatureContent::kTimestampBody, "", 1, "x"),
              "v1," + independent_hmac_base64(*key, "1.x"))
        << n;
  }
}

}  // namespace
}  // namespace opbase::webhooks
