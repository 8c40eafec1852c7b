// Sessions in the project's store (see sessions/sessions.hpp).
#include "sessions/sessions.hpp"

#include <algorithm>
#include <optional>

#include "opbase/base64.hpp"
#include "opbase/crypto.hpp"
#include "opbase/iso_time.hpp"
#include "opbase/query.hpp"
#include "opbase/store.hpp"
#include "opbase/store_access.hpp"
#include "sessions/sealed_box.hpp"

namespace opbase::auth {
namespace {

using nlohmann::json;

constexpr std::string_view kSessions = "sessions";
// Bounds the cache of session checks; past it the cache starts over (a re-read per session).
constexpr size_t kMaxKnown = 200'000;

Status invalid() { return {code::kTokenInvalid, "the refresh token is not valid"}; }

std::string cache_key(std::string_view project, std::string_view sid) {
  std::string key(project);
  key += '\n';
  key += sid;
  return key;
}

std::string new_refresh_token(std::string_view sid) {
  return std::string(sid) + "." + base64url_encode(random_bytes(32));
}

bool session_live(const json& session, int64_t now_ms) {
  return !session.value("ended", false) && session.value("expires_ms", int64_t{0}) > now_ms;
}

}  // namespace

std::string Sessions::sid_of(std::string_view refresh_token) {
  const size_t dot = refresh_token.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot > 64) return "";
  return std::string(refresh_token.substr(0, dot));
}

Status Sessions::other_session() {
  return {code::kTokenInvalid, "the refresh token belongs to another session"};
}

Result<Session> Sessions::start(std::string_view project, std::string_view user_key,
                                std::string_view aud, int64_t refresh_ttl_s, int64_t now_ms) const {
  Session session{random_hex(16), std::string(user_key), "", std::string(aud)};
  session.refresh_token = new_refresh_token(session.sid);
  const json doc = {{"_key", session.sid},
                    {"_userkey", user_key},
                    {"_created_at", iso_time(now_ms)},
                    {"user", user_key},
                    {"aud", aud},
                    {"refresh_hash", sha256_hex(session.refresh_token)},
                    {"previous_hashes", json::array()},
                    {"expires_ms", now_ms + refresh_ttl_s * 1000},
                    {"ended", false}};
  // user.signedin, about the user, is raised by the store with the session, in its transaction.
  const store::Events signed_in{"user.signedin", "", "", std::string(user_key)};
  if (Status s = store_.insert(project, {std::string(kSessions), {doc}, signed_in}); !s) return s;
  remember(project, session.sid, {true, now_ms, session.user_key});
  return session;
}

Result<std::optional<json>> Sessions::load(std::string_view project, std::string_view sid) const {
  return find_by_key(store_, project, kSessions, sid);
}

Result<Rotation> Sessions::rotate(std::string_view project, std::string_view refresh_token,
                                  int64_t refresh_ttl_s, int64_t now_ms,
                                  const IssueTokens& issue) const {
  const std::string sid = sid_of(refresh_token);
  if (sid.empty()) return invalid();
  auto loaded = load(project, sid);
  if (!loaded) return loaded.status();
  if (!*loaded) return invalid();
  const json& session = **loaded;
  if (session.value("ended", false)) return invalid();
  const std::string current = session.value("refresh_hash", "");
  if (!constant_time_equal(sha256_hex(refresh_token), current)) {
    return not_current(project, session, refresh_token, now_ms);
  }
  if (session.value("expires_ms", int64_t{0}) <= now_ms) {
    return Status(code::kTokenExpired, "the refresh token has expired");
  }
  Session next{sid, session.value("user", ""), new_refresh_token(sid), session.value("aud", "")};
  auto tokens = issue(next);
  if (!tokens) return tokens.status();
  auto updated = update_where(
      store_, project, kSessions, {{"_key", sid}, {"refresh_hash", current}, {"ended", false}},
      set_fields(rotated_fields(session, refresh_token, next, *tokens, refresh_ttl_s, now_ms)));
  if (!updated) return updated.status();
  if (updated->documents.empty()) {
    // Another refresh with the same token won the race: within the grace it returned the set
    // this one returns too; otherwise the token was used twice.
    auto reloaded = load(project, sid);
    if (!reloaded) return reloaded.status();
    if (!*reloaded) return invalid();
    return not_current(project, **reloaded, refresh_token, now_ms);
  }
  return Rotation{std::move(*tokens), false};
}

json Sessions::rotated_fields(const json& session, std::string_view refresh_token,
                              const Session& next, const json& tokens, int64_t refresh_ttl_s,
                              int64_t now_ms) const {
  const std::string current = session.value("refresh_hash", "");
  json previous = session.value("previous_hashes", json::array());
  previous.insert(previous.begin(), current);
  if (previous.size() > kMaxPreviousHashes)
    previous.erase(previous.begin() + kMaxPreviousHashes, previous.end());
  // Only the token just replaced has a grace: the record of the one before is overwritten.
  json grace = nullptr;
  if (grace_ms_ > 0) {
    grace = {{"hash", current},
             {"until_ms", now_ms + grace_ms_},
             {"sealed", seal(refresh_token, tokens.dump())}};
  }
  return {{"refresh_hash", sha256_hex(next.refresh_token)},
          {"previous_hashes", std::move(previous)},
          {"refreshed_ms", now_ms},
          {"expires_ms", now_ms + refresh_ttl_s * 1000},
          {"grace", std::move(grace)}};
}

Result<Rotation> Sessions::not_current(std::string_view project, const json& session,
                                       std::string_view refresh_token, int64_t now_ms) const {
  if (session.value("ended", false)) return invalid();
  if (std::optional<json> tokens = replay(session, refresh_token, now_ms)) {
    return Rotation{std::move(*tokens), true};
  }
  const std::string presented = sha256_hex(refresh_token);
  const json previous = session.value("previous_hashes", json::array());
  if (std::find(previous.begin(), previous.end(), presented) != previous.end()) {
    (void)end_reused(project, session, now_ms);
  }
  return invalid();
}

std::optional<json> Sessions::replay(const json& session, std::string_view refresh_token,
                                     int64_t now_ms) const {
  const json grace = session.value("grace", json());
  if (!grace.is_object() || grace.value("until_ms", int64_t{0}) < now_ms) return std::nullopt;
  if (!constant_time_equal(sha256_hex(refresh_token), grace.value("hash", ""))) {
    return std::nullopt;
  }
  const std::optional<std::string> text = open_sealed(refresh_token, grace.value("sealed", ""));
  if (!text) return std::nullopt;
  json tokens = json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!tokens.is_object()) return std::nullopt;
  return tokens;
}

Status Sessions::end_reused(std::string_view project, const json& session, int64_t now_ms) const {
  return end(project, session.value("_key", ""), "refresh token reused", now_ms);
}

Status Sessions::end(std::string_view project, std::string_view sid, std::string_view reason,
                     int64_t now_ms, store::Events events) const {
  remember(project, sid, {false, now_ms, ""});
  auto updated =
      update_where(store_, project, kSessions, {{"_key", sid}, {"ended", false}},
                   set_fields({{"ended", true}, {"ended_ms", now_ms}, {"ended_reason", reason}}),
                   std::move(events));
  return updated ? Status::ok() : updated.status();
}

Status Sessions::sign_out(std::string_view project, std::string_view sid, std::string_view user_key,
                          int64_t now_ms) const {
  return end(project, sid, "signout", now_ms,
             store::Events{"", "user.signedout", "", std::string(user_key)});
}

Status Sessions::end_all(std::string_view project, std::string_view user_key,
                         std::string_view reason, int64_t now_ms) const {
  forget_user(project, user_key);
  auto updated =
      update_where(store_, project, kSessions, {{"user", user_key}, {"ended", false}},
                   set_fields({{"ended", true}, {"ended_ms", now_ms}, {"ended_reason", reason}}));
  if (!updated) return updated.status();
  for (const json& session : updated->documents) {
    remember(project, session.value("_key", ""), {false, now_ms, std::string(user_key)});
  }
  return Status::ok();
}

Result<bool> Sessions::is_live(std::string_view project, std::string_view sid,
                               int64_t now_ms) const {
  const std::string key = cache_key(project, sid);
  {
    const std::lock_guard lock(mutex_);
    const auto it = known_.find(key);
    // An ended session stays ended: no need to ask again.
    if (it != known_.end() && (!it->second.live || now_ms - it->second.checked_ms < recheck_ms_)) {
      return it->second.live;
    }
  }
  auto loaded = load(project, sid);
  if (!loaded) return loaded.status();
  const bool live = *loaded && session_live(**loaded, now_ms);
  remember(project, sid, {live, now_ms, *loaded ? (**loaded).value("user", "") : ""});
  return live;
}

void Sessions::remember(std::string_view project, std::string_view sid, Known known) const {
  const std::lock_guard lock(mutex_);
  if (known_.size() >= kMaxKnown) known_.clear();
  known_[cache_key(project, sid)] = std::move(known);
}

void Sessions::forget_user(std::string_view project, std::string_view user_key) const {
  // Until the store responds, no session of the user is trusted from memory.
  const std::string prefix = std::string(project) + "\n";
  const std::lock_guard lock(mutex_);
  std::erase_if(known_, [&](const auto& entry) {
    return entry.second.user_key == user_key && entry.first.starts_with(prefix);
  });
}

}  // namespace opbase::auth
