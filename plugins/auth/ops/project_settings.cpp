// Per-project auth settings (see ops/project_settings.hpp).
#include "ops/project_settings.hpp"

#include <string>

#include "opbase/field_error.hpp"

namespace opbase::auth {
namespace {

using nlohmann::json;

constexpr std::string_view kKey = "auth";

std::string rule_text(const RateRule& rule) {
  if (rule.limit == 0) return "off";
  return std::to_string(rule.limit) + "/" + std::to_string(rule.window_s);
}

// The settings as names and values, the form they are stored and shown in. `enabled` is among
// them because projects first used by earlier versions have it stored, but only the
// configuration switches auth off: from the console it would lock the console out.
json values_of(const AuthSettings& s) {
  return {{"enabled", s.enabled},
          {"allow_email_signup", s.allow_email_signup},
          {"authentication_method", s.authentication_method},
          {"verify_email_on_signup", s.verify_email_on_signup},
          {"password_policy_name", s.password_policy_name},
          {"password_policy", to_json(s.password_policy)},
          {"send_otp_per_email", rule_text(s.send_otp_per_email)},
          {"signup_per_address", rule_text(s.signup_per_address)},
          {"id_token_ttl_s", s.id_token_ttl_s},
          {"refresh_token_ttl_s", s.refresh_token_ttl_s}};
}

Status wrong(const std::string& field, const std::string& what) {
  return field_error(field, "data." + field + " must be " + what);
}

Result<bool> boolean(const json& values, const std::string& field) {
  const json& value = values.at(field);
  if (!value.is_boolean()) return wrong(field, "true or false");
  return value.get<bool>();
}

Result<RateRule> rule(const json& values, const std::string& field) {
  const json& value = values.at(field);
  if (value.is_string()) {
    if (auto parsed = RateRule::parse(value.get<std::string>())) return *parsed;
  }
  return wrong(field, "<limit>/<window seconds> (e.g. 10/900), or off");
}

// A lifetime from `min` up to the configuration's, which is the longest (see AuthConfig).
Result<int64_t> lifetime(const json& values, const std::string& field, int64_t min, int64_t max) {
  const json& value = values.at(field);
  if (!value.is_number_integer() || value.get<int64_t>() < min || value.get<int64_t>() > max) {
    return wrong(field, "an integer from " + std::to_string(min) + " to " + std::to_string(max) +
                            " (the configuration's auth." + field + ", the longest allowed)");
  }
  return value.get<int64_t>();
}

// `longest`: the configuration's settings, whose token lifetimes are the longest allowed.
Result<AuthSettings> from_values(const json& values, const AuthSettings& longest) {
  AuthSettings s;
  for (auto [field, out] :
       {std::pair{"enabled", &s.enabled}, std::pair{"allow_email_signup", &s.allow_email_signup},
        std::pair{"verify_email_on_signup", &s.verify_email_on_signup}}) {
    auto value = boolean(values, field);
    if (!value) return value.status();
    *out = *value;
  }
  const json& method = values.at("authentication_method");
  if (method != "password" && method != "otp") {
    return wrong("authentication_method", "password or otp");
  }
  s.authentication_method = method.get<std::string>();
  const json& name = values.at("password_policy_name");
  if (!name.is_string()) return wrong("password_policy", "LOW, MEDIUM, HIGH or a policy object");
  s.password_policy_name = name.get<std::string>();
  auto policy = policy_from_json(values.at("password_policy"));
  if (!policy) return wrong("password_policy", "a policy object: " + policy.status().message());
  s.password_policy = *policy;
  for (auto [field, out] : {std::pair{"send_otp_per_email", &s.send_otp_per_email},
                            std::pair{"signup_per_address", &s.signup_per_address}}) {
    auto parsed = rule(values, field);
    if (!parsed) return parsed.status();
    *out = *parsed;
  }
  auto id_ttl = lifetime(values, "id_token_ttl_s", 60, longest.id_token_ttl_s);
  if (!id_ttl) return id_ttl.status();
  auto refresh_ttl = lifetime(values, "refresh_token_ttl_s", 300, longest.refresh_token_ttl_s);
  if (!refresh_ttl) return refresh_ttl.status();
  s.id_token_ttl_s = *id_ttl;
  s.refresh_token_ttl_s = *refresh_ttl;
  return s;
}

// auth.settings.update takes the policy as one field, a name or an object, as the configuration
// does; it is kept as its name and its rules.
Result<json> stored_changes(const json& data) {
  if (!data.is_object()) return field_error("data", "data must be an object");
  json changes = data;
  if (changes.contains("enabled") || changes.contains("password_policy_name")) {
    const std::string field = changes.contains("enabled") ? "enabled" : "password_policy_name";
    return field_error(
        field,
        "data." + field + " is not a setting: " +
            (field == "enabled" ? "auth is switched off in the configuration (auth.enabled)"
                                : "set password_policy to LOW, MEDIUM, HIGH or a policy object"));
  }
  const auto policy = changes.find("password_policy");
  if (policy == changes.end()) return changes;
  if (policy->is_null()) {
    changes["password_policy_name"] = nullptr;
  } else if (*policy == "LOW" || *policy == "MEDIUM" || *policy == "HIGH") {
    changes["password_policy_name"] = *policy;
    changes["password_policy"] = to_json(named_policy(policy->get<std::string>()));
  } else if (policy->is_object()) {
    changes["password_policy_name"] = "CUSTOM";
  } else {
    return wrong("password_policy", "LOW, MEDIUM, HIGH or a policy object");
  }
  return changes;
}

}  // namespace

ProjectSettings::ProjectSettings(const DocumentStore& store, const AuthSettings& configured)
    : configured_(configured), stored_(store, std::string(kKey), values_of(configured)) {}

Result<std::shared_ptr<const AuthSettings>> ProjectSettings::of(std::string_view project,
                                                                int64_t now_ms) const {
  auto snapshot = stored_.of(project, now_ms);
  if (!snapshot) return snapshot.status();
  auto settings = from_values((*snapshot)->values, configured_);
  // Only this code writes the document, after the same check: a value it cannot read is damage.
  if (!settings) return Status::internal("stored auth settings: " + settings.status().message());
  return std::make_shared<const AuthSettings>(std::move(*settings));
}

Result<json> ProjectSettings::admin_view(std::string_view project, int64_t now_ms) const {
  auto snapshot = stored_.of(project, now_ms);
  if (!snapshot) return snapshot.status();
  return (*snapshot)->view();
}

Result<json> ProjectSettings::change(std::string_view project, const json& data,
                                     int64_t now_ms) const {
  auto changes = stored_changes(data);
  if (!changes) return changes.status();
  auto snapshot = stored_.change(project, *changes, now_ms, [this](const json& values) {
    auto settings = from_values(values, configured_);
    return settings ? Status::ok() : settings.status();
  });
  if (!snapshot) return snapshot.status();
  return (*snapshot)->view();
}

json ProjectSettings::to_answer(const AuthSettings& s) {
  return {{"allow_email_signup", s.allow_email_signup},
          {"allow_oauth_signup", false},
          {"enable_email_provider", s.enabled},
          {"enable_oauth_providers", false},
          {"enabled", s.enabled},
          {"oauth_providers", json::object()},
          {"email_settings",
           {{"account_update_verification_method", "otp"},
            {"authentication_method", s.authentication_method},
            {"enabled", s.enabled},
            {"password_recovery_method", "otp"},
            {"verify_email_on_signup", s.verify_email_on_signup},
            {"password_policy_name", s.password_policy_name},
            {"password_policy", to_json(s.password_policy)}}}};
}

}  // namespace opbase::auth
