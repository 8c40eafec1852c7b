// Users: the accounts of a project, kept in its store through the DocumentStore, so both drivers
// serve them (collection `users`, `_key` = the user key, owner = the user).
//
// Uniqueness without a unique index on a field: every e-mail and username in use is a claim, a
// document of collection `claims` whose `_key` is a digest of the canonical (lowercased) value
// and whose `user` names the holder. `_key` is unique in the store on both drivers, so a claim
// can be taken only once; a claim given up has `user` null and is taken over with a conditional
// update. A sign-up writes the claim of its e-mail first, then the user; a claim whose user never
// appeared (the daemon died in between) is taken over after a minute.
//
// The user document: _key, _userkey, _created_at, _modified_at, email (as given), email_lower,
// email_verified, display_name, name, surname, photo_url, phone_number, username (or null),
// username_lower, roles, auth_types, metadata (when set), password_hash (argon2id PHC, or null
// for an account that has none yet).
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "opbase/document_store.hpp"
#include "opbase/status.hpp"

namespace opbase::auth {

// What a new account starts with (docs/api.md#user-profile); the profile fields are already
// checked.
struct NewUser {
  std::string email;
  nlohmann::json profile = nlohmann::json::object();  // display_name, name, ... metadata
  std::optional<std::string> password_hash;
  nlohmann::json roles = {"user"};
  bool email_verified = false;
};

class Users {
 public:
  explicit Users(const DocumentStore& store) : store_(store) {}

  // The stored user. EMAIL_ALREADY_EXISTS when the e-mail is taken.
  Result<nlohmann::json> create(std::string_view project, const NewUser& user,
                                int64_t now_ms) const;

  // nullopt when no user has this e-mail (any case).
  Result<std::optional<nlohmann::json>> by_email(std::string_view project,
                                                 std::string_view email) const;
  Result<std::optional<nlohmann::json>> by_key(std::string_view project,
                                               std::string_view user_key) const;

  // Sets `fields` (top-level names) on the user; the stored user after the change.
  // INTERNAL_ERROR when the user is gone.
  Result<nlohmann::json> set(std::string_view project, std::string_view user_key,
                             nlohmann::json fields, int64_t now_ms) const;

  // Moves the user to `new_email` (unverified, docs/api.md#account-updates): EMAIL_ALREADY_EXISTS
  // when another account holds it. The old address is given up.
  Result<nlohmann::json> change_email(std::string_view project, const nlohmann::json& user,
                                      std::string_view new_email, int64_t now_ms) const;
  // VALIDATION_ERROR (details field new_username, reason "taken") when another account holds it.
  Result<nlohmann::json> change_username(std::string_view project, const nlohmann::json& user,
                                         std::string_view new_username, int64_t now_ms) const;

 private:
  // false when `user_key` now holds the claim (newly, or already); true when another user does.
  Result<bool> take_claim(std::string_view project, const std::string& claim_key,
                          std::string_view user_key, int64_t now_ms) const;
  // Whether a claim's holder still uses it (a user that exists and has this e-mail or name).
  Result<bool> still_held(std::string_view project, const nlohmann::json& claim,
                          const std::string& claim_key, int64_t now_ms) const;
  Status release_claim(std::string_view project, const std::string& claim_key,
                       std::string_view user_key) const;

  const DocumentStore& store_;
};

// `_key` of the claim of an e-mail or a username (canonical form hashed).
std::string email_claim_key(std::string_view email);
std::string username_claim_key(std::string_view username);

// Usernames: 3-32 characters of a-z, A-Z, 0-9, '_', '.', '-', starting with a letter or digit.
bool is_valid_username(std::string_view username);

// The user profile (docs/api.md#user-profile) of a stored user, with `aud` as given.
nlohmann::json profile_of(const nlohmann::json& user, std::string_view aud);

}  // namespace opbase::auth
