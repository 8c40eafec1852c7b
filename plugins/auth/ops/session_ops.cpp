// The ops on a signed-in session: auth.signout, auth.refresh_token, auth.verify_id_token
// (docs/api.md#refresh-tokens-and-sessions).
#include "ops/auth_context.hpp"
#include "ops/auth_service.hpp"
#include "ops/request_fields.hpp"

namespace opbase::auth {

using nlohmann::json;

Result<Reply> AuthService::signout(const Request& request) const {
  auto token = required_string(request.body, "id_token", kMaxIdTokenBytes);
  if (!token) return token.status();
  const std::optional<std::string> aud = expected_audience(request.body);
  // An expired token still names its session: signing out with it is allowed.
  auto checked = tokens_.check(request.project_id, *token, aud, now_ms(), /*allow_expired=*/true);
  if (!checked) return checked.status();
  if (Status s = sessions_.sign_out(request.project_id, checked->sid, checked->user_key, now_ms());
      !s) {
    return s;
  }
  return Reply({{"signout", true}});
}

Result<Reply> AuthService::refresh_token(const Request& request) const {
  auto refresh = required_string(request.body, "refresh_token", kMaxRefreshTokenBytes);
  if (!refresh) return refresh.status();
  auto token = required_string(request.body, "id_token", kMaxIdTokenBytes);
  if (!token) return token.status();
  // The id token may have expired (that is why one refreshes); it must still be genuine. Its
  // session is judged by the refresh token: ended or replaced is TOKEN_INVALID, past its life
  // TOKEN_EXPIRED.
  auto checked = tokens_.check_signature(request.project_id, *token, now_ms(),
                                         /*allow_expired=*/true);
  if (!checked) return checked.status();
  if (Sessions::sid_of(*refresh) != checked->sid) return Sessions::other_session();
  const std::string_view project = request.project_id;
  const int64_t now = now_ms();
  auto rotation = rotate_session(project, *refresh, now, [&](const Session& next) -> Result<json> {
    auto user = users_.by_key(project, next.user_key);
    if (!user) return user.status();
    if (!*user) return Status(code::kTokenInvalid, "the account no longer exists");
    return std::move(**user);
  });
  if (!rotation) return rotation.status();
  return Reply(std::move(rotation->tokens));
}

Result<Rotation> AuthService::rotate_session(
    std::string_view project, std::string_view refresh_token, int64_t now_ms,
    const std::function<Result<json>(const Session&)>& user_of) const {
  auto settings = project_settings_.of(project, now_ms);
  if (!settings) return settings.status();
  const AuthSettings& lifetimes = **settings;
  return sessions_.rotate(project, refresh_token, lifetimes.refresh_token_ttl_s, now_ms,
                          [&](const Session& next) -> Result<json> {
                            auto user = user_of(next);
                            if (!user) return user.status();
                            return tokens_.token_set(project, *user, next, lifetimes.id_token_ttl_s,
                                                     now_ms);
                          });
}

Result<Reply> AuthService::verify_id_token(const Request& request) const {
  auto token = required_string(request.body, "id_token", kMaxIdTokenBytes);
  if (!token) return token.status();
  auto checked =
      tokens_.check(request.project_id, *token, expected_audience(request.body), now_ms());
  if (!checked) return checked.status();
  auto user = users_.by_key(request.project_id, checked->user_key);
  if (!user) return user.status();
  if (!*user) return Status(code::kTokenInvalid, "the account no longer exists");
  const json aud = checked->claims.value("aud", json(""));
  json profile = profile_of(**user, aud.is_string() ? aud.get<std::string>() : "");
  // The profile at the top level and under data, so clients reading either work
  // (docs/api.md#the-auth-ops).
  Reply reply(profile);
  reply.with_top_level(std::move(profile));
  return reply;
}

}  // namespace opbase::auth
