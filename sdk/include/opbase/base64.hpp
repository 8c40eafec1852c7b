// Base64 both ways (RFC 4648): standard with padding (section 4; Standard Webhooks secrets and
// signatures) and base64url without padding (section 5; every part of a JWS, JWK coordinates,
// random tokens). Pure functions; safe from any thread.
//
// Decoding is strict, so each byte string has exactly one spelling: a character outside the
// alphabet, padding where there should be none (or the wrong amount), a length no byte string
// encodes to, or non-zero unused bits in the last character all answer nullopt. A token or a
// secret cannot be re-spelled into a different string that still works.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace opbase {

std::string base64_encode(std::string_view bytes);
std::optional<std::string> base64_decode(std::string_view text);

std::string base64url_encode(std::string_view bytes);
std::optional<std::string> base64url_decode(std::string_view text);

}  // namespace opbase
