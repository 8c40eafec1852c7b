// JWS compact serialisation with ES256 and HS256 (RFC 7515, 7518). The order of verify() is the
// point: nothing in a payload is looked at before its signature holds, and the header's alg
// alone never decides how to check it — the key named by kid does.
#include "keys/jwt.hpp"

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include <array>
#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>

#include "opbase/base64.hpp"
#include "opbase/crypto.hpp"
#include "opbase/json_text.hpp"

namespace opbase::auth {
namespace {

using nlohmann::json;

constexpr size_t kEs256Half = 32;  // R and S of a P-256 signature, JOSE raw form (RFC 7518 3.4)
constexpr size_t kHs256Bytes = 32;

struct MdCtxFree {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, MdCtxFree>;
struct SigFree {
  void operator()(ECDSA_SIG* sig) const { ECDSA_SIG_free(sig); }
};
using SigPtr = std::unique_ptr<ECDSA_SIG, SigFree>;

Status invalid(std::string_view reason) {
  return {code::kTokenInvalid, "invalid token: " + std::string(reason)};
}

const unsigned char* bytes(std::string_view text) {
  return reinterpret_cast<const unsigned char*>(text.data());
}

// ---- signatures

// None when OpenSSL fails: signing answers INTERNAL_ERROR, verifying "invalid", as for ES256.
std::optional<std::string> hs256_mac(std::string_view secret, std::string_view input) {
  try {
    return hmac_sha256(secret, input);
  } catch (const std::runtime_error&) {
    return std::nullopt;
  }
}

// OpenSSL signs ECDSA as DER (SEQUENCE of two INTEGERs); JOSE wants R || S, 32 bytes each.
std::optional<std::string> der_to_raw(std::string_view der) {
  const unsigned char* p = bytes(der);
  const SigPtr sig(d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(der.size())));
  if (!sig) return std::nullopt;
  std::array<unsigned char, 2 * kEs256Half> raw{};
  if (BN_bn2binpad(ECDSA_SIG_get0_r(sig.get()), raw.data(), kEs256Half) != kEs256Half ||
      BN_bn2binpad(ECDSA_SIG_get0_s(sig.get()), raw.data() + kEs256Half, kEs256Half) !=
          kEs256Half) {
    return std::nullopt;
  }
  return std::string(reinterpret_cast<const char*>(raw.data()), raw.size());
}

std::optional<std::string> raw_to_der(std::string_view raw) {
  if (raw.size() != 2 * kEs256Half) return std::nullopt;
  SigPtr sig(ECDSA_SIG_new());
  BIGNUM* r = BN_bin2bn(bytes(raw), kEs256Half, nullptr);
  BIGNUM* s = BN_bin2bn(bytes(raw) + kEs256Half, kEs256Half, nullptr);
  if (!sig || r == nullptr || s == nullptr || ECDSA_SIG_set0(sig.get(), r, s) != 1) {
    BN_free(r);
    BN_free(s);
    return std::nullopt;
  }
  const int length = i2d_ECDSA_SIG(sig.get(), nullptr);
  if (length <= 0) return std::nullopt;
  std::string der(static_cast<size_t>(length), '\0');
  unsigned char* out = reinterpret_cast<unsigned char*>(der.data());
  if (i2d_ECDSA_SIG(sig.get(), &out) != length) return std::nullopt;
  return der;
}

std::optional<std::string> es256_sign(EVP_PKEY* pkey, std::string_view input) {
  const MdCtxPtr ctx(EVP_MD_CTX_new());
  size_t length = 0;
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, pkey) != 1 ||
      EVP_DigestSign(ctx.get(), nullptr, &length, bytes(input), input.size()) != 1) {
    return std::nullopt;
  }
  std::string der(length, '\0');
  if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(der.data()), &length, bytes(input),
                     input.size()) != 1) {
    return std::nullopt;
  }
  der.resize(length);
  return der_to_raw(der);
}

bool es256_verify(EVP_PKEY* pkey, std::string_view input, std::string_view raw) {
  const std::optional<std::string> der = raw_to_der(raw);
  if (!der) return false;
  const MdCtxPtr ctx(EVP_MD_CTX_new());
  return ctx && EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, pkey) == 1 &&
         EVP_DigestVerify(ctx.get(), bytes(*der), der->size(), bytes(input), input.size()) == 1;
}

bool hs256_verify(std::string_view secret, std::string_view input, std::string_view mac) {
  if (mac.size() != kHs256Bytes) return false;
  const std::optional<std::string> expected = hs256_mac(secret, input);
  return expected && constant_time_equal(*expected, mac);
}

bool signature_holds(const SigningKey& key, std::string_view input, std::string_view signature) {
  const bool holds = key.alg() == Alg::kEs256 ? es256_verify(key.es256_key(), input, signature)
                                              : hs256_verify(key.hs256_secret(), input, signature);
  // A failed check leaves errors on this thread's OpenSSL queue, where TLS code would find them.
  ERR_clear_error();
  return holds;
}

// ---- parsing

struct Parts {
  std::string_view signing_input;  // header.payload, as sent: the signature covers these bytes
  std::string_view header;
  std::string_view payload;
  std::string_view signature;
};

std::optional<Parts> split(std::string_view token) {
  const size_t first = token.find('.');
  if (first == std::string_view::npos) return std::nullopt;
  const size_t second = token.find('.', first + 1);
  if (second == std::string_view::npos || token.find('.', second + 1) != std::string_view::npos) {
    return std::nullopt;
  }
  return Parts{token.substr(0, second), token.substr(0, first),
               token.substr(first + 1, second - first - 1), token.substr(second + 1)};
}

// A base64url part that decodes to a JSON object. The strict validator first: nlohmann alone
// would take "{} \0 junk".
std::optional<json> decode_object(std::string_view part) {
  const std::optional<std::string> text = base64url_decode(part);
  if (!text || !json_text::is_object(*text)) return std::nullopt;
  json value = json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!value.is_object()) return std::nullopt;
  return value;
}

// nullopt for anything but an integer that fits int64 (a float such as 1.7e9 included).
std::optional<int64_t> as_int64(const json& value) {
  if (!value.is_number_integer()) return std::nullopt;
  if (value.is_number_unsigned()) {
    const uint64_t n = value.get<uint64_t>();
    if (n > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
    return static_cast<int64_t>(n);
  }
  return value.get<int64_t>();
}

int64_t saturating_add(int64_t a, int64_t b_non_negative) {
  const int64_t max = std::numeric_limits<int64_t>::max();
  return a > max - b_non_negative ? max : a + b_non_negative;
}

// ---- the checks of verify(), in order

Result<const SigningKey*> check_header(const json& header, const KeyLookup& find_key) {
  const auto alg = header.find("alg");
  const auto kid = header.find("kid");
  if (alg == header.end() || !alg->is_string()) return invalid("header has no alg");
  if (kid == header.end() || !kid->is_string()) return invalid("header has no kid");
  // No extension is understood, so a critical one cannot be honoured (RFC 7515 4.1.11).
  if (header.contains("crit")) return invalid("crit is not supported");
  const std::optional<Alg> wanted = alg_from_name(alg->get_ref<const std::string&>());
  if (!wanted) return invalid("unsupported alg");
  const SigningKey* key = find_key ? find_key(kid->get_ref<const std::string&>()) : nullptr;
  if (key == nullptr) return invalid("unknown kid");
  if (key->alg() != *wanted) return invalid("alg does not match the key");
  return key;
}

Status check_times(const json& claims, int64_t now, int64_t leeway) {
  const auto exp = claims.find("exp");
  if (exp == claims.end()) return invalid("no exp");
  const std::optional<int64_t> expires = as_int64(*exp);
  if (!expires) return invalid("exp is not an integer");
  if (now >= saturating_add(*expires, leeway)) return {code::kTokenExpired, "token expired"};
  for (const char* name : {"nbf", "iat"}) {
    const auto it = claims.find(name);
    if (it == claims.end()) continue;
    const std::optional<int64_t> at = as_int64(*it);
    if (!at) return invalid(std::string(name) + " is not an integer");
    if (*at > saturating_add(now, leeway)) return invalid(std::string(name) + " is in the future");
  }
  return Status::ok();
}

// RFC 7519 4.1.3: one string, or an array of strings.
Status check_audience(const json& claims, std::string_view expected) {
  const auto aud = claims.find("aud");
  if (aud == claims.end()) return invalid("no aud");
  if (aud->is_string()) {
    return aud->get_ref<const std::string&>() == expected ? Status::ok() : invalid("wrong aud");
  }
  if (!aud->is_array()) return invalid("aud is not a string or an array");
  bool found = false;
  for (const json& entry : *aud) {
    if (!entry.is_string()) return invalid("aud holds a non-string");
    found = found || entry.get_ref<const std::string&>() == expected;
  }
  return found ? Status::ok() : invalid("wrong aud");
}

Result<json> verify_parts(const Parts& parts, const KeyLookup& find_key, int64_t now,
                          std::optional<std::string_view> expected_aud, int64_t leeway) {
  const std::optional<json> header = decode_object(parts.header);
  if (!header) return invalid("header is not a base64url JSON object");
  Result<const SigningKey*> key = check_header(*header, find_key);
  if (!key) return key.status();
  const std::optional<std::string> signature = base64url_decode(parts.signature);
  if (!signature || !signature_holds(**key, parts.signing_input, *signature)) {
    return invalid("bad signature");
  }
  std::optional<json> claims = decode_object(parts.payload);
  if (!claims) return invalid("payload is not a base64url JSON object");
  if (Status times = check_times(*claims, now, leeway); !times) return times;
  if (expected_aud) {
    if (Status aud = check_audience(*claims, *expected_aud); !aud) return aud;
  }
  return std::move(*claims);
}

}  // namespace

Result<std::string> sign(const SigningKey& key, const json& claims) {
  if (!claims.is_object()) return Status::validation("token claims must be a JSON object");
  std::string payload;
  try {
    payload = claims.dump();
  } catch (const json::exception&) {
    return Status::validation("token claims hold a string that is not UTF-8");
  }
  const json header{{"alg", alg_name(key.alg())}, {"kid", key.kid()}, {"typ", "JWT"}};
  std::string token = base64url_encode(header.dump()) + '.' + base64url_encode(payload);
  const std::optional<std::string> signature = key.alg() == Alg::kEs256
                                                   ? es256_sign(key.es256_key(), token)
                                                   : hs256_mac(key.hs256_secret(), token);
  if (!signature) {
    ERR_clear_error();
    return Status::internal("token signing failed");
  }
  token += '.';
  token += base64url_encode(*signature);
  return token;
}

Result<json> verify(std::string_view token, const KeyLookup& find_key, int64_t now_s,
                    std::optional<std::string_view> expected_aud, int64_t leeway_s) {
  if (token.size() > kMaxTokenBytes) return invalid("too long");
  const std::optional<Parts> parts = split(token);
  if (!parts) return invalid("not three parts");
  try {
    return verify_parts(*parts, find_key, now_s, expected_aud, leeway_s < 0 ? 0 : leeway_s);
  } catch (const std::exception&) {
    // Only an allocation or the lookup callback can throw: the platform failed, not the token.
    return Status::internal("token check failed");
  }
}

}  // namespace opbase::auth
