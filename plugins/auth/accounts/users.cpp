// Users and their claims in the project's store (see accounts/users.hpp for the layout).
#include "accounts/users.hpp"

#include <algorithm>
#include <cctype>

#include "accounts/email_address.hpp"
#include "opbase/crypto.hpp"
#include "opbase/field_error.hpp"
#include "opbase/iso_time.hpp"
#include "opbase/query.hpp"
#include "opbase/store.hpp"
#include "opbase/store_access.hpp"

namespace opbase::auth {
namespace {

using nlohmann::json;

constexpr std::string_view kUsers = "users";
constexpr std::string_view kClaims = "claims";

json claim_document(const std::string& claim_key, std::string_view user_key, int64_t now_ms) {
  return {{"_key", claim_key},
          {"_userkey", nullptr},
          {"_created_at", iso_time(now_ms)},
          {"user", user_key},
          {"claimed_ms", now_ms}};
}

json user_document(const NewUser& user, const std::string& user_key, int64_t now_ms) {
  const std::string now = iso_time(now_ms);
  json doc = {{"_key", user_key},
              {"_userkey", user_key},
              {"_created_at", now},
              {"_modified_at", now},
              {"email", user.email},
              {"email_lower", canonical_email(user.email)},
              {"email_verified", user.email_verified},
              {"display_name", ""},
              {"name", ""},
              {"surname", ""},
              {"photo_url", ""},
              {"phone_number", ""},
              {"username", nullptr},
              {"username_lower", nullptr},
              {"roles", user.roles},
              {"auth_types", {"email"}},
              {"password_hash", user.password_hash ? json(*user.password_hash) : json(nullptr)}};
  for (const auto& [name, value] : user.profile.items()) doc[name] = value;
  return doc;
}

}  // namespace

std::string email_claim_key(std::string_view email) {
  return "email_" + sha256_hex(canonical_email(email));
}

std::string username_claim_key(std::string_view username) {
  return "username_" + sha256_hex(canonical_email(username));
}

bool is_valid_username(std::string_view username) {
  if (username.size() < 3 || username.size() > 32 ||
      !std::isalnum(static_cast<unsigned char>(username[0]))) {
    return false;
  }
  return std::all_of(username.begin(), username.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '_' || c == '.' || c == '-';
  });
}

json profile_of(const json& user, std::string_view aud) {
  json profile = {{"_userkey", user.value("_key", "")},
                  {"email", user.value("email", "")},
                  {"email_verified", user.value("email_verified", false)},
                  {"display_name", user.value("display_name", "")},
                  {"name", user.value("name", "")},
                  {"surname", user.value("surname", "")},
                  {"photo_url", user.value("photo_url", "")},
                  {"username", user.value("username", json(nullptr))},
                  {"aud", aud},
                  {"roles", user.value("roles", json::array({"user"}))},
                  {"auth_types", user.value("auth_types", json::array({"email"}))}};
  if (const auto phone = user.find("phone_number");
      phone != user.end() && phone->is_string() && !phone->get_ref<const std::string&>().empty()) {
    profile["phone_number"] = *phone;
  }
  if (const auto metadata = user.find("metadata");
      metadata != user.end() && metadata->is_object()) {
    profile["metadata"] = *metadata;
  }
  return profile;
}

Result<json> Users::create(std::string_view project, const NewUser& user, int64_t now_ms) const {
  const std::string user_key = random_hex(16);
  json doc = user_document(user, user_key, now_ms);
  const std::string claim_key = email_claim_key(user.email);
  // One insert request holds one collection, so the claim goes first: a user document never
  // exists without the claim of its e-mail.
  Result<bool> taken = take_claim(project, claim_key, user_key, now_ms);
  if (!taken) return taken.status();
  if (*taken) return Status(code::kEmailAlreadyExists, "an account with this e-mail exists");
  // user.signedup is raised by the store with the user document, in its transaction.
  const store::Events signed_up{"user.signedup", "", "", ""};
  if (Status inserted = store_.insert(project, {std::string(kUsers), {doc}, signed_up});
      !inserted) {
    (void)release_claim(project, claim_key, user_key);
    return inserted;
  }
  return doc;
}

Result<bool> Users::take_claim(std::string_view project, const std::string& claim_key,
                               std::string_view user_key, int64_t now_ms) const {
  const Status inserted =
      store_.insert(project, {std::string(kClaims), {claim_document(claim_key, user_key, now_ms)}});
  if (inserted) return false;
  if (inserted.code() != store::kDuplicateKey) return inserted;
  auto claim = find_by_key(store_, project, kClaims, claim_key);
  if (!claim) return claim.status();
  if (!*claim) return true;  // gone in between: let the caller try again later
  const json holder = (**claim).value("user", json(nullptr));
  if (holder == user_key) return false;
  if (holder.is_string()) {
    Result<bool> held = still_held(project, **claim, claim_key, now_ms);
    if (!held || *held) return held;
  }
  // Given up (user null), or left behind by a sign-up that died before its user was written:
  // take it over, unless someone else does first.
  auto updated = update_where(store_, project, kClaims, {{"_key", claim_key}, {"user", holder}},
                              set_fields({{"user", user_key}, {"claimed_ms", now_ms}}));
  if (!updated) return updated.status();
  return updated->documents.empty();
}

Result<bool> Users::still_held(std::string_view project, const json& claim,
                               const std::string& claim_key, int64_t now_ms) const {
  // A sign-up writes its claim, then its user: a claim younger than this may be one whose user
  // is on its way.
  constexpr int64_t kOrphanAfterMs = 60'000;
  if (now_ms - claim.value("claimed_ms", int64_t{0}) < kOrphanAfterMs) return true;
  auto user = by_key(project, claim.value("user", ""));
  if (!user) return user.status();
  if (!*user) return false;
  const json& username = (**user).value("username", json(nullptr));
  return email_claim_key((**user).value("email", "")) == claim_key ||
         (username.is_string() && username_claim_key(username.get<std::string>()) == claim_key);
}

Status Users::release_claim(std::string_view project, const std::string& claim_key,
                            std::string_view user_key) const {
  auto updated = update_where(store_, project, kClaims, {{"_key", claim_key}, {"user", user_key}},
                              set_fields({{"user", nullptr}}));
  return updated ? Status::ok() : updated.status();
}

Result<std::optional<json>> Users::by_key(std::string_view project,
                                          std::string_view user_key) const {
  return find_by_key(store_, project, kUsers, user_key);
}

// Never a user's key (those are 32 hex digits).
constexpr std::string_view kNoUserKey = "no-such-user";

Result<std::optional<json>> Users::by_email(std::string_view project,
                                            std::string_view email) const {
  auto claim = find_by_key(store_, project, kClaims, email_claim_key(email));
  if (!claim) return claim.status();
  const json no_holder;
  const json& holder = *claim ? (**claim)["user"] : no_holder;
  // Without an account, the second read goes to a key no user has: an unknown address costs
  // the same two reads as a known one, so the time of an answer does not tell them apart.
  auto user = by_key(project, holder.is_string() ? holder.get_ref<const std::string&>()
                                                 : std::string_view(kNoUserKey));
  if (!holder.is_string()) return std::optional<json>();
  if (!user || !*user) return user;
  // A claim and its user are written in two steps; trust the user's own e-mail.
  if ((**user).value("email_lower", "") != canonical_email(email)) return std::optional<json>();
  return user;
}

Result<json> Users::set(std::string_view project, std::string_view user_key, json fields,
                        int64_t now_ms) const {
  fields["_modified_at"] = iso_time(now_ms);
  auto updated =
      update_where(store_, project, kUsers, {{"_key", user_key}}, set_fields(std::move(fields)));
  if (!updated) return updated.status();
  if (updated->documents.empty()) return Status::internal("the account is gone");
  return std::move(updated->documents.front());
}

Result<json> Users::change_email(std::string_view project, const json& user,
                                 std::string_view new_email, int64_t now_ms) const {
  const std::string user_key = user.value("_key", "");
  const std::string old_claim = email_claim_key(user.value("email", ""));
  const std::string new_claim = email_claim_key(new_email);
  if (new_claim != old_claim) {
    Result<bool> taken = take_claim(project, new_claim, user_key, now_ms);
    if (!taken) return taken.status();
    if (*taken) return Status(code::kEmailAlreadyExists, "an account with this e-mail exists");
  }
  auto changed = set(project, user_key,
                     {{"email", new_email},
                      {"email_lower", canonical_email(new_email)},
                      {"email_verified", false}},
                     now_ms);
  if (!changed) return changed;
  if (new_claim != old_claim) (void)release_claim(project, old_claim, user_key);
  return changed;
}

Result<json> Users::change_username(std::string_view project, const json& user,
                                    std::string_view new_username, int64_t now_ms) const {
  const std::string user_key = user.value("_key", "");
  const std::string new_claim = username_claim_key(new_username);
  const json& old = user.value("username", json(nullptr));
  const std::string old_claim = old.is_string() ? username_claim_key(old.get<std::string>()) : "";
  if (new_claim != old_claim) {
    Result<bool> taken = take_claim(project, new_claim, user_key, now_ms);
    if (!taken) return taken.status();
    if (*taken) {
      return field_error("new_username", "this username is taken", {{"reason", "taken"}});
    }
  }
  auto changed =
      set(project, user_key,
          {{"username", new_username}, {"username_lower", canonical_email(new_username)}}, now_ms);
  if (!changed) return changed;
  if (!old_claim.empty() && new_claim != old_claim)
    (void)release_claim(project, old_claim, user_key);
  return changed;
}

}  // namespace opbase::auth
