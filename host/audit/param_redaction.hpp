// What of an admin request's params the audit log keeps in clear (docs/api.md#the-audit-log),
// decided by what a value is rather than by a name's letters:
//   - a field whose name has a secret word as one of its word parts (password, secret, token,
//     otp, code, or api followed by key) has every string in its value, at any depth, replaced
//     by "[redacted]"; numbers, booleans and null stay, since a lifetime, count or limit
//     (id_token_ttl_s) is never a secret;
//   - any other string that is an http(s) URL keeps its scheme, host, port and path, and has
//     its userinfo, each query value and its fragment replaced by "[redacted]": a webhook's
//     ?token=... is a credential whatever the field is named.
// Word parts: a name split at every character that is not a letter or digit, between a lower
// case letter and an upper case one, and between letters and digits ("New_Password",
// "idToken", "api-key" and "token2" each hold a secret word; "_userkey" and "tokenizer" do
// not). A part may also be the word's plural.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace opbase::host {

inline constexpr std::string_view kRedacted = "[redacted]";

// Whether one of `name`'s word parts is a secret word (see above).
bool is_secret_name(std::string_view name);

// `text` with its userinfo, query values and fragment redacted when it is an http(s) URL;
// nullopt when it is not one (no "http://" or "https://", any case, no host, or a space or
// control character in it).
std::optional<std::string> redacted_url(std::string_view text);

// Redacts `params` in place, at any depth (see above).
void redact_params(nlohmann::json& params);

}  // namespace opbase::host
