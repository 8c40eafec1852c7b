// The mail that carries a one-time code: what it is for, the code, and when it expires
// (docs/api.md#one-time-codes: "the mail says the code, what it is for, and when it expires").
// Thread-safety: pure function.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "codes/otp_codes.hpp"
#include "opbase/host_services.hpp"

namespace opbase::auth {

// The mail the host service mail.send sends.
Mail otp_mail(std::string_view to, std::string_view app_name, OtpIntent intent,
              std::string_view code, int64_t lifetime_ms, int64_t expires_ms);

}  // namespace opbase::auth
