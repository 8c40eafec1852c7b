// The captcha plugin's configuration (docs/configuration.md#captcha): how hard a challenge is,
// how long it may be used, and how many anonymous inserts one client address may try.
// Read once at start.
#pragma once

#include <cstdint>

#include "opbase/host.hpp"
#include "opbase/rate_limiter.hpp"
#include "opbase/status.hpp"

namespace opbase::captcha {

struct CaptchaSettings {
  // The largest secret number (captcha.maxnumber): a client tries maxnumber / 2 hashes on
  // average. 100,000 takes a phone's browser about a second with the widget's workers.
  int64_t maxnumber = 100'000;
  // How long a challenge may be solved and used (captcha.expires_s).
  int64_t expires_s = 600;
  // Solutions one client address may present (captcha.rate.verify_per_address).
  RateRule verify_per_address{30, 600};

  // VALIDATION_ERROR naming the key for a value out of range.
  static Result<CaptchaSettings> from(const Host& host);
};

}  // namespace opbase::captcha
