// SealedBox: text kept in the store encrypted under a key that only the holder of a secret can
// derive. The refresh grace uses it: the token set a rotation returned is kept sealed under the
// refresh token it replaced, so a second tab presenting that token moments later gets the same
// set back, and the store alone (which keeps only the token's SHA-256) cannot read it.
//
// AES-256-GCM with a random 96-bit nonce; the key is HMAC-SHA256(secret, a fixed label), a
// different function of the secret than the SHA-256 kept at rest. The box is base64url of
// nonce || ciphertext || tag.
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace opbase::auth {

// Throws std::runtime_error when OpenSSL fails (the SDK responds INTERNAL_ERROR).
std::string seal(std::string_view secret, std::string_view plaintext);

// The plaintext, or nullopt when the box is malformed, was sealed under another secret, or was
// altered.
std::optional<std::string> open_sealed(std::string_view secret, std::string_view box);

}  // namespace opbase::auth
