// The ops that change an account: auth.update_profile (signed in), auth.send_otp and
// auth.update_account (by a code sent to the address) (docs/api.md#account-updates).
#include <functional>

#include "accounts/email_address.hpp"
#include "opbase/crypto.hpp"
#include "opbase/field_error.hpp"
#include "ops/auth_context.hpp"
#include "ops/auth_service.hpp"
#include "ops/request_fields.hpp"

namespace opbase::auth {

using nlohmann::json;

namespace {

bool is_admin(const Request& request) {
  if (!request.user_claims().is_object()) return false;
  const json roles = request.user_claims().value("roles", json::array());
  return roles.is_array() && std::find(roles.begin(), roles.end(), "admin") != roles.end();
}

std::string_view next_op(OtpIntent intent) {
  return intent == OtpIntent::kSignin || intent == OtpIntent::kInvite ? "auth.signin"
                                                                      : "auth.update_account";
}

// The new value an update_account intent needs, checked before the code is spent.
// `check_password` judges a new password (its field is renamed new_password in the answer).
Result<std::string> new_value(const Request& request, OtpIntent intent,
                              const std::function<Status(std::string_view)>& check_password) {
  switch (intent) {
    case OtpIntent::kChangePassword: {
      auto password = required_string(request.body, "new_password");
      if (!password) return password;
      if (Status s = check_password(*password); !s) {
        json details = s.details();
        details["field"] = "new_password";
        return Status(s.code(), s.message(), std::move(details));
      }
      return password;
    }
    case OtpIntent::kChangeEmail:
      return email_field(request.body, "new_email");
    case OtpIntent::kChangeUsername: {
      auto username = required_string(request.body, "new_username", 64);
      if (!username) return username;
      if (!is_valid_username(*username)) {
        return field_error(
            "new_username",
            "new_username must be 3-32 letters, digits, '_', '.' or '-', starting with a letter "
            "or digit");
      }
      return username;
    }
    default:
      return field_error("intent",
                         "intent must be change_email, change_password or change_username");
  }
}

}  // namespace

Result<Reply> AuthService::send_otp(const Request& request) const {
  auto context = context_of(request.project_id);
  if (!context) return context.status();
  auto email = email_field(request.body, "email");
  if (!email) return email.status();
  auto intent_text = required_string(request.body, "intent", 64);
  if (!intent_text) return intent_text.status();
  auto intent = parse_intent(*intent_text);
  if (!intent) return intent.status();
  if (*intent == OtpIntent::kInvite && !is_admin(request)) {
    // Only an administrator invites (docs/api.md#invites-and-administrators).
    return request.signed_in()
               ? Status(code::kForbidden, "only an administrator can invite")
               : Status(code::kAuthenticationFailed,
                        "inviting needs an administrator's token: send 'Authorization: Bearer'");
  }
  if (Status s = limits_.take(context->project, sha256_hex("otp|email|" + canonical_email(*email)),
                              context->settings->send_otp_per_email, context->now_ms);
      !s) {
    return s;
  }
  auto found = users_.by_email(context->project, *email);
  if (!found) return found.status();
  if (*intent == OtpIntent::kInvite) {
    if (*found) return Status(code::kEmailAlreadyExists, "an account with this e-mail exists");
    if (Status s = send_code(*context, *email, *intent); !s) return s;
  } else if (*found) {
    // To the address of the account, as stored (change_email too).
    if (Status s = send_code(*context, (**found).value("email", *email), *intent); !s) return s;
  } else if (Status s = send_code(*context, *email, *intent, /*decoy=*/true); !s) {
    return s;
  }
  // The same answer whether or not the account exists (docs/api.md#no-enumeration).
  return Reply({{"otp", true}, {"next_op", next_op(*intent)}});
}

Result<Reply> AuthService::update_account(const Request& request) const {
  auto context = context_of(request.project_id);
  if (!context) return context.status();
  auto email = email_field(request.body, "email");
  if (!email) return email.status();
  auto code = required_string(request.body, "otp", 64);
  if (!code) return code.status();
  auto intent_text = required_string(request.body, "intent", 64);
  if (!intent_text) return intent_text.status();
  auto intent = parse_intent(*intent_text);
  if (!intent) return intent.status();
  auto value = new_value(request, *intent, [&](std::string_view password) {
    return check_new_password(password, context->settings->password_policy, *email);
  });
  if (!value) return value.status();
  auto changed = guarded(request, *email, [&]() -> Result<json> {
    auto found = users_.by_email(context->project, *email);
    if (!found) return found.status();
    if (!*found) return Status(code::kOtpInvalid, "the code is not valid");
    if (Status s = spend_code(*context, *email, *intent, *code); !s) return s;
    auto user = mark_verified(*context, std::move(**found));
    if (!user) return user.status();
    return change_account(*context, *user, *intent, *value);
  });
  if (!changed) return changed.status();
  auto tokens = signed_in(request, *changed, audience(request, context->project));
  if (!tokens) return tokens.status();
  return Reply(std::move(*tokens));
}

Result<json> AuthService::change_account(const Context& context, const json& user, OtpIntent intent,
                                         const std::string& value) const {
  const std::string user_key = user.value("_key", "");
  switch (intent) {
    case OtpIntent::kChangePassword: {
      auto hash = hash_password(value, config_.argon2);
      if (!hash) return hash.status();
      auto changed =
          users_.set(context.project, user_key, {{"password_hash", *hash}}, context.now_ms);
      // A new password ends every session: whoever knew the old one is signed out.
      if (changed)
        (void)sessions_.end_all(context.project, user_key, "password changed", context.now_ms);
      return changed;
    }
    case OtpIntent::kChangeEmail:
      return users_.change_email(context.project, user, value, context.now_ms);
    default:
      return users_.change_username(context.project, user, value, context.now_ms);
  }
}

Result<Reply> AuthService::update_profile(const Request& request) const {
  auto token = required_string(request.body, "id_token", kMaxIdTokenBytes);
  if (!token) return token.status();
  auto refresh = required_string(request.body, "refresh_token", kMaxRefreshTokenBytes);
  if (!refresh) return refresh.status();
  const auto data = request.body.find("data");
  if (data == request.body.end()) {
    return field_error("data", "data is required");
  }
  auto fields = profile_fields(
      *data, {"display_name", "name", "surname", "phone_number", "photo_url", "metadata"},
      /*strict=*/true);
  if (!fields) return fields.status();
  auto checked =
      tokens_.check(request.project_id, *token, expected_audience(request.body), now_ms());
  if (!checked) return checked.status();
  if (Sessions::sid_of(*refresh) != checked->sid) return Sessions::other_session();
  const std::string_view project = request.project_id;
  const int64_t now = now_ms();
  auto rotation = rotate_session(project, *refresh, now, [&](const Session&) {
    return users_.set(project, checked->user_key, std::move(*fields), now);
  });
  if (!rotation) return rotation.status();
  if (rotation->replayed) {
    // Another call replaced this refresh token a moment ago; its change is not this one.
    return Status(code::kTokenInvalid,
                  "the refresh token was just replaced: send the new one with the change");
  }
  return Reply(std::move(rotation->tokens));
}

}  // namespace opbase::auth
