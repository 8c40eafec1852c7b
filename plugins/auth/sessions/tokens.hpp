// Tokens: issuing the token set of a sign-in (docs/api.md#token-set) and checking id tokens
// (docs/api.md#id-tokens).
//
// An id token is a JWT signed with the project's newest key (keys/key_ring.hpp) with the claims
// sub (= _userkey), aud, iat, exp, project_id, roles, sid and jti. check() is what every
// authenticated call goes through: the signature and times (keys/jwt.hpp), the project, the
// audience when one is expected, and the session (sessions/sessions.hpp), so a token of an ended
// session is TOKEN_INVALID at once. Tokens that passed are remembered until they expire, so a
// repeated token costs a hash lookup and the session check, not a signature verification.
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "keys/key_ring.hpp"
#include "opbase/status.hpp"
#include "sessions/sessions.hpp"

namespace opbase::auth {

struct CheckedToken {
  nlohmann::json claims;
  std::string claims_text;  // the same claims printed, for the gateway's token check
  std::string sid;
  std::string user_key;
  bool expired = false;  // only with allow_expired
};

class Tokens {
 public:
  Tokens(const KeyRing& keys, const Sessions& sessions) : keys_(keys), sessions_(sessions) {}

  // {"id_token","refresh_token","token_type":"bearer","token_info":{...},"user_profile":{...}},
  // the id token living `ttl_s` (the project's id_token_ttl_s).
  Result<nlohmann::json> token_set(std::string_view project, const nlohmann::json& user,
                                   const Session& session, int64_t ttl_s, int64_t now_ms) const;

  // TOKEN_INVALID / TOKEN_EXPIRED as docs/api.md#id-tokens says. With allow_expired, a genuine
  // token past its exp passes with `expired` set (refresh and sign-out accept those).
  Result<CheckedToken> check(std::string_view project, std::string_view token,
                             std::optional<std::string_view> expected_aud, int64_t now_ms,
                             bool allow_expired = false) const;

  // The token's signature, times and project only, not its session: for auth.refresh_token,
  // whose refresh token then says whether the session is live, ended or expired.
  Result<CheckedToken> check_signature(std::string_view project, std::string_view token,
                                       int64_t now_ms, bool allow_expired) const;

  // check() for the gateway, on every signed-in request: the claims as JSON text, shared with
  // the cache rather than copied and printed again.
  Result<std::string> claims_text(std::string_view project, std::string_view token,
                                  int64_t now_ms) const;

 private:
  using Shared = std::shared_ptr<const CheckedToken>;
  struct Remembered {
    std::string project;  // a token is only good in the project whose key signed it
    int64_t exp_s;
    Shared token;
  };
  // Looks tokens up by a string_view without building a string.
  struct TextHash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
  };

  Result<Shared> signature_checked(std::string_view project, std::string_view token, int64_t now_ms,
                                   bool allow_expired) const;
  Result<Shared> session_checked(std::string_view project, std::string_view token,
                                 std::optional<std::string_view> expected_aud, int64_t now_ms,
                                 bool allow_expired) const;
  Result<CheckedToken> verify_signature(std::string_view project, std::string_view token,
                                        int64_t now_ms, bool allow_expired) const;
  Shared remembered(std::string_view project, std::string_view token, int64_t now_ms) const;
  void remember(std::string_view project, std::string_view token, Shared checked) const;

  const KeyRing& keys_;
  const Sessions& sessions_;
  mutable std::shared_mutex mutex_;  // guards verified_; lookups share it
  mutable std::unordered_map<std::string, Remembered, TextHash, std::equal_to<>> verified_;
};

}  // namespace opbase::auth
