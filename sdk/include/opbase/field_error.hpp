// field_error: the refusal of one request parameter, built the same way in every area, so a
// client always learns which parameter to fix: VALIDATION_ERROR (or the code given:
// CONTENT_EMPTY, PAYLOAD_TOO_LARGE...) with details {"field": <the parameter's name>} and what
// else helps to fix it (`more`: {"reason": "type"}, {"max": 500}...).
//
//   if (!limit->is_number_integer()) return field_error("limit", "limit must be an integer");
//   return field_error("size", "size is over files.max_size", {{"max_size", max}},
//                      code::kPayloadTooLarge);
//
// Thread-safety: a pure function.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "opbase/error_code.hpp"
#include "opbase/status.hpp"

namespace opbase {

// `more` is an object of further details (null or an empty object: none); its "field", if any,
// is overridden by `field`.
Status field_error(std::string_view field, std::string message, nlohmann::json more = nullptr,
                   std::string_view code = code::kValidationError);

}  // namespace opbase
