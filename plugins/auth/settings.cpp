// Reading auth.* once at init. Every bad value names its key, so a start-up that fails says
// which line of the configuration to fix.
#include "settings.hpp"

#include <tuple>

namespace opbase::auth {
namespace {

Status out_of_range(std::string_view key, int64_t min, int64_t max) {
  return Status::validation(
      std::string(key) + " must be between " + std::to_string(min) + " and " + std::to_string(max),
      {{"key", key}});
}

Status read_int(const Host& host, std::string_view key, int64_t min, int64_t max, int64_t* out) {
  auto value = host.config_int(key, *out);
  if (!value) return value.status();
  if (*value < min || *value > max) return out_of_range(key, min, max);
  *out = *value;
  return Status::ok();
}

Status read_bool(const Host& host, std::string_view key, bool* out) {
  const std::optional<std::string> value = host.config(key);
  if (!value) return Status::ok();
  if (*value != "true" && *value != "false") {
    return Status::validation(std::string(key) + " must be true or false", {{"key", key}});
  }
  *out = *value == "true";
  return Status::ok();
}

// A rule in RateRule::parse's form; an unset key keeps the default.
Status read_rule(const Host& host, std::string_view key, RateRule* out) {
  const std::optional<std::string> value = host.config(key);
  if (!value) return Status::ok();
  auto rule = RateRule::parse(*value);
  if (!rule) {
    return Status::validation(
        std::string(key) + " must be <limit>/<window seconds> (e.g. 10/900), or off",
        {{"key", key}});
  }
  *out = *rule;
  return Status::ok();
}

Status read_signin_rules(const Host& host, SigninRules* out) {
  SigninRules& signin = *out;
  RateRule per_email{signin.per_email.free_attempts, signin.per_email.window_s};
  for (auto [key, rule] :
       {std::pair{"auth.rate.signin_per_email_address", &signin.per_email_address},
        std::pair{"auth.rate.signin_failures_per_address", &signin.per_address},
        std::pair{"auth.rate.signin_failures_per_email", &per_email}}) {
    if (Status s = read_rule(host, key, rule); !s) return s;
  }
  signin.per_email.free_attempts = per_email.limit;
  signin.per_email.window_s = per_email.window_s;
  if (Status s =
          read_int(host, "auth.rate.signin_delay_max_s", 1, 86'400, &signin.per_email.max_delay_s);
      !s) {
    return s;
  }
  return read_int(host, "auth.rate.familiar_address_days", 0, 3650, &signin.familiar_days);
}

Status read_argon2(const Host& host, Argon2Params* out) {
  int64_t t = out->t_cost, m = out->m_cost_kib, p = out->parallelism;
  for (auto [key, min, max, value] :
       {std::tuple{"auth.argon2.t_cost", int64_t{1}, int64_t{64}, &t},
        std::tuple{"auth.argon2.m_cost_kib", int64_t{64}, int64_t{4 * 1024 * 1024}, &m},
        std::tuple{"auth.argon2.parallelism", int64_t{1}, int64_t{64}, &p}}) {
    if (Status s = read_int(host, key, min, max, value); !s) return s;
  }
  if (m < 8 * p)
    return Status::validation("auth.argon2.m_cost_kib must be at least 8 * parallelism");
  *out = {static_cast<uint32_t>(t), static_cast<uint32_t>(m), static_cast<uint32_t>(p)};
  return Status::ok();
}

Status read_keys(const Host& host, const AuthConfig& config, KeyRingPolicy* out) {
  const std::string alg = host.config_or("auth.token_alg", "ES256");
  const std::optional<Alg> parsed = alg_from_name(alg);
  if (!parsed)
    return Status::validation("auth.token_alg must be ES256 or HS256", {{"key", "auth.token_alg"}});
  out->alg = *parsed;
  int64_t days = out->rotate_after_s / 86'400;
  if (Status s = read_int(host, "auth.key_rotation_days", 1, 3650, &days); !s) return s;
  out->rotate_after_s = days * 86'400;
  // A retired key verifies until the longest-lived token it signed has expired.
  out->retain_s = std::max(config.id_token_ttl_s, config.refresh_token_ttl_s) + 3600;
  return Status::ok();
}

Status read_settings(const Host& host, AuthSettings* out) {
  for (auto [key, rule] : {std::pair{"auth.rate.send_otp_per_email", &out->send_otp_per_email},
                           std::pair{"auth.rate.signup_per_address", &out->signup_per_address}}) {
    if (Status s = read_rule(host, key, rule); !s) return s;
  }
  for (auto [key, value] :
       {std::pair{"auth.enabled", &out->enabled},
        std::pair{"auth.allow_email_signup", &out->allow_email_signup},
        std::pair{"auth.verify_email_on_signup", &out->verify_email_on_signup}}) {
    if (Status s = read_bool(host, key, value); !s) return s;
  }
  out->authentication_method = host.config_or("auth.authentication_method", "password");
  if (out->authentication_method != "password" && out->authentication_method != "otp") {
    return Status::validation("auth.authentication_method must be password or otp",
                              {{"key", "auth.authentication_method"}});
  }
  const std::string policy = host.config_or("auth.password_policy", "MEDIUM");
  if (policy == "LOW" || policy == "MEDIUM" || policy == "HIGH") {
    out->password_policy_name = policy;
    out->password_policy = named_policy(policy);
    return Status::ok();
  }
  Result<PasswordPolicy> custom =
      policy_from_json(nlohmann::json::parse(policy, nullptr, /*allow_exceptions=*/false));
  if (!custom) {
    return Status::validation(
        "auth.password_policy must be LOW, MEDIUM, HIGH or a policy object: " +
            custom.status().message(),
        {{"key", "auth.password_policy"}});
  }
  out->password_policy_name = "CUSTOM";
  out->password_policy = *custom;
  return Status::ok();
}

}  // namespace

Result<AuthConfig> AuthConfig::load(const Host& host) {
  AuthConfig c;
  if (Status s = read_int(host, "auth.id_token_ttl_s", 60, 86'400, &c.id_token_ttl_s); !s) return s;
  if (Status s =
          read_int(host, "auth.refresh_token_ttl_s", 300, 365 * 86'400, &c.refresh_token_ttl_s);
      !s) {
    return s;
  }
  if (Status s = read_int(host, "auth.refresh_grace_s", 0, 300, &c.refresh_grace_s); !s) return s;
  // A session ends for every daemon within this time; with MongoDB several daemons share the
  // sessions, so the default there is to ask the store every time.
  c.session_recheck_ms = host.config_or("storage.driver", "sqlite") == "mongodb" ? 0 : 1000;
  if (Status s = read_int(host, "auth.session_recheck_ms", 0, 60'000, &c.session_recheck_ms); !s) {
    return s;
  }
  if (Status s = read_argon2(host, &c.argon2); !s) return s;
  if (Status s = read_keys(host, c, &c.keys); !s) return s;
  if (Status s = read_signin_rules(host, &c.signin_rules); !s) return s;
  c.app_name = host.config_or("auth.app_name", c.app_name);
  c.admin_email = host.config_or("auth.admin_email", "");
  c.admin_password = host.config_or("auth.admin_password", "");
  if (!c.admin_email.empty() && c.admin_password.empty()) {
    return Status::validation("auth.admin_email needs auth.admin_password",
                              {{"key", "auth.admin_password"}});
  }
  if (Status s = read_settings(host, &c.settings); !s) return s;
  c.settings.id_token_ttl_s = c.id_token_ttl_s;
  c.settings.refresh_token_ttl_s = c.refresh_token_ttl_s;
  auto dictionary = PasswordDictionary::open(host.config_or("auth.password_dictionary", "system"));
  if (!dictionary) return dictionary.status();
  c.password_dictionary = std::move(*dictionary);
  return c;
}

}  // namespace opbase::auth
