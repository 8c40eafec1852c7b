// JWT sign/verify (ES256, HS256) and signing keys. Round trips first, then each attack of the
// decision list, each failing with TOKEN_INVALID: a changed payload or signature, alg "none",
// HS256 signed with the ES256 public key (alg confusion), an unknown kid, a DER signature, and
// malformed tokens; only a genuine token past its exp is TOKEN_EXPIRED.
#include "keys/jwt.hpp"

#include <gtest/gtest.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>

#include <string>
#include <vector>

#include "keys/signing_key.hpp"
#include "opbase/base64.hpp"

namespace opbase::auth {
namespace {

using nlohmann::json;

constexpr int64_t kNow = 1'700'000'000;
constexpr std::string_view kAud = "project-1";

SigningKey make_key(Alg alg) {
  Result<SigningKey> key = SigningKey::generate(alg);
  EXPECT_TRUE(key.is_ok()) << key.status().to_string();
  return std::move(key).value();
}

json claims(int64_t exp = kNow + 3600) {
  return {{"sub", "user-42"},   {"aud", kAud},        {"iat", kNow},        {"exp", exp},
          {"project_id", "p1"}, {"roles", {"admin"}}, {"sid", "session-7"}, {"jti", "token-9"}};
}

// A lookup over a ring of keys, as the plugin will hold them.
KeyLookup ring(const std::vector<SigningKey>& keys) {
  return [&keys](std::string_view kid) -> const SigningKey* {
    for (const SigningKey& key : keys) {
      if (key.kid() == kid) return &key;
    }
    return nullptr;
  };
}

std::string sign_ok(const SigningKey& key, const json& payload) {
  Result<std::string> token = sign(key, payload);
  EXPECT_TRUE(token.is_ok()) << token.status().to_string();
  return token.is_ok() ? *token : std::string();
}

std::vector<std::string> parts_of(const std::string& token) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t dot = token.find('.'); dot != std::string::npos; dot = token.find('.', start)) {
    parts.push_back(token.substr(start, dot - start));
    start = dot + 1;
  }
  parts.push_back(token.substr(start));
  return parts;
}

std::string join(const std::string& header, const std::string& payload,
                 const std::string& signature) {
  return header + "." + payload + "." + signature;
}

std::string encode_json(const json& value) { return base64url_encode(value.dump()); }

std::string hmac_sha256(std::string_view key, std::string_view data) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac, &length);
  return std::string(reinterpret_cast<char*>(mac), length);
}

std::string public_pem(const SigningKey& key) {
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PUBKEY(bio, key.es256_key());
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  std::string pem(data, static_cast<size_t>(size));
  BIO_free(bio);
  return pem;
}

// JOSE R || S to the DER form OpenSSL uses, as a careless implementation would send it.
std::string raw_to_der(const std::string& raw) {
  ECDSA_SIG* sig = ECDSA_SIG_new();
  const auto* p = reinterpret_cast<const unsigned char*>(raw.data());
  ECDSA_SIG_set0(sig, BN_bin2bn(p, 32, nullptr), BN_bin2bn(p + 32, 32, nullptr));
  unsigned char* der = nullptr;
  const int length = i2d_ECDSA_SIG(sig, &der);
  std::string out(reinterpret_cast<char*>(der), static_cast<size_t>(length));
  OPENSSL_free(der);
  ECDSA_SIG_free(sig);
  return out;
}

void expect_code(const Result<json>& result, std::string_view code) {
  ASSERT_FALSE(result.is_ok()) << result->dump();
  EXPECT_EQ(result.status().code(), code) << result.status().to_string();
}
void expect_invalid(const Result<json>& result) { expect_code(result, code::kTokenInvalid); }

class Jwt : public ::testing::TestWithParam<Alg> {
 protected:
  std::vector<SigningKey> keys{make_key(GetParam())};
  KeyLookup lookup = ring(keys);
  const SigningKey& key() { return keys.front(); }
  Result<json> check(std::string_view token) { return verify(token, lookup, kNow, kAud); }
};

INSTANTIATE_TEST_SUITE_P(Algs, Jwt, ::testing::Values(Alg::kEs256, Alg::kHs256),
                         [](const auto& info) { return std::string(alg_name(info.param)); });

// ---- round trips

TEST_P(Jwt, RoundTripsTheClaims) {
  const std::string token = sign_ok(key(), claims());
  const Result<json> verified = check(token);
  ASSERT_TRUE(verified.is_ok()) << verified.status().to_string();
  EXPECT_EQ(*verified, claims());
}

TEST_P(Jwt, HeaderNamesAlgKidAndType) {
  const std::vector<std::string> parts = parts_of(sign_ok(key(), claims()));
  ASSERT_EQ(parts.size(), 3u);
  const json header = json::parse(*base64url_decode(parts[0]));
  EXPECT_EQ(header, (json{{"alg", alg_name(GetParam())}, {"kid", key().kid()}, {"typ", "JWT"}}));
}

TEST_P(Jwt, SignRefusesClaimsThatAreNotAUtf8Object) {
  EXPECT_EQ(sign(key(), json::array()).status().code(), code::kValidationError);
  EXPECT_EQ(sign(key(), json{{"sub", "\xff"}}).status().code(), code::kValidationError);
}

TEST_P(Jwt, StoredKeyStillVerifiesItsTokens) {
  const std::string token = sign_ok(key(), claims());
  const Result<json> stored = key().to_json();
  ASSERT_TRUE(stored.is_ok());
  Result<SigningKey> loaded = SigningKey::from_json(*stored);
  ASSERT_TRUE(loaded.is_ok()) << loaded.status().to_string();
  EXPECT_EQ(loaded->kid(), key().kid());
  EXPECT_EQ(loaded->alg(), GetParam());
  const std::vector<SigningKey> reloaded{*loaded};
  EXPECT_TRUE(verify(token, ring(reloaded), kNow, kAud).is_ok());
  // And the loaded key signs what the original verifies.
  EXPECT_TRUE(check(sign_ok(reloaded.front(), claims())).is_ok());
}

TEST_P(Jwt, KeysOfTheSameAlgDoNotVerifyEachOther) {
  // The other key goes by this key's kid: only the key material tells them apart.
  const SigningKey other = make_key(GetParam());
  const std::string token = sign_ok(other, claims());
  const KeyLookup wrong_key = [this](std::string_view) { return &key(); };
  expect_invalid(verify(token, wrong_key, kNow, kAud));
}

// ---- tampering

TEST_P(Jwt, RefusesATamperedPayload) {
  std::vector<std::string> parts = parts_of(sign_ok(key(), claims()));
  json changed = claims();
  changed["roles"] = {"admin", "owner"};
  expect_invalid(check(join(parts[0], encode_json(changed), parts[2])));
}

TEST_P(Jwt, RefusesATamperedSignature) {
  std::vector<std::string> parts = parts_of(sign_ok(key(), claims()));
  std::string signature = *base64url_decode(parts[2]);
  for (size_t at : {size_t{0}, signature.size() / 2, signature.size() - 1}) {
    std::string flipped = signature;
    flipped[at] = static_cast<char>(flipped[at] ^ 0x01);
    expect_invalid(check(join(parts[0], parts[1], base64url_encode(flipped))));
  }
  expect_invalid(check(join(parts[0], parts[1], "")));
  expect_invalid(check(join(parts[0], parts[1], base64url_encode(signature + '\0'))));
  expect_invalid(check(join(parts[0], parts[1], base64url_encode(signature.substr(1)))));
}

TEST_P(Jwt, RefusesASignatureSpelledNonCanonically) {
  // 32 and 64 bytes both end in a character with unused bits; setting one keeps the bytes.
  std::vector<std::string> parts = parts_of(sign_ok(key(), claims()));
  std::string respelled = parts[2];
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  respelled.back() = alphabet[alphabet.find(respelled.back()) ^ 1];
  expect_invalid(check(join(parts[0], parts[1], respelled)));
}

TEST_P(Jwt, RefusesTheTokenOfAnotherKidOrAnUnknownKid) {
  const std::vector<SigningKey> none;
  expect_invalid(verify(sign_ok(key(), claims()), ring(none), kNow, kAud));
  expect_invalid(verify(sign_ok(key(), claims()), nullptr, kNow, kAud));
  std::vector<std::string> parts = parts_of(sign_ok(key(), claims()));
  const json header{{"alg", alg_name(GetParam())}, {"kid", "no-such-kid"}, {"typ", "JWT"}};
  expect_invalid(check(join(encode_json(header), parts[1], parts[2])));
}

TEST_P(Jwt, RefusesAlgNone) {
  std::vector<std::string> parts = parts_of(sign_ok(key(), claims()));
  for (const char* alg : {"none", "None", "NONE", ""}) {
    const std::string header = encode_json({{"alg", alg}, {"kid", key().kid()}, {"typ", "JWT"}});
    expect_invalid(check(join(header, parts[1], "")));
    expect_invalid(check(join(header, parts[1], parts[2])));
  }
}

TEST_P(Jwt, RefusesOtherAlgorithms) {
  std::vector<std::string> parts = parts_of(sign_ok(key(), claims()));
  for (const char* alg : {"RS256", "ES384", "HS512", "es256", "hs256", "ES256 "}) {
    const std::string header = encode_json({{"alg", alg}, {"kid", key().kid()}});
    expect_invalid(check(join(header, parts[1], parts[2])));
  }
}

// Tokens with a valid signature over a hand-made header or payload, so that only the checks
// after the signature can refuse them. HS256 makes them easy to sign here; those checks do not
// depend on the alg.
class JwtSignedByHand : public ::testing::Test {
 protected:
  std::vector<SigningKey> keys{make_key(Alg::kHs256)};
  const SigningKey& key() { return keys.front(); }
  std::string signed_token(const std::string& header, const std::string& payload) {
    const std::string input = base64url_encode(header) + "." + base64url_encode(payload);
    return input + "." + base64url_encode(hmac_sha256(key().hs256_secret(), input));
  }
  std::string header(const json& extra = json::object()) {
    json out{{"alg", "HS256"}, {"kid", key().kid()}};
    out.update(extra);
    return out.dump();
  }
  Result<json> check(const std::string& token) { return verify(token, ring(keys), kNow, kAud); }
};

TEST_F(JwtSignedByHand, TheControlTokenVerifies) {
  EXPECT_TRUE(check(signed_token(header(), claims().dump())).is_ok());
  EXPECT_TRUE(check(signed_token(header({{"typ", "JWT"}, {"cty", "x"}}), claims().dump())));
}

TEST_F(JwtSignedByHand, RefusesCriticalExtensions) {
  // No extension is understood, so none can be honoured (RFC 7515 4.1.11).
  expect_invalid(check(signed_token(header({{"crit", {"exp"}}}), claims().dump())));
}

TEST_F(JwtSignedByHand, RefusesAPayloadThatIsNotAJsonObject) {
  for (const std::string& payload :
       {std::string("[1]"), std::string("12"), std::string("{"), std::string("{\"exp\":1e400}"),
        std::string(""), claims().dump() + std::string(" \0junk", 6)}) {
    expect_invalid(check(signed_token(header(), payload)));
  }
}

TEST_F(JwtSignedByHand, RefusesAHeaderWithTrailingJunk) {
  expect_invalid(check(signed_token(header() + std::string(" \0junk", 6), claims().dump())));
}

// ---- alg confusion

TEST(JwtAlgConfusion, RefusesHs256SignedWithTheEs256PublicKey) {
  const std::vector<SigningKey> keys{make_key(Alg::kEs256)};
  const SigningKey& es = keys.front();
  const std::string payload = encode_json(claims());
  const std::string header = encode_json({{"alg", "HS256"}, {"kid", es.kid()}, {"typ", "JWT"}});
  const std::string input = header + "." + payload;
  // Every form of the public key an attacker could find: the PEM, the JWK, the JWKS, x || y.
  const std::string xy = *base64url_decode(es.public_jwk()["x"].get<std::string>()) +
                         *base64url_decode(es.public_jwk()["y"].get<std::string>());
  for (const std::string& secret :
       {public_pem(es), es.public_jwk().dump(), jwks(keys).dump(), xy, std::string("\x04") + xy}) {
    const std::string token = input + "." + base64url_encode(hmac_sha256(secret, input));
    expect_invalid(verify(token, ring(keys), kNow, kAud));
  }
}

TEST(JwtAlgConfusion, RefusesEs256HeaderAgainstAnHs256Key) {
  const std::vector<SigningKey> keys{make_key(Alg::kHs256)};
  const SigningKey es = make_key(Alg::kEs256);
  std::vector<std::string> parts = parts_of(sign_ok(es, claims()));
  const std::string header = encode_json({{"alg", "ES256"}, {"kid", keys.front().kid()}});
  expect_invalid(verify(join(header, parts[1], parts[2]), ring(keys), kNow, kAud));
}

TEST(JwtEs256, RefusesADerSignature) {
  const std::vector<SigningKey> keys{make_key(Alg::kEs256)};
  std::vector<std::string> parts = parts_of(sign_ok(keys.front(), claims()));
  const std::string raw = *base64url_decode(parts[2]);
  ASSERT_EQ(raw.size(), 64u);
  const std::string der = raw_to_der(raw);
  expect_invalid(verify(join(parts[0], parts[1], base64url_encode(der)), ring(keys), kNow, kAud));
  // The raw form of the same signature does verify: only the encoding is refused.
  EXPECT_TRUE(verify(join(parts[0], parts[1], base64url_encode(raw)), ring(keys), kNow, kAud));
}

TEST(JwtEs256, SignaturesAreRawRAndSAndRandomised) {
  const SigningKey key = make_key(Alg::kEs256);
  const std::string a = parts_of(sign_ok(key, claims()))[2];
  const std::string b = parts_of(sign_ok(key, claims()))[2];
  EXPECT_EQ(a.size(), 86u);  // 64 bytes
  EXPECT_NE(a, b);           // ECDSA's per-signature nonce
}

// ---- time

TEST_P(Jwt, ExpiredIsTokenExpired) {
  const std::string token = sign_ok(key(), claims(kNow - 1));
  expect_code(check(token), code::kTokenExpired);
  // exp is the first second the token is no longer valid (RFC 7519 4.1.4).
  expect_code(check(sign_ok(key(), claims(kNow))), code::kTokenExpired);
  EXPECT_TRUE(check(sign_ok(key(), claims(kNow + 1))).is_ok());
}

TEST_P(Jwt, LeewayExtendsExp) {
  const std::string token = sign_ok(key(), claims(kNow - 30));
  EXPECT_TRUE(verify(token, lookup, kNow, kAud, 31).is_ok());
  expect_code(verify(token, lookup, kNow, kAud, 30), code::kTokenExpired);
  expect_code(verify(token, lookup, kNow, kAud, -100), code::kTokenExpired);
}

TEST_P(Jwt, ATamperedExpiredTokenIsInvalidNotExpired) {
  std::vector<std::string> parts = parts_of(sign_ok(key(), claims(kNow - 10)));
  json changed = claims(kNow - 10);
  changed["sub"] = "someone-else";
  expect_invalid(check(join(parts[0], encode_json(changed), parts[2])));
  // Nor does an expired token with a broken signature or an unknown kid say EXPIRED.
  expect_invalid(check(join(parts[0], parts[1], parts[2].substr(0, 20))));
  const std::vector<SigningKey> none;
  expect_invalid(verify(join(parts[0], parts[1], parts[2]), ring(none), kNow, kAud));
}

TEST_P(Jwt, ExpMustBeAnInteger) {
  json no_exp = claims();
  no_exp.erase("exp");
  expect_invalid(check(sign_ok(key(), no_exp)));
  for (const json& exp : {json(double(kNow + 3600)), json("1800000000"), json(nullptr),
                          json::array({kNow + 3600}), json(18446744073709551615ull)}) {
    json bad = claims();
    bad["exp"] = exp;
    expect_invalid(check(sign_ok(key(), bad)));
  }
}

TEST_P(Jwt, AFarExpWithLeewayDoesNotOverflow) {
  // UBSan would report the overflow of exp + leeway or now + leeway.
  const std::string far = sign_ok(key(), claims(INT64_MAX));
  EXPECT_TRUE(verify(far, lookup, kNow, kAud, INT64_MAX).is_ok());
  EXPECT_TRUE(verify(far, lookup, INT64_MAX - 1, kAud, INT64_MAX).is_ok());
  expect_code(verify(far, lookup, INT64_MAX, kAud, INT64_MAX), code::kTokenExpired);
}

TEST_P(Jwt, RefusesNbfAndIatInTheFuture) {
  for (const char* name : {"nbf", "iat"}) {
    json future = claims();
    future[name] = kNow + 60;
    expect_invalid(check(sign_ok(key(), future)));
    EXPECT_TRUE(verify(sign_ok(key(), future), lookup, kNow, kAud, 60).is_ok()) << name;
    future[name] = kNow;
    EXPECT_TRUE(check(sign_ok(key(), future)).is_ok()) << name;
    future[name] = "now";
    expect_invalid(check(sign_ok(key(), future)));
  }
}

// ---- audience

TEST_P(Jwt, AudienceAsStringOrArray) {
  json aud = claims();
  aud["aud"] = {"other", kAud};
  EXPECT_TRUE(check(sign_ok(key(), aud)).is_ok());
  aud["aud"] = {"other"};
  expect_invalid(check(sign_ok(key(), aud)));
  aud["aud"] = json::array();
  expect_invalid(check(sign_ok(key(), aud)));
  aud["aud"] = {kAud, 7};
  expect_invalid(check(sign_ok(key(), aud)));
  aud["aud"] = "other";
  expect_invalid(check(sign_ok(key(), aud)));
  aud["aud"] = "Project-1";  // case-sensitive
  expect_invalid(check(sign_ok(key(), aud)));
  aud["aud"] = json{{"aud", kAud}};
  expect_invalid(check(sign_ok(key(), aud)));
  aud.erase("aud");
  expect_invalid(check(sign_ok(key(), aud)));
  // Without an expected audience, aud is not looked at.
  EXPECT_TRUE(verify(sign_ok(key(), aud), lookup, kNow, std::nullopt).is_ok());
}

TEST_P(Jwt, WrongAudienceIsCheckedAfterTheSignature) {
  std::vector<std::string> parts = parts_of(sign_ok(key(), claims()));
  const Result<json> other_aud = verify(join(parts[0], parts[1], parts[2]), lookup, kNow, "x");
  expect_invalid(other_aud);
  EXPECT_NE(other_aud.status().message().find("aud"), std::string::npos);
}

// ---- malformed tokens

TEST_P(Jwt, RefusesMalformedTokens) {
  const std::vector<std::string> parts = parts_of(sign_ok(key(), claims()));
  for (const std::string& token :
       {std::string(), std::string("garbage"), std::string(".."), std::string("a.b.c"),
        parts[0] + "." + parts[1], join(parts[0], parts[1], parts[2]) + ".",
        join(parts[0], parts[1], parts[2]) + "." + parts[2], join("", parts[1], parts[2]),
        join(parts[0], "", parts[2]), " " + join(parts[0], parts[1], parts[2]),
        join(parts[0], parts[1], parts[2]) + "=", join(parts[0] + "=", parts[1], parts[2])}) {
    expect_invalid(check(token));
  }
}

TEST_P(Jwt, RefusesHeadersThatAreNotObjectsWithAlgAndKid) {
  const std::vector<std::string> parts = parts_of(sign_ok(key(), claims()));
  const std::string alg(alg_name(GetParam()));
  for (const std::string& header :
       {std::string("[]"), std::string("\"x\""), std::string("{"), std::string("null"),
        R"({"kid":")" + key().kid() + "\"}", R"({"alg":")" + alg + "\"}",
        R"({"alg":")" + alg + R"(","kid":7})",
        R"({"alg":["ES256"],"kid":")" + key().kid() + "\"}"}) {
    expect_invalid(check(join(base64url_encode(header), parts[1], parts[2])));
  }
}

TEST_P(Jwt, RefusesOversizedTokensBeforeParsing) {
  json big = claims();
  big["pad"] = std::string(kMaxTokenBytes, 'x');
  const std::string token = sign_ok(key(), big);
  ASSERT_GT(token.size(), kMaxTokenBytes);
  const Result<json> result = check(token);
  expect_invalid(result);
  EXPECT_NE(result.status().message().find("too long"), std::string::npos);
  big["pad"] = std::string(4000, 'x');
  EXPECT_TRUE(check(sign_ok(key(), big)).is_ok());
}

TEST_P(Jwt, DeeplyNestedClaimsDoNotBreakTheParser) {
  json deep = claims();
  json nested = json::array();
  for (int i = 0; i < 2000; ++i) nested = json::array({std::move(nested)});
  deep["deep"] = std::move(nested);
  const std::string token = sign_ok(key(), deep);
  ASSERT_LE(token.size(), kMaxTokenBytes);
  EXPECT_TRUE(check(token).is_ok());
}

TEST_P(Jwt, ALookupThatThrowsIsAnInternalErrorNotAnException) {
  const KeyLookup throws = [](std::string_view) -> const SigningKey* {
    throw std::runtime_error("store down");
  };
  expect_code(verify(sign_ok(key(), claims()), throws, kNow, kAud), code::kInternalError);
}

// ---- keys

TEST(SigningKeys, KidsAreRandom16ByteBase64url) {
  const SigningKey a = make_key(Alg::kEs256);
  const SigningKey b = make_key(Alg::kEs256);
  EXPECT_EQ(a.kid().size(), 22u);
  EXPECT_EQ(base64url_decode(a.kid())->size(), 16u);
  EXPECT_NE(a.kid(), b.kid());
}

TEST(SigningKeys, StorageFormIsTheDocumentedObject) {
  const json es = *make_key(Alg::kEs256).to_json();
  EXPECT_EQ(es["alg"], "ES256");
  EXPECT_EQ(es.size(), 3u);
  EXPECT_EQ(es["private_pem"].get<std::string>().rfind("-----BEGIN PRIVATE KEY-----", 0), 0u);
  const json hs = *make_key(Alg::kHs256).to_json();
  EXPECT_EQ(hs["alg"], "HS256");
  EXPECT_EQ(hs.size(), 3u);
  EXPECT_EQ(base64url_decode(hs["secret_b64url"].get<std::string>())->size(), 32u);
}

TEST(SigningKeys, FromJsonRefusesBadInput) {
  const json good = *make_key(Alg::kEs256).to_json();
  std::vector<json> bad{json::array(),
                        json{{"alg", "ES256"}, {"private_pem", good["private_pem"]}}};
  for (const char* field : {"kid", "alg", "private_pem"}) {
    json changed = good;
    changed[field] = 7;
    bad.push_back(changed);
  }
  json changed = good;
  changed["alg"] = "none";
  bad.push_back(changed);
  changed = good;
  changed["kid"] = "";
  bad.push_back(changed);
  changed = good;
  changed["kid"] = "has space";
  bad.push_back(changed);
  changed = good;
  changed["private_pem"] = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n";
  bad.push_back(changed);
  // An ES256 key that is no P-256 key: a P-384 one.
  EVP_PKEY* p384 = EVP_EC_gen("P-384");
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(bio, p384, nullptr, nullptr, 0, nullptr, nullptr);
  char* data = nullptr;
  // The length first: it also sets `data`, and arguments have no evaluation order.
  const auto length = static_cast<size_t>(BIO_get_mem_data(bio, &data));
  changed["private_pem"] = std::string(data, length);
  BIO_free(bio);
  EVP_PKEY_free(p384);
  bad.push_back(changed);
  // The public key alone cannot sign.
  changed["private_pem"] = public_pem(*SigningKey::from_json(good));
  bad.push_back(changed);
  // An HS256 secret of 31 bytes, and one that is not base64url.
  bad.push_back(
      {{"kid", "k"}, {"alg", "HS256"}, {"secret_b64url", base64url_encode(std::string(31, 'k'))}});
  bad.push_back({{"kid", "k"}, {"alg", "HS256"}, {"secret_b64url", "a+b/"}});
  bad.push_back({{"kid", "k"}, {"alg", "HS256"}});
  for (const json& stored : bad) {
    const Result<SigningKey> key = SigningKey::from_json(stored);
    ASSERT_FALSE(key.is_ok()) << stored.dump();
    EXPECT_EQ(key.status().code(), code::kValidationError);
  }
  EXPECT_TRUE(SigningKey::from_json(
      {{"kid", "k"}, {"alg", "HS256"}, {"secret_b64url", base64url_encode(std::string(32, 'k'))}}));
}

TEST(SigningKeys, AnEncryptedPemIsRefusedWithoutPrompting) {
  const SigningKey key = make_key(Alg::kEs256);
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PKCS8PrivateKey(bio, key.es256_key(), EVP_aes_256_cbc(), "pw", 2, nullptr, nullptr);
  char* data = nullptr;
  const auto length = static_cast<size_t>(BIO_get_mem_data(bio, &data));
  const std::string pem(data, length);
  BIO_free(bio);
  ASSERT_NE(pem.find("ENCRYPTED"), std::string::npos);
  EXPECT_FALSE(SigningKey::from_json({{"kid", "k"}, {"alg", "ES256"}, {"private_pem", pem}}));
}

TEST(SigningKeys, PublicJwkIsTheEs256PublicKey) {
  const SigningKey key = make_key(Alg::kEs256);
  const json& jwk = key.public_jwk();
  EXPECT_EQ(jwk["kty"], "EC");
  EXPECT_EQ(jwk["crv"], "P-256");
  EXPECT_EQ(jwk["kid"], key.kid());
  EXPECT_EQ(jwk["use"], "sig");
  EXPECT_EQ(jwk["alg"], "ES256");
  EXPECT_EQ(base64url_decode(jwk["x"].get<std::string>())->size(), 32u);
  EXPECT_EQ(base64url_decode(jwk["y"].get<std::string>())->size(), 32u);
  EXPECT_FALSE(jwk.contains("d"));
  EXPECT_EQ(jwk.size(), 7u);
  EXPECT_TRUE(make_key(Alg::kHs256).public_jwk().is_null());
}

TEST(SigningKeys, JwksHoldsOnlyPublicEs256Keys) {
  const std::vector<SigningKey> keys{make_key(Alg::kEs256), make_key(Alg::kHs256),
                                     make_key(Alg::kEs256)};
  const json set = jwks(keys);
  ASSERT_EQ(set.size(), 1u);
  ASSERT_EQ(set["keys"].size(), 2u);
  EXPECT_EQ(set["keys"][0], keys[0].public_jwk());
  EXPECT_EQ(set["keys"][1], keys[2].public_jwk());
  const std::string text = set.dump();
  for (const json& jwk : set["keys"]) EXPECT_FALSE(jwk.contains("d"));
  EXPECT_EQ(text.find(base64url_encode(keys[1].hs256_secret())), std::string::npos);
  EXPECT_EQ(text.find("PRIVATE"), std::string::npos);
  EXPECT_EQ(text.find(keys[1].kid()), std::string::npos);
  EXPECT_EQ(jwks({}), (json{{"keys", json::array()}}));
}

TEST(SigningKeys, AlgNamesAreExact) {
  EXPECT_EQ(alg_from_name("ES256"), Alg::kEs256);
  EXPECT_EQ(alg_from_name("HS256"), Alg::kHs256);
  for (const char* name : {"none", "es256", "ES256 ", "RS256", ""}) {
    EXPECT_EQ(alg_from_name(name), std::nullopt) << name;
  }
}

}  // namespace
}  // namespace opbase::auth
