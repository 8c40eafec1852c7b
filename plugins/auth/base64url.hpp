// base64url without padding (RFC 4648 section 5), the encoding of every part of a JWS (RFC 7515
// section 2) and of JWK coordinates. Pure functions; safe from any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace opbase::auth {

std::string base64url_encode(std::string_view bytes);

// The bytes, or nullopt for text that is not canonical unpadded base64url: padding '=', a
// character outside [A-Za-z0-9_-], a length of 1 mod 4, or non-zero unused bits in the last
// character. Strict so that each byte string has exactly one encoding: a token cannot be
// re-spelled into a different string that still verifies.
std::optional<std::string> base64url_decode(std::string_view text);

}  // namespace opbase::auth
