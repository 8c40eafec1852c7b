// The failures of a model server call, as the spec's PROCESSING_FAILED: details.error_type says
// what went wrong and details.retry_recommended whether the same request may succeed later.
// Messages quote what the server said, cut short and with the API key taken out.
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "opbase/status.hpp"

namespace opbase::ai {

// details.error_type values.
namespace model_error {
inline constexpr std::string_view kTimeout = "timeout";            // the call's deadline passed
inline constexpr std::string_view kRateLimited = "rate_limited";   // 429 until we gave up
inline constexpr std::string_view kServerError = "server_error";   // 5xx, or a dropped answer
inline constexpr std::string_view kUnreachable = "unreachable";    // no connection
inline constexpr std::string_view kBadRequest = "bad_request";     // another 4xx
inline constexpr std::string_view kUnauthorized = "unauthorized";  // 401, 403
inline constexpr std::string_view kBadAnswer = "bad_answer";     // not JSON, or not the asked shape
inline constexpr std::string_view kBusy = "busy";                // no free slot before the deadline
inline constexpr std::string_view kUnsupported = "unsupported";  // no model, no such endpoint
}  // namespace model_error

// PROCESSING_FAILED with {"error_type", "retry_recommended"}.
Status model_failure(std::string_view error_type, bool retry_recommended, std::string message);

// A bad_answer failure (retry recommended: a model may answer well the next time).
Status bad_answer(std::string message);

// `text` with every occurrence of `secret`, and of any 8 or more of its consecutive characters,
// replaced by "[redacted]" (servers echo keys, sometimes partly: "sk-abc***xyz").
std::string redact_secret(std::string_view text, std::string_view secret);

// At most `max_bytes` of UTF-8 `text` (with the "..." that ends it when it was cut), cut at a
// character boundary.
// Invalid bytes become '?', so the result can always go into JSON.
std::string shorten(std::string_view text, size_t max_bytes = 300);

// What a server said, fit for a message: shortened to `max_bytes` and without `secret`.
std::string quote_server_text(std::string_view text, std::string_view secret,
                              size_t max_bytes = 300);

}  // namespace opbase::ai
