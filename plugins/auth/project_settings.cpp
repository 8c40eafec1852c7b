// Per-project auth settings in the store (see project_settings.hpp).
#include "project_settings.hpp"

#include "opbase/iso_time.hpp"
#include "opbase/query.hpp"
#include "opbase/store.hpp"
#include "opbase/store_access.hpp"

namespace opbase::auth {
namespace {

using nlohmann::json;

constexpr std::string_view kSettings = "settings";
constexpr std::string_view kKey = "auth";
constexpr int64_t kReloadMs = 60'000;

json stored_form(const SettingsSeed& s) {
  return {{"enabled", s.enabled},
          {"allow_email_signup", s.allow_email_signup},
          {"authentication_method", s.authentication_method},
          {"verify_email_on_signup", s.verify_email_on_signup},
          {"password_policy_name", s.password_policy_name},
          {"password_policy", to_json(s.password_policy)}};
}

// A stored document read back; fields it lacks (an older layout) keep the seed's values.
Result<SettingsSeed> from_stored(const json& doc, SettingsSeed s) {
  s.enabled = doc.value("enabled", s.enabled);
  s.allow_email_signup = doc.value("allow_email_signup", s.allow_email_signup);
  s.authentication_method = doc.value("authentication_method", s.authentication_method);
  s.verify_email_on_signup = doc.value("verify_email_on_signup", s.verify_email_on_signup);
  s.password_policy_name = doc.value("password_policy_name", s.password_policy_name);
  if (const auto policy = doc.find("password_policy"); policy != doc.end()) {
    auto parsed = policy_from_json(*policy);
    if (!parsed) return Status::internal("stored auth settings: " + parsed.status().message());
    s.password_policy = *parsed;
  }
  return s;
}

}  // namespace

json ProjectSettings::to_answer(const SettingsSeed& s) {
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

Result<std::shared_ptr<const SettingsSeed>> ProjectSettings::of(std::string_view project,
                                                                int64_t now_ms) const {
  {
    const std::lock_guard lock(mutex_);
    const auto it = cache_.find(project);
    if (it != cache_.end() && now_ms - it->second.loaded_ms < kReloadMs) return it->second.settings;
  }
  auto loaded = load(project, now_ms);
  if (!loaded) return loaded;
  const std::lock_guard lock(mutex_);
  cache_[std::string(project)] = {*loaded, now_ms};
  return loaded;
}

Result<std::shared_ptr<const SettingsSeed>> ProjectSettings::load(std::string_view project,
                                                                  int64_t now_ms) const {
  auto found = find_by_key(store_, project, kSettings, kKey);
  if (!found) return found.status();
  if (*found) {
    auto settings = from_stored(**found, seed_);
    if (!settings) return settings.status();
    return std::make_shared<const SettingsSeed>(std::move(*settings));
  }
  json doc = stored_form(seed_);
  doc["_key"] = kKey;
  doc["_userkey"] = nullptr;
  doc["_created_at"] = iso_time(now_ms);
  const Status inserted = store_.insert(project, {std::string(kSettings), {doc}});
  // Another daemon seeding at the same moment wrote the same seed: either copy will do.
  if (!inserted && inserted.code() != store::kDuplicateKey) return inserted;
  return std::make_shared<const SettingsSeed>(seed_);
}

}  // namespace opbase::auth
