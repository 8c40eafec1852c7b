// auth.signup and auth.signin in its four modes: password, password + code, code only, and the
// invite's first sign-in that creates the account (docs/api.md#sign-in-modes).
#include "accounts/email_address.hpp"
#include "opbase/crypto.hpp"
#include "opbase/field_error.hpp"
#include "ops/auth_context.hpp"
#include "ops/auth_service.hpp"
#include "ops/request_fields.hpp"

namespace opbase::auth {

using nlohmann::json;

namespace {

Status invalid_credentials() {
  return {code::kInvalidCredentials, "the e-mail or the password is wrong"};
}

std::string address_bucket(std::string_view kind, std::string_view address) {
  return sha256_hex(std::string(kind) + "|addr|" + std::string(address));
}

}  // namespace

Result<Reply> AuthService::signup(const Request& request) const {
  auto context = context_of(request.project_id);
  if (!context) return context.status();
  if (!context->settings->allow_email_signup) {
    return Status(code::kForbidden, "sign-up with e-mail is closed for this project");
  }
  auto email = email_field(request.body, "email");
  if (!email) return email.status();
  auto password = required_string(request.body, "password");
  if (!password) return password.status();
  auto profile = profile_fields(
      request.body, {"display_name", "name", "surname", "phone_number", "photo_url", "metadata"},
      /*strict=*/false);
  if (!profile) return profile.status();
  if (!profile->contains("display_name")) {
    return field_error("display_name", "display_name is required");
  }
  if (Status s = check_new_password(*password, context->settings->password_policy, *email); !s) {
    return s;
  }
  if (Status s = limits_.take(context->project, address_bucket("signup", request.client_address),
                              context->settings->signup_per_address, context->now_ms);
      !s) {
    return s;
  }
  auto hash = hash_password(*password, config_.argon2);
  if (!hash) return hash.status();
  auto user = users_.create(context->project, {*email, std::move(*profile), std::move(*hash)},
                            context->now_ms);
  if (!user) return user.status();
  if (context->settings->verify_email_on_signup) {
    // The code that verifies the address is a sign-in code (docs/api.md#auth-settings).
    if (Status s = send_code(*context, *email, OtpIntent::kSignin); !s) {
      host_.warn("sign-up verification code not sent: " + s.message());
    }
  }
  return Reply(profile_of(*user, audience(request, context->project)));
}

Result<Reply> AuthService::signin(const Request& request) const {
  auto context = context_of(request.project_id);
  if (!context) return context.status();
  auto grant = required_string(request.body, "grant_type");
  if (!grant) return grant.status();
  if (*grant != "password" && *grant != "otp") {
    return field_error("grant_type", "grant_type must be password or otp");
  }
  auto email = email_field(request.body, "email");
  if (!email) return email.status();
  const std::string aud = audience(request, context->project);
  auto answer = guarded(request, *email, [&] {
    return *grant == "password" ? password_signin(request, *context, *email, aud)
                                : otp_signin(request, *context, *email, aud);
  });
  if (!answer) return answer.status();
  return Reply(std::move(*answer));
}

Result<json> AuthService::guarded(const Request& request, const std::string& email,
                                  const std::function<Result<json>()>& attempt) const {
  auto admitted = guard_.admit(request.project_id, email, request.client_address, now_ms());
  if (!admitted) return admitted.status();
  Result<json> answer = attempt();
  if (answer) {
    guard_.succeeded(request.project_id, *admitted, now_ms());
    return answer;
  }
  const Status status = answer.status();  // a copy: code() refers into it
  const std::string& failed = status.code();
  const bool guess = failed == code::kInvalidCredentials || failed == code::kOtpInvalid ||
                     failed == code::kOtpExpired;
  if (!guess) guard_.released(request.project_id, *admitted);
  return answer;
}

Result<json> AuthService::password_signin(const Request& request, const Context& context,
                                          const std::string& email, const std::string& aud) const {
  auto password = required_string(request.body, "password");
  if (!password) return password.status();
  auto code = optional_string(request.body, "otp", 64);
  if (!code) return code.status();
  auto found = users_.by_email(context.project, email);
  if (!found) return found.status();
  const json no_hash;
  const json& stored = *found ? (**found).value("password_hash", no_hash) : no_hash;
  if (!stored.is_string()) {
    // As slow as a real check, so the answer's time does not say the account is missing.
    verify_dummy_password(*password, config_.argon2);
    return invalid_credentials();
  }
  const std::string hash = stored.get<std::string>();
  if (!verify_password(*password, hash)) return invalid_credentials();
  json user = std::move(**found);
  if (*code) {
    // The second factor is a sign-in code (docs/api.md#sign-in-modes).
    if (Status s = spend_code(context, email, OtpIntent::kSignin, **code); !s) return s;
    auto verified = mark_verified(context, std::move(user));
    if (!verified) return verified.status();
    user = std::move(*verified);
  } else if (context.settings->verify_email_on_signup && !user.value("email_verified", false)) {
    return Status(code::kEmailNotVerified,
                  "verify the e-mail address first: sign in with the code sent to it");
  }
  if (needs_rehash(hash, config_.argon2)) {
    // The configured cost changed: hash again while the password is at hand.
    if (auto rehashed = hash_password(*password, config_.argon2); rehashed) {
      (void)users_.set(context.project, user.value("_key", ""), {{"password_hash", *rehashed}},
                       context.now_ms);
    }
  }
  return signed_in(request, user, aud);
}

Result<json> AuthService::otp_signin(const Request& request, const Context& context,
                                     const std::string& email, const std::string& aud) const {
  auto code = required_string(request.body, "otp", 64);
  if (!code) return code.status();
  // A password in a code sign-in makes it the invite's first sign-in. Its fields are checked
  // before the account is looked up, so the answer does not say whether the account exists.
  if (request.body.contains("password")) {
    auto password = required_string(request.body, "password");
    if (!password) return password.status();
    if (Status s = check_new_password(*password, context.settings->password_policy, email); !s) {
      return s;
    }
    auto profile = profile_fields(request.body, {"display_name", "phone_number"}, false);
    if (!profile) return profile.status();
    if (!profile->contains("display_name")) {
      return field_error("display_name", "display_name is required for an invite sign-in");
    }
  }
  auto found = users_.by_email(context.project, email);
  if (!found) return found.status();
  if (!*found) {
    if (!request.body.contains("password")) {
      return Status(code::kOtpInvalid, "the code is not valid");
    }
    return invite_signin(request, context, email, aud);
  }
  if (Status s = spend_code(context, email, OtpIntent::kSignin, *code); !s) return s;
  auto user = mark_verified(context, std::move(**found));
  if (!user) return user.status();
  return signed_in(request, *user, aud);
}

Result<json> AuthService::invite_signin(const Request& request, const Context& context,
                                        const std::string& email, const std::string& aud) const {
  const std::string code = request.body["otp"].get<std::string>();
  if (Status s = spend_code(context, email, OtpIntent::kInvite, code); !s) return s;
  auto hash = hash_password(request.body["password"].get<std::string>(), config_.argon2);
  if (!hash) return hash.status();
  auto profile = profile_fields(request.body, {"display_name", "phone_number"}, false);
  if (!profile) return profile.status();
  // The code proved the mailbox: the new account starts verified.
  auto user =
      users_.create(context.project, {email, std::move(*profile), std::move(*hash), {"user"}, true},
                    context.now_ms);
  if (!user) return user.status();
  return signed_in(request, *user, aud);
}

Result<json> AuthService::signed_in(const Request& request, const json& user,
                                    const std::string& aud) const {
  // Every way in ends here, after its credentials were checked: only their holder learns the
  // account is disabled (docs/api.md#user-administration).
  if (user.value("disabled", false)) {
    return Status(code::kForbidden, "this account is disabled; ask an administrator",
                  {{"reason", "disabled"}});
  }
  const std::string user_key = user.value("_key", "");
  const int64_t now = now_ms();
  auto settings = project_settings_.of(request.project_id, now);
  if (!settings) return settings.status();
  auto session =
      sessions_.start(request.project_id, user_key, aud, (*settings)->refresh_token_ttl_s, now);
  if (!session) return session.status();
  auto tokens =
      tokens_.token_set(request.project_id, user, *session, (*settings)->id_token_ttl_s, now);
  if (!tokens) return tokens.status();
  return tokens;
}

}  // namespace opbase::auth
