// E-mail addresses as the auth plugin takes them: one bare address (local@domain.tld), at most
// 254 bytes (RFC 5321), no spaces, control characters, quotes or angle brackets, a domain of
// dot-separated labels. Compared case-insensitively (docs/api.md#user-profile): the canonical form
// is the address with ASCII letters lowered, which is what the store indexes.
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "opbase/status.hpp"

namespace opbase::auth {

bool is_valid_email(std::string_view address);
std::string canonical_email(std::string_view address);

// The string field `field` of `body` as a valid address, as given (not lowered).
// VALIDATION_ERROR with details {"field"} when it is missing, not a string or not an address.
Result<std::string> email_field(const nlohmann::json& body, std::string_view field);

}  // namespace opbase::auth
