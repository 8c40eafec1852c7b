// Sessions (docs/api.md#refresh-tokens-and-sessions): what a sign-in starts and a sign-out ends.
// Each session is a document of collection `sessions` (`_key` = the session id, the `sid` claim of
// its id tokens) holding the SHA-256 of its current refresh token, never the token.
//
// Refresh tokens are "<sid>.<43 base64url characters>" (256 random bits). Every refresh
// replaces the token by a conditional update on the old hash, so of two refreshes with one
// token only one wins. The replaced token keeps working for a short grace interval, returning
// the very token set its replacement returned: two tabs refreshing at the same moment both go
// on with one session. That set is kept sealed under the replaced token (sessions/sealed_box.hpp),
// so only its holder can read it back; the store keeps only hashes of tokens. After the grace, a
// replaced token presented again ends the whole session (reuse detection). The last
// kMaxPreviousHashes replaced hashes are kept to recognise reuse; an older one is simply
// invalid.
//
// is_live() returns whether id tokens of a session still work. It remembers the answer for
// `recheck_ms`, and a session this daemon ends is dead at once here; other daemons sharing the
// store see it end within their recheck time (0: they read the store on every check).
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_map>

#include "opbase/document_store.hpp"
#include "opbase/status.hpp"

namespace opbase::auth {

inline constexpr size_t kMaxPreviousHashes = 20;

struct Session {
  std::string sid;
  std::string user_key;
  std::string refresh_token;  // only when just made or rotated
  std::string aud;
};

// What a refresh returns: the token set made for the new refresh token, or, for a token
// replaced within the grace interval, the set its replacement returned (`replayed`).
struct Rotation {
  nlohmann::json tokens;
  bool replayed = false;
};

// Makes the token set of a rotated session (its new refresh token in `next`).
using IssueTokens = std::function<Result<nlohmann::json>(const Session& next)>;

class Sessions {
 public:
  // `grace_ms`: how long a replaced refresh token returns its replacement's token set (0: never).
  Sessions(const DocumentStore& store, int64_t recheck_ms, int64_t grace_ms = 0)
      : store_(store), recheck_ms_(recheck_ms), grace_ms_(grace_ms) {}

  // A session whose refresh token lives `refresh_ttl_s` (the project's refresh_token_ttl_s).
  Result<Session> start(std::string_view project, std::string_view user_key, std::string_view aud,
                        int64_t refresh_ttl_s, int64_t now_ms) const;

  // Replaces `refresh_token` by a new one and returns the token set `issue` makes for it, which
  // is written sealed with the replacement, in the same conditional update. A token replaced
  // less than the grace interval ago returns that same set again (replayed). TOKEN_INVALID for
  // an unknown, ended or replaced token (a replaced one past the grace also ends the session),
  // TOKEN_EXPIRED past its life.
  // The new refresh token lives `refresh_ttl_s`.
  Result<Rotation> rotate(std::string_view project, std::string_view refresh_token,
                          int64_t refresh_ttl_s, int64_t now_ms, const IssueTokens& issue) const;

  // The session id a refresh token names ("" when malformed).
  static std::string sid_of(std::string_view refresh_token);
  // TOKEN_INVALID for a refresh token presented with another session's id token.
  static Status other_session();

  // Ends the session; `events` are raised by the store in the same write.
  Status end(std::string_view project, std::string_view sid, std::string_view reason,
             int64_t now_ms, store::Events events = {}) const;
  // The user ended it (auth.signout): user.signedout about `user_key`, with the write.
  Status sign_out(std::string_view project, std::string_view sid, std::string_view user_key,
                  int64_t now_ms) const;
  // Ends every live session of the user (a password change).
  Status end_all(std::string_view project, std::string_view user_key, std::string_view reason,
                 int64_t now_ms) const;

  // Whether the session exists, has not ended and has not expired.
  Result<bool> is_live(std::string_view project, std::string_view sid, int64_t now_ms) const;

 private:
  struct Known {
    bool live = false;
    int64_t checked_ms = 0;
    std::string user_key;
  };
  Result<std::optional<nlohmann::json>> load(std::string_view project, std::string_view sid) const;
  Status end_reused(std::string_view project, const nlohmann::json& session, int64_t now_ms) const;
  // The token set sealed for `refresh_token` when the session replaced it within the grace.
  std::optional<nlohmann::json> replay(const nlohmann::json& session,
                                       std::string_view refresh_token, int64_t now_ms) const;
  // A presented token that is not the current one: replayed within the grace, else invalid
  // (and the session ended when it is a replaced one).
  Result<Rotation> not_current(std::string_view project, const nlohmann::json& session,
                               std::string_view refresh_token, int64_t now_ms) const;
  // The session's next state: the new token's hash, the replaced ones, and the grace record.
  nlohmann::json rotated_fields(const nlohmann::json& session, std::string_view refresh_token,
                                const Session& next, const nlohmann::json& tokens,
                                int64_t refresh_ttl_s, int64_t now_ms) const;
  void remember(std::string_view project, std::string_view sid, Known known) const;
  void forget_user(std::string_view project, std::string_view user_key) const;

  const DocumentStore& store_;
  int64_t recheck_ms_;
  int64_t grace_ms_;
  mutable std::mutex mutex_;                              // guards known_
  mutable std::unordered_map<std::string, Known> known_;  // "<project>\n<sid>"
};

}  // namespace opbase::auth
