// The auth plugin's configuration (conf/opbase.properties, `auth.*`), read once at init. What
// each project may change later (the settings of auth.settings) is seeded from here; see
// project_settings.hpp.
#pragma once

#include <cstdint>
#include <string>

#include "key_ring.hpp"
#include "opbase/host.hpp"
#include "opbase/rate_limiter.hpp"
#include "opbase/status.hpp"
#include "password.hpp"
#include "password_dictionary.hpp"
#include "signin_guard.hpp"

namespace opbase::auth {

struct RateRules {
  SigninRules signin;  // password and code attempts (signin_guard.hpp)
  RateRule send_otp_per_email{5, 900};
  RateRule signup_per_address{20, 3600};
};

// Values a project's stored settings start from (auth.settings).
struct SettingsSeed {
  bool enabled = true;
  bool allow_email_signup = true;
  std::string authentication_method = "password";  // or "otp"
  bool verify_email_on_signup = false;
  std::string password_policy_name = "MEDIUM";  // LOW | MEDIUM | HIGH | CUSTOM
  PasswordPolicy password_policy;               // named_policy(name), or the custom object
};

struct AuthConfig {
  int64_t id_token_ttl_s = 3600;
  int64_t refresh_token_ttl_s = 30 * 86'400;
  // How long a replaced refresh token still returns its replacement's token set, so tabs that
  // refresh at the same moment keep the session; after it, reuse ends the session. 0: never.
  int64_t refresh_grace_s = 10;
  Argon2Params argon2;
  KeyRingPolicy keys;
  // How long a session found live is trusted before the store is asked again. 0: every token
  // check reads the session (signout ends tokens at once on every daemon of a shared store).
  int64_t session_recheck_ms = 1000;
  std::string app_name = "opbase";  // named in the mails
  RateRules rates;
  SettingsSeed seed;
  // Easy-to-guess passwords refused on top of the policy (auth.password_dictionary).
  PasswordDictionary password_dictionary;
  // The first administrator of every project (docs/api.md#invites-and-administrators), made on the
  // project's first use when no account has this e-mail. Empty: none (use `opbase admin create`).
  std::string admin_email;
  std::string admin_password;  // a secret; OPBASE_AUTH_ADMIN_PASSWORD keeps it out of files

  // VALIDATION_ERROR naming the key when a value is malformed or out of range.
  static Result<AuthConfig> load(const Host& host);
};

}  // namespace opbase::auth
