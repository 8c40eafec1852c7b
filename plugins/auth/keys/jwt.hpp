// ID tokens as JWTs in compact JWS form (RFC 7515, 7519): ES256 or HS256, the kid in the header.
// verify() is the gate every authenticated call passes: it never throws, and every failure is
// TOKEN_INVALID — except a token that is genuine but past its exp, which is TOKEN_EXPIRED, so a
// client knows to refresh, and INTERNAL_ERROR when find_key throws or memory runs out.
// Thread-safety: pure functions; safe from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "keys/signing_key.hpp"
#include "opbase/status.hpp"

namespace opbase::auth {

// Longer tokens are refused before any parsing.
inline constexpr size_t kMaxTokenBytes = 8 * 1024;

// The key a token's kid names, or null when there is none.
using KeyLookup = std::function<const SigningKey*(std::string_view kid)>;

// header.payload.signature with the header {"alg","kid","typ":"JWT"} of `key`. `claims` must be
// a JSON object with valid UTF-8 strings (VALIDATION_ERROR otherwise); INTERNAL_ERROR only when
// OpenSSL fails.
Result<std::string> sign(const SigningKey& key, const nlohmann::json& claims);

// The claims of a token that passes, in this order: at most kMaxTokenBytes, three base64url
// parts; a header object with string alg and kid; a key for the kid whose alg is the header's
// (so "none", and HS256 signed with an ES256 public key, fail here); the signature; a payload
// object; an integer exp with now_s < exp + leeway_s (else TOKEN_EXPIRED); nbf and iat, when
// present, integers not after now_s + leeway_s; and, when expected_aud is given, an aud that is
// that string or an array of strings holding it. A negative leeway_s counts as 0.
Result<nlohmann::json> verify(std::string_view token, const KeyLookup& find_key, int64_t now_s,
                              std::optional<std::string_view> expected_aud, int64_t leeway_s = 0);

}  // namespace opbase::auth
