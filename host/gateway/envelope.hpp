// The response envelopes (docs/api.md#envelopes): success {"data": ..., "meta"?: {...}} (plus any
// top-level fields an op sets beside them) and error {"error": {"code", "message", "details"?}}.
// Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "opbase/status.hpp"

namespace opbase::host {

// `data` and `meta` are JSON texts the host already validated; `top_level` a JSON object text
// whose fields other than data/meta/error are set beside them.
std::string success_envelope(std::string_view data, const std::optional<std::string>& meta,
                             const std::optional<std::string>& top_level);

// INTERNAL_ERROR also carries the request id in details (docs/api.md#envelopes).
std::string error_envelope(const Status& status, std::string_view request_id);

// The Retry-After header's value for an error: its `details.retry_after` seconds when the code is
// RATE_LIMIT_EXCEEDED or QUOTA_EXCEEDED and that is an integer; nullopt otherwise.
std::optional<std::string> retry_after(const Status& status);

}  // namespace opbase::host
