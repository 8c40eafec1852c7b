// Issuing and checking id tokens (see sessions/tokens.hpp).
#include "sessions/tokens.hpp"

#include "accounts/users.hpp"
#include "keys/jwt.hpp"
#include "opbase/base64.hpp"
#include "opbase/crypto.hpp"

namespace opbase::auth {
namespace {

using nlohmann::json;

// Bounds the memory of verified tokens; past it the cache starts over.
constexpr size_t kMaxRemembered = 100'000;

Status invalid(std::string_view why) {
  return {code::kTokenInvalid, "the id token is not valid: " + std::string(why)};
}

// RFC 7519 4.1.3: a string, or an array of strings holding the expected one.
bool audience_matches(const json& aud, std::string_view expected) {
  if (aud.is_string()) return aud.get_ref<const std::string&>() == expected;
  if (!aud.is_array()) return false;
  for (const json& entry : aud) {
    if (entry.is_string() && entry.get_ref<const std::string&>() == expected) return true;
  }
  return false;
}

}  // namespace

Result<json> Tokens::token_set(std::string_view project, const json& user, const Session& session,
                               int64_t ttl_s, int64_t now_ms) const {
  auto ring = keys_.ring(project, now_ms);
  if (!ring) return ring.status();
  const int64_t iat = now_ms / 1000;
  const int64_t exp = iat + ttl_s;
  const std::string user_key = user.value("_key", "");
  const json claims = {{"sub", user_key},
                       {"aud", session.aud},
                       {"iat", iat},
                       {"exp", exp},
                       {"project_id", project},
                       {"roles", user.value("roles", json::array({"user"}))},
                       {"sid", session.sid},
                       {"jti", base64url_encode(random_bytes(16))}};
  auto id_token = sign((*ring)->keys.front(), claims);
  if (!id_token) return id_token.status();
  return json{{"id_token", std::move(*id_token)},
              {"refresh_token", session.refresh_token},
              {"token_type", "bearer"},
              {"token_info",
               {{"ttl", ttl_s},
                {"exp", exp},
                {"iat", iat},
                {"aud", session.aud},
                {"_userkey", user_key},
                {"project_id", project}}},
              {"user_profile", profile_of(user, session.aud)}};
}

Result<CheckedToken> Tokens::check_signature(std::string_view project, std::string_view token,
                                             int64_t now_ms, bool allow_expired) const {
  auto checked = signature_checked(project, token, now_ms, allow_expired);
  if (!checked) return checked.status();
  return **checked;
}

Result<CheckedToken> Tokens::check(std::string_view project, std::string_view token,
                                   std::optional<std::string_view> expected_aud, int64_t now_ms,
                                   bool allow_expired) const {
  auto checked = session_checked(project, token, expected_aud, now_ms, allow_expired);
  if (!checked) return checked.status();
  return **checked;
}

Result<std::string> Tokens::claims_text(std::string_view project, std::string_view token,
                                        int64_t now_ms) const {
  auto checked = session_checked(project, token, std::nullopt, now_ms, /*allow_expired=*/false);
  if (!checked) return checked.status();
  return (*checked)->claims_text;
}

Result<Tokens::Shared> Tokens::signature_checked(std::string_view project, std::string_view token,
                                                 int64_t now_ms, bool allow_expired) const {
  if (Shared known = remembered(project, token, now_ms)) return known;
  auto verified = verify_signature(project, token, now_ms, allow_expired);
  if (!verified) return verified.status();
  verified->claims_text = verified->claims.dump();
  auto checked = std::make_shared<const CheckedToken>(std::move(*verified));
  if (!checked->expired) remember(project, token, checked);
  return checked;
}

Result<Tokens::Shared> Tokens::session_checked(std::string_view project, std::string_view token,
                                               std::optional<std::string_view> expected_aud,
                                               int64_t now_ms, bool allow_expired) const {
  auto checked = signature_checked(project, token, now_ms, allow_expired);
  if (!checked) return checked;
  if (expected_aud && !audience_matches((*checked)->claims.value("aud", json()), *expected_aud)) {
    return invalid("wrong audience");
  }
  auto live = sessions_.is_live(project, (*checked)->sid, now_ms);
  if (!live) return live.status();
  if (!*live) return invalid("the session has ended");
  return checked;
}

Result<CheckedToken> Tokens::verify_signature(std::string_view project, std::string_view token,
                                              int64_t now_ms, bool allow_expired) const {
  std::shared_ptr<const Ring> ring;
  Status lookup_failure;
  const KeyLookup find_key = [&](std::string_view kid) -> const SigningKey* {
    auto found = keys_.ring_with(project, kid, now_ms);
    if (!found) {
      lookup_failure = found.status();
      return nullptr;
    }
    ring = std::move(*found);
    return ring->find(kid);
  };
  const int64_t now_s = now_ms / 1000;
  auto claims = verify(token, find_key, now_s, std::nullopt);
  bool expired = false;
  if (!claims && claims.status().code() == code::kTokenExpired && allow_expired) {
    // Genuine but past exp: verify again as of its last valid second to read the claims.
    claims = verify(token, find_key, now_s, std::nullopt, /*leeway_s=*/INT64_MAX / 2);
    expired = true;
  }
  if (!lookup_failure.is_ok()) return lookup_failure;
  if (!claims) return claims.status();
  if (claims->value("project_id", "") != project) return invalid("another project's token");
  const json sid = claims->value("sid", json(nullptr));
  const json sub = claims->value("sub", json(nullptr));
  if (!sid.is_string() || !sub.is_string()) return invalid("no session or subject");
  return CheckedToken{std::move(*claims), "", sid.get<std::string>(), sub.get<std::string>(),
                      expired};
}

Tokens::Shared Tokens::remembered(std::string_view project, std::string_view token,
                                  int64_t now_ms) const {
  const std::shared_lock lock(mutex_);
  const auto it = verified_.find(token);
  if (it == verified_.end() || it->second.project != project) return nullptr;
  // Expired since it was remembered: verify again, which returns TOKEN_EXPIRED.
  if (now_ms / 1000 >= it->second.exp_s) return nullptr;
  return it->second.token;
}

void Tokens::remember(std::string_view project, std::string_view token, Shared checked) const {
  const int64_t exp_s = checked->claims.value("exp", int64_t{0});
  const std::unique_lock lock(mutex_);
  if (verified_.size() >= kMaxRemembered) verified_.clear();
  verified_.insert_or_assign(std::string(token),
                             Remembered{std::string(project), exp_s, std::move(checked)});
}

}  // namespace opbase::auth
