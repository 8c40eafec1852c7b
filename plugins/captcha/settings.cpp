#include "settings.hpp"

namespace opbase::captcha {

Result<CaptchaSettings> CaptchaSettings::from(const Host& host) {
  CaptchaSettings s;
  auto maxnumber = host.config_int_in("captcha.maxnumber", s.maxnumber, 10, 100'000'000);
  if (!maxnumber) return maxnumber.status();
  s.maxnumber = *maxnumber;
  auto expires = host.config_int_in("captcha.expires_s", s.expires_s, 1, 86'400);
  if (!expires) return expires.status();
  s.expires_s = *expires;
  if (auto text = host.config("captcha.rate.verify_per_address")) {
    auto rule = RateRule::parse(*text);
    if (!rule) {
      return Status::validation("captcha.rate.verify_per_address: " + rule.status().message(),
                                {{"key", "captcha.rate.verify_per_address"}});
    }
    s.verify_per_address = *rule;
  }
  return s;
}

}  // namespace opbase::captcha
