// AuthService: construction, what every op shares, the small ops (settings, nonce) and the
// services (see ops/auth_service.hpp). The sign-in ops are in ops/signin_ops.cpp, the session ops
// in ops/session_ops.cpp, the account ops in ops/account_ops.cpp.
#include "ops/auth_service.hpp"

#include "accounts/email_address.hpp"
#include "codes/otp_mail.hpp"
#include "opbase/field_error.hpp"
#include "ops/auth_context.hpp"
#include "ops/request_fields.hpp"

namespace opbase::auth {

using nlohmann::json;

AuthService::AuthService(const Host& host, AuthConfig config)
    : host_(host),
      config_(std::move(config)),
      store_(host),
      keys_(store_, config_.keys),
      sessions_(store_, config_.session_recheck_ms, config_.refresh_grace_s * 1000),
      tokens_(keys_, sessions_),
      users_(store_),
      codes_(store_),
      limits_(store_),
      guard_(store_, limits_, config_.signin_rules),
      nonces_(store_),
      project_settings_(store_, config_.settings) {}

Result<AuthService::Context> AuthService::context_of(std::string_view project) const {
  const int64_t now = now_ms();
  auto settings = project_settings_.of(project, now);
  if (!settings) return settings.status();
  if (!(*settings)->enabled) {
    return Status(code::kForbidden, "authentication is switched off for this project");
  }
  auto ring = keys_.ring(project, now);
  if (!ring) return ring.status();
  bootstrap_admin(project);
  purge_if_due(project, now);
  return Context{std::string(project), now, std::move(*settings), (*ring)->code_secret};
}

void AuthService::purge_if_due(std::string_view project, int64_t now_ms) const {
  constexpr int64_t kEveryMs = 10 * 60 * 1000;
  constexpr int64_t kDeletedKeptMs = 60 * 60 * 1000;
  {
    const std::lock_guard lock(bootstrap_mutex_);
    auto [it, first] = purged_ms_.try_emplace(std::string(project), now_ms);
    if (!first && now_ms - it->second < kEveryMs) return;
    it->second = now_ms;
  }
  for (const Status& swept : {limits_.sweep_idle(project, now_ms), guard_.sweep(project, now_ms)}) {
    if (!swept) host_.warn("sweeping idle auth documents failed: " + swept.message());
  }
  auto purged = store_.purge(project, {store::State::kDeleted, now_ms - kDeletedKeptMs});
  if (!purged) host_.warn("purging spent auth documents failed: " + purged.status().message());
}

void AuthService::bootstrap_admin(std::string_view project) const {
  if (config_.admin_email.empty()) return;
  {
    const std::lock_guard lock(bootstrap_mutex_);
    if (!bootstrapped_.emplace(project).second) return;
  }
  auto existing = users_.by_email(project, config_.admin_email);
  if (existing && *existing) return;
  auto made =
      admin_create(project, {{"email", config_.admin_email}, {"password", config_.admin_password}});
  if (made) {
    host_.info("project " + std::string(project) + ": administrator " + config_.admin_email +
               " created from auth.admin_email");
  } else if (made.status().code() != code::kEmailAlreadyExists) {
    host_.error("project " + std::string(project) +
                ": auth.admin_email: " + made.status().message());
  }
}

std::string AuthService::audience(const Request& request, std::string_view project) const {
  return expected_audience(request.body).value_or(std::string(project));
}

Status AuthService::spend_code(const Context& context, const std::string& email, OtpIntent intent,
                               std::string_view code) const {
  return codes_.consume(context.project, context.code_secret, canonical_email(email), intent, code,
                        context.now_ms);
}

Status AuthService::send_code(const Context& context, const std::string& email, OtpIntent intent,
                              bool decoy) const {
  auto code = codes_.issue(context.project, context.code_secret, canonical_email(email), intent,
                           context.now_ms);
  if (!code) return code.status();
  const int64_t lifetime = codes_.policy().lifetime_ms;
  Mail mail = otp_mail(email, config_.app_name, intent, *code, lifetime, context.now_ms + lifetime);
  mail.discard = decoy;
  return send_mail(host_, context.project, mail);
}

Result<json> AuthService::mark_verified(const Context& context, json user) const {
  // Any successful use of a code proves the mailbox (docs/api.md#one-time-codes).
  if (user.value("email_verified", false)) return user;
  return users_.set(context.project, user.value("_key", ""), {{"email_verified", true}},
                    context.now_ms);
}

Status AuthService::check_new_password(std::string_view password, const PasswordPolicy& policy,
                                       std::string_view email) const {
  if (Status s = check_password(password, policy); !s) return s;
  Status guessable = config_.password_dictionary.check(password, email);
  if (guessable) return guessable;
  // The same details as a policy failure, with the reason added.
  json details = guessable.details();
  details["policy"] = to_json(policy);
  return Status(guessable.code(), guessable.message(), std::move(details));
}

Result<Reply> AuthService::settings(const Request& request) const {
  auto settings = project_settings_.of(request.project_id, now_ms());
  if (!settings) return settings.status();
  return Reply(ProjectSettings::to_answer(**settings));
}

Result<Reply> AuthService::admin_settings(const Request& request) const {
  auto view = project_settings_.admin_view(request.project_id, now_ms());
  if (!view) return view.status();
  return Reply(std::move(*view));
}

Result<Reply> AuthService::update_settings(const Request& request) const {
  auto changes = StoredSettings::changes_in(request.body);
  if (!changes) return changes.status();
  auto view = project_settings_.change(request.project_id, *changes, now_ms());
  if (!view) return view.status();
  return Reply(std::move(*view));
}

Result<Reply> AuthService::nonce(const Request& request) const {
  auto nonce = nonces_.issue(request.project_id, now_ms());
  if (!nonce) return nonce.status();
  return Reply({{"nonce", *nonce}});
}

Result<std::string> AuthService::verify_token(std::string_view project,
                                              std::string_view input) const {
  auto token = verifier_input_token(input);
  if (!token) return token.status();
  return tokens_.claims_text(project, *token, now_ms());
}

Result<json> AuthService::jwks(std::string_view project, const json& /*input*/) const {
  return keys_.jwks(project, now_ms());
}

Result<json> AuthService::admin_create(std::string_view project, const json& input) const {
  auto context = context_of(project);
  if (!context) return context.status();
  auto email = email_field(input, "email");
  if (!email) return email.status();
  auto password = required_string(input, "password");
  if (!password) return password.status();
  if (Status s = check_new_password(*password, context->settings->password_policy, *email); !s) {
    return s;
  }
  auto profile = profile_fields(input, {"display_name"}, /*strict=*/false);
  if (!profile) return profile.status();
  if (!profile->contains("display_name"))
    (*profile)["display_name"] = email->substr(0, email->find('@'));
  auto hash = hash_password(*password, config_.argon2);
  if (!hash) return hash.status();
  NewUser admin{*email, std::move(*profile), std::move(*hash), {"user", "admin"}, true};
  auto user = users_.create(project, admin, context->now_ms);
  if (!user) return user.status();
  return profile_of(*user, project);
}

Result<json> AuthService::consume_nonce(std::string_view project, const json& input) const {
  const auto nonce = input.find("nonce");
  if (nonce == input.end() || !nonce->is_string()) {
    return field_error("nonce", "nonce is required and must be a string");
  }
  auto valid = nonces_.consume(project, nonce->get_ref<const std::string&>(), now_ms());
  if (!valid) return valid.status();
  return json{{"valid", *valid}};
}

Result<json> AuthService::user_exists(std::string_view project, const json& input) const {
  const auto user = input.find("user");
  if (user == input.end() || !user->is_string()) {
    return field_error("user", "user is required and must be a string");
  }
  auto found = users_.by_key(project, user->get_ref<const std::string&>());
  if (!found) return found.status();
  return json{{"exists", found->has_value()}};
}

}  // namespace opbase::auth
