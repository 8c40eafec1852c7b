// Randomness and digests the auth plugin stores and compares: unguessable identifiers and
// secrets from OpenSSL's CSPRNG, SHA-256 and HMAC-SHA256 as hex (what is kept at rest instead of
// a secret), and a constant-time comparison. Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace opbase::auth {

// `n` random bytes (RAND_bytes). This and the functions below throw std::runtime_error when the
// generator fails (the SDK turns that into INTERNAL_ERROR), since no caller can go on without it.
std::string random_bytes(size_t n);
// `bytes` random bytes as unpadded base64url.
std::string random_base64url(size_t bytes);
// 16 random bytes as 32 lowercase hex digits: user keys and session ids.
std::string random_hex_id();
// A decimal code of `digits` digits, uniform (rejection sampling, no modulo bias).
std::string random_digits(size_t digits);

// Lowercase hex of SHA-256(text).
std::string sha256_hex(std::string_view text);
// Lowercase hex of HMAC-SHA256(key, text).
std::string hmac_sha256_hex(std::string_view key, std::string_view text);

// Equal length and bytes, in time that depends only on the length.
bool constant_time_equal(std::string_view a, std::string_view b);

}  // namespace opbase::auth
