// Reading the parameters of auth ops: each failure is VALIDATION_ERROR with details {"field"},
// so a client learns which parameter to fix. Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "opbase/status.hpp"

namespace opbase::auth {

// Longest accepted text of a profile field and of a secret (password, code, token).
inline constexpr size_t kMaxFieldBytes = 2048;
inline constexpr size_t kMaxMetadataBytes = 16 * 1024;

// A string of 1..max_bytes bytes.
Result<std::string> required_string(const nlohmann::json& body, std::string_view field,
                                    size_t max_bytes = kMaxFieldBytes);
// nullopt when absent or null; else as required_string.
Result<std::optional<std::string>> optional_string(const nlohmann::json& body,
                                                   std::string_view field,
                                                   size_t max_bytes = kMaxFieldBytes);

// An id token or refresh token parameter: a string of at most these many bytes.
inline constexpr size_t kMaxIdTokenBytes = 8 * 1024;
inline constexpr size_t kMaxRefreshTokenBytes = 256;

// The token of the token verifier's input {"token": "..."} (JSON text). The gateway's compact
// form is read without a JSON parser, since it comes with every signed-in request; any other
// spelling is parsed. No token there is TOKEN_INVALID, as for a token that does not verify.
Result<std::string> verifier_input_token(std::string_view input_json);

// The body's `aud` when it is a non-empty string: the audience a token must carry.
std::optional<std::string> expected_audience(const nlohmann::json& body);

// The profile fields of `source` among `allowed` (display_name, name, surname, photo_url,
// phone_number: strings; metadata: an object of at most kMaxMetadataBytes), checked. A field
// not in `allowed` is VALIDATION_ERROR when `strict`, else ignored.
Result<nlohmann::json> profile_fields(const nlohmann::json& source,
                                      std::initializer_list<std::string_view> allowed, bool strict);

}  // namespace opbase::auth
