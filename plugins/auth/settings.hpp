// The auth plugin's configuration (conf/opbase.properties, `auth.*`), read once at init. The
// settings a project's administrators may change (AuthSettings) take their values from here until
// one is changed; see ops/project_settings.hpp.
#pragma once

#include <cstdint>
#include <string>

#include "keys/key_ring.hpp"
#include "limits/signin_guard.hpp"
#include "opbase/host.hpp"
#include "opbase/rate_limiter.hpp"
#include "opbase/status.hpp"
#include "passwords/password.hpp"
#include "passwords/password_dictionary.hpp"

namespace opbase::auth {

// A project's auth settings (auth.settings, auth.settings.update): the configuration's values,
// with the ones the project's administrators changed over them.
struct AuthSettings {
  bool enabled = true;
  bool allow_email_signup = true;
  std::string authentication_method = "password";  // or "otp"
  bool verify_email_on_signup = false;
  std::string password_policy_name = "MEDIUM";  // LOW | MEDIUM | HIGH | CUSTOM
  PasswordPolicy password_policy;               // named_policy(name), or the custom object
  RateRule send_otp_per_email{5, 900};
  RateRule signup_per_address{20, 3600};
  // Token lifetimes, at most the configuration's (AuthConfig), which set how long retired
  // signing keys are kept.
  int64_t id_token_ttl_s = 3600;
  int64_t refresh_token_ttl_s = 30 * 86'400;
};

struct AuthConfig {
  // The longest token lifetimes: a project's settings may shorten them (AuthSettings).
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
  SigninRules signin_rules;         // password and code attempts (limits/signin_guard.hpp)
  AuthSettings settings;
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
