// AuthService: the auth plugin's ops (docs/api.md#the-auth-ops) and the services it gives the host
// and other plugins, over its components: users, sessions, tokens, one-time codes, rate limits,
// nonces, per-project keys and settings. One object per loaded plugin; every op is a method.
//
// Guarantees the ops keep together (docs/api.md#users-and-authentication):
//  - no enumeration: a wrong password and an unknown e-mail answer the same INVALID_CREDENTIALS
//    after the same argon2id work; send_otp responds the same whether or not the e-mail exists;
//    an OTP sign-in for an unknown e-mail is OTP_INVALID like a wrong code;
//  - a request is checked whole before a code is spent, so a malformed request does not burn it;
//  - every attempt at a password or code is counted before it is checked, per account and
//    address, per address and per account (limits/signin_guard.hpp), and given back when right.
// Thread-safety: every method may be called from any thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>

#include "accounts/users.hpp"
#include "codes/nonces.hpp"
#include "codes/otp_codes.hpp"
#include "keys/key_ring.hpp"
#include "limits/signin_guard.hpp"
#include "opbase/document_store.hpp"
#include "opbase/host.hpp"
#include "opbase/op.hpp"
#include "opbase/rate_limiter.hpp"
#include "ops/project_settings.hpp"
#include "sessions/sessions.hpp"
#include "sessions/tokens.hpp"
#include "settings.hpp"

namespace opbase::auth {

class AuthService {
 public:
  AuthService(const Host& host, AuthConfig config);

  // Ops.
  Result<Reply> signup(const Request& request) const;
  Result<Reply> signin(const Request& request) const;
  Result<Reply> signout(const Request& request) const;
  Result<Reply> update_profile(const Request& request) const;
  Result<Reply> update_account(const Request& request) const;
  Result<Reply> send_otp(const Request& request) const;
  Result<Reply> verify_id_token(const Request& request) const;
  Result<Reply> refresh_token(const Request& request) const;
  Result<Reply> settings(const Request& request) const;
  Result<Reply> nonce(const Request& request) const;

  // Administrators' ops on the project's users (ops/user_admin_ops.cpp,
  // docs/api.md#user-administration).
  Result<Reply> list_users(const Request& request) const;
  Result<Reply> get_user(const Request& request) const;
  Result<Reply> update_user(const Request& request) const;
  Result<Reply> sign_out_user(const Request& request) const;
  // The project's auth settings as administrators see and change them
  // (docs/api.md#project-settings).
  Result<Reply> admin_settings(const Request& request) const;
  Result<Reply> update_settings(const Request& request) const;

  // Services. auth.verify_token {"token"} → the token's claims (the gateway's token check, on
  // every signed-in request: JSON text in and out, see text_service in the SDK).
  Result<std::string> verify_token(std::string_view project, std::string_view input) const;
  // auth.jwks {} → {"keys":[...]}.
  Result<nlohmann::json> jwks(std::string_view project, const nlohmann::json& input) const;
  // auth.admin_create {"email","password","display_name"} → the new admin's profile.
  Result<nlohmann::json> admin_create(std::string_view project, const nlohmann::json& input) const;
  // auth.consume_nonce {"nonce"} → {"valid": bool}, true once per issued nonce.
  Result<nlohmann::json> consume_nonce(std::string_view project, const nlohmann::json& input) const;
  // auth.user_exists {"user": <_userkey>} → {"exists": bool}, for plugins that give a user
  // something (the datastore's claim of anonymous documents).
  Result<nlohmann::json> user_exists(std::string_view project, const nlohmann::json& input) const;

 private:
  struct Context;  // what one op call works with: project, time, settings, ring
  Result<Context> context_of(std::string_view project) const;
  // Replaces the session's refresh token and issues the token set of `user_of(next)` (the
  // account after whatever change the op makes), with the project's token lifetimes.
  Result<Rotation> rotate_session(
      std::string_view project, std::string_view refresh_token, int64_t now_ms,
      const std::function<Result<nlohmann::json>(const Session&)>& user_of) const;

  // Sign-in pieces (ops/signin_ops.cpp).
  Result<nlohmann::json> password_signin(const Request& request, const Context& context,
                                         const std::string& email, const std::string& aud) const;
  Result<nlohmann::json> otp_signin(const Request& request, const Context& context,
                                    const std::string& email, const std::string& aud) const;
  Result<nlohmann::json> invite_signin(const Request& request, const Context& context,
                                       const std::string& email, const std::string& aud) const;
  // Counts the attempt in its sign-in limits, runs `attempt`, and stops counting it unless it
  // failed as a guess does (a wrong password or code).
  Result<nlohmann::json> guarded(const Request& request, const std::string& email,
                                 const std::function<Result<nlohmann::json>()>& attempt) const;
  // A session and token set for `user`, and the user.signedin event.
  Result<nlohmann::json> signed_in(const Request& request, const nlohmann::json& user,
                                   const std::string& aud) const;

  // Spends the code of (email, intent) (OTP_INVALID when there is no account for an intent
  // that needs one is decided by the caller).
  Status spend_code(const Context& context, const std::string& email, OtpIntent intent,
                    std::string_view code) const;
  // Issues a code and queues its mail. A `decoy` (send_otp for an address without an account)
  // makes the same writes, a code nobody is told and a mail the host drops unsent, so the
  // answer takes the same time whether or not the account exists.
  Status send_code(const Context& context, const std::string& email, OtpIntent intent,
                   bool decoy = false) const;
  Result<nlohmann::json> mark_verified(const Context& context, nlohmann::json user) const;
  // update_account's change, once its code was spent: the account after it.
  Result<nlohmann::json> change_account(const Context& context, const nlohmann::json& user,
                                        OtpIntent intent, const std::string& value) const;
  // The project's policy, then the dictionary of easy-to-guess passwords (`email` names the
  // user): WEAK_PASSWORD saying why.
  Status check_new_password(std::string_view password, const PasswordPolicy& policy,
                            std::string_view email) const;

  // Sweeps idle rate buckets, throttles and familiar addresses to the deleted state, and removes
  // for good the auth documents deleted over an hour ago (those, spent nonces), at most every
  // ten minutes per project.
  void purge_if_due(std::string_view project, int64_t now_ms) const;
  // Makes the configured first administrator of a project, once per project and process.
  void bootstrap_admin(std::string_view project) const;
  std::string audience(const Request& request, std::string_view project) const;
  int64_t now_ms() const { return host_.now_ms(); }

  const Host& host_;
  AuthConfig config_;
  DocumentStore store_;
  KeyRing keys_;
  Sessions sessions_;
  Tokens tokens_;
  Users users_;
  OtpCodes codes_;
  RateLimiter limits_;
  SigninGuard guard_;
  Nonces nonces_;
  ProjectSettings project_settings_;
  mutable std::mutex bootstrap_mutex_;  // guards bootstrapped_
  mutable std::set<std::string, std::less<>> bootstrapped_;
  mutable std::map<std::string, int64_t, std::less<>> purged_ms_;  // guarded by bootstrap_mutex_
};

}  // namespace opbase::auth
