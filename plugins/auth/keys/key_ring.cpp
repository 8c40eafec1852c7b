// The key ring (keys/key_ring.hpp): one stored document per project, read into an immutable
// snapshot and cached. Every change — the first ring, a rotation, dropping keys past their retained
// time — is either an insert that fails when the `_key` is taken or an update conditional on the
// version, so daemons sharing a store never overwrite each other; the loser of a race takes the
// winner's ring. A stored ring that does not parse is an error, never a reason to make a new one.
#include "keys/key_ring.hpp"

#include <cstdint>
#include <exception>
#include <optional>
#include <utility>

#include "opbase/base64.hpp"
#include "opbase/crypto.hpp"

namespace opbase::auth {

// dates[i] belongs to ring.keys[i].
struct KeyDates {
  int64_t created_ms = 0;
  std::optional<int64_t> retired_ms;  // when it stopped signing; nullopt while it signs
};
struct StoredRing {
  Ring ring;
  std::vector<KeyDates> dates;
};

namespace {

using nlohmann::json;

constexpr std::string_view kCollection = "signing_keys";
constexpr std::string_view kRingKey = "ring";
constexpr size_t kCodeSecretBytes = 32;
// Each lost race means another daemon wrote a ring that is no longer due, so a second attempt
// nearly always settles it; the bound only stops a pathological fight (daemons with different
// algs) from looping.
constexpr int kWriteAttempts = 4;
constexpr int64_t kForcedLoadGapMs = 1000;

Status corrupt(std::string_view project, std::string_view what) {
  return Status::internal("signing_keys: the stored ring of project '" + std::string(project) +
                          "' cannot be read (" + std::string(what) +
                          "); it is left as it is, since a new ring would sign every user out");
}

std::optional<int64_t> as_int64(const json& object, const char* name) {
  const auto it = object.find(name);
  if (it == object.end() || !it->is_number_integer()) return std::nullopt;
  if (it->is_number_unsigned() && it->get<uint64_t>() > INT64_MAX) return std::nullopt;
  return it->get<int64_t>();
}

// {_key: "ring"}, and the version too for a conditional update.
query::Match ring_match(std::optional<int64_t> version) {
  json match{{"_key", kRingKey}};
  if (version) match["version"] = *version;
  return *query::parse_match(match, store::wire_parse_options());
}

// ---- the stored document and back

Result<json> keys_json(const StoredRing& stored) {
  json keys = json::array();
  for (size_t i = 0; i < stored.ring.keys.size(); ++i) {
    Result<json> key = stored.ring.keys[i].to_json();
    if (!key) return key.status();
    const KeyDates& dates = stored.dates[i];
    keys.push_back({{"key", std::move(*key)},
                    {"created_ms", dates.created_ms},
                    {"retired_ms", dates.retired_ms ? json(*dates.retired_ms) : json(nullptr)}});
  }
  return keys;
}

// One entry of "keys"; the error says what is wrong, never the key material.
Result<KeyDates> parse_entry(const json& entry, std::vector<SigningKey>& keys) {
  if (!entry.is_object()) return Status::internal("not an object");
  const std::optional<int64_t> created = as_int64(entry, "created_ms");
  if (!created) return Status::internal("created_ms is not an integer");
  KeyDates dates{*created, std::nullopt};
  const auto retired = entry.find("retired_ms");
  if (retired != entry.end() && !retired->is_null()) {
    dates.retired_ms = as_int64(entry, "retired_ms");
    if (!dates.retired_ms) return Status::internal("retired_ms is not an integer or null");
  }
  const auto key_json = entry.find("key");
  Result<SigningKey> key = SigningKey::from_json(key_json != entry.end() ? *key_json : json());
  if (!key) return Status::internal(key.status().message());
  keys.push_back(std::move(*key));
  return dates;
}

Result<std::shared_ptr<const StoredRing>> parse_ring(std::string_view project, const json& doc) {
  auto stored = std::make_shared<StoredRing>();
  const std::optional<int64_t> version = as_int64(doc, "version");
  if (!version || *version < 1) return corrupt(project, "version is not a positive integer");
  stored->ring.version = *version;
  const auto secret = doc.find("code_secret_b64url");
  std::optional<std::string> code_secret = secret != doc.end() && secret->is_string()
                                               ? base64url_decode(secret->get<std::string>())
                                               : std::nullopt;
  if (!code_secret || code_secret->size() != kCodeSecretBytes) {
    return corrupt(project, "code_secret_b64url is not 32 bytes of base64url");
  }
  stored->ring.code_secret = std::move(*code_secret);
  const auto keys = doc.find("keys");
  if (keys == doc.end() || !keys->is_array() || keys->empty()) {
    return corrupt(project, "keys is not a non-empty array");
  }
  for (size_t i = 0; i < keys->size(); ++i) {
    Result<KeyDates> dates = parse_entry((*keys)[i], stored->ring.keys);
    if (!dates) {
      return corrupt(project, "keys[" + std::to_string(i) + "]: " + dates.status().message());
    }
    stored->dates.push_back(*dates);
  }
  return std::shared_ptr<const StoredRing>(std::move(stored));
}

// ---- store calls

// The stored ring, or null when the project has none yet.
Result<std::shared_ptr<const StoredRing>> load(const DocumentStore& store,
                                               std::string_view project) {
  store::FindRequest request;
  request.collection = kCollection;
  request.scope = store::Scope::everyone();
  request.match = ring_match(std::nullopt);
  request.limit = 1;
  Result<store::FindAnswer> found = store.find(project, request);
  if (!found) return found.status();
  if (found->documents.empty()) return std::shared_ptr<const StoredRing>();
  return parse_ring(project, found->documents.front());
}

// A first ring: one key of the policy's alg and a fresh code secret.
Result<StoredRing> first_ring(Alg alg, int64_t now_ms) {
  Result<SigningKey> key = SigningKey::generate(alg);
  if (!key) return key.status();
  StoredRing stored;
  try {
    stored.ring.code_secret = random_bytes(kCodeSecretBytes);
  } catch (const std::exception&) {
    return Status::internal("signing_keys: no randomness for the code secret");
  }
  stored.ring.keys.push_back(std::move(*key));
  stored.ring.version = 1;
  stored.dates.push_back({now_ms, std::nullopt});
  return stored;
}

// Stores a first ring; when another daemon stored one first (the `_key` is taken), loads theirs.
Result<std::shared_ptr<const StoredRing>> create(const DocumentStore& store,
                                                 std::string_view project, Alg alg,
                                                 int64_t now_ms) {
  Result<StoredRing> made = first_ring(alg, now_ms);
  if (!made) return made.status();
  Result<json> keys = keys_json(*made);
  if (!keys) return keys.status();
  json doc{{"_key", kRingKey},
           {"_userkey", nullptr},
           {"_created_at", now_ms},
           {"version", made->ring.version},
           {"code_secret_b64url", base64url_encode(made->ring.code_secret)},
           {"keys", std::move(*keys)}};
  const Status inserted = store.insert(project, {std::string(kCollection), {std::move(doc)}});
  if (inserted) {
    return std::shared_ptr<const StoredRing>(std::make_shared<StoredRing>(std::move(*made)));
  }
  if (inserted.code() != store::kDuplicateKey) return inserted;
  Result<std::shared_ptr<const StoredRing>> theirs = load(store, project);
  if (theirs && !*theirs) {
    // Taken, yet no active ring: a deleted or archived one, or another document. Not ours to
    // replace.
    return Status::internal("signing_keys: the _key 'ring' of project '" + std::string(project) +
                            "' is taken, but no active ring is stored under it");
  }
  return theirs;
}

Result<std::shared_ptr<const StoredRing>> load_or_create(const DocumentStore& store,
                                                         std::string_view project, Alg alg,
                                                         int64_t now_ms) {
  Result<std::shared_ptr<const StoredRing>> loaded = load(store, project);
  if (!loaded || *loaded) return loaded;
  return create(store, project, alg, now_ms);
}

// ---- rotation

bool rotation_due(const StoredRing& stored, const KeyRingPolicy& policy, int64_t now_ms) {
  return stored.ring.keys.front().alg() != policy.alg ||
         now_ms - stored.dates.front().created_ms > policy.rotate_after_s * 1000;
}

// Past its retained time, every token the key signed has expired.
bool expired(const KeyDates& dates, const KeyRingPolicy& policy, int64_t now_ms) {
  return dates.retired_ms && *dates.retired_ms + policy.retain_s * 1000 < now_ms;
}

bool write_due(const StoredRing& stored, const KeyRingPolicy& policy, int64_t now_ms) {
  if (rotation_due(stored, policy, now_ms)) return true;
  for (const KeyDates& dates : stored.dates) {
    if (expired(dates, policy, now_ms)) return true;
  }
  return false;
}

// The ring after `stored`: a new newest key when rotation is due (the others retired now), the
// expired keys dropped, the version one up.
Result<StoredRing> next_ring(const StoredRing& stored, const KeyRingPolicy& policy,
                             int64_t now_ms) {
  StoredRing next;
  next.ring.code_secret = stored.ring.code_secret;
  next.ring.version = stored.ring.version + 1;
  const bool rotate = rotation_due(stored, policy, now_ms);
  if (rotate) {
    Result<SigningKey> key = SigningKey::generate(policy.alg);
    if (!key) return key.status();
    next.ring.keys.push_back(std::move(*key));
    next.dates.push_back({now_ms, std::nullopt});
  }
  for (size_t i = 0; i < stored.ring.keys.size(); ++i) {
    KeyDates dates = stored.dates[i];
    if (rotate && !dates.retired_ms) dates.retired_ms = now_ms;
    if (expired(dates, policy, now_ms)) continue;
    next.ring.keys.push_back(stored.ring.keys[i]);
    next.dates.push_back(dates);
  }
  return next;
}

// Writes the ring after `stored` if the stored version is still `stored`'s; null when another
// daemon changed it first.
Result<std::shared_ptr<const StoredRing>> write_next(const DocumentStore& store,
                                                     std::string_view project,
                                                     const StoredRing& stored,
                                                     const KeyRingPolicy& policy, int64_t now_ms) {
  Result<StoredRing> next = next_ring(stored, policy, now_ms);
  if (!next) return next.status();
  Result<json> keys = keys_json(*next);
  if (!keys) return keys.status();
  store::UpdateStep step{ring_match(stored.ring.version), {}};
  step.change.set = {{"version", next->ring.version}, {"keys", std::move(*keys)}};
  Result<store::UpdateAnswer> updated = store.update(
      project, {std::string(kCollection), store::Scope::everyone(), {std::move(step)}});
  if (!updated) return updated.status();
  if (updated->documents.empty()) return std::shared_ptr<const StoredRing>();
  return std::shared_ptr<const StoredRing>(std::make_shared<StoredRing>(std::move(*next)));
}

// The Ring inside a stored ring, sharing its lifetime.
std::shared_ptr<const Ring> view(const std::shared_ptr<const StoredRing>& stored) {
  return {stored, &stored->ring};
}

}  // namespace

const SigningKey* Ring::find(std::string_view kid) const {
  for (const SigningKey& key : keys) {
    if (key.kid() == kid) return &key;
  }
  return nullptr;
}

KeyRing::Cached KeyRing::cached(std::string_view project) const {
  std::lock_guard lock(mutex_);
  const auto it = cache_.find(project);
  return it != cache_.end() ? it->second : Cached{};
}

// Replaces what is cached even with an older version (a load that raced a rotation): the stale
// ring is due, so its next use tries to rotate, loses, and reloads.
void KeyRing::remember(std::string_view project, std::shared_ptr<const StoredRing> stored,
                       int64_t now_ms) const {
  std::lock_guard lock(mutex_);
  auto it = cache_.find(project);
  if (it == cache_.end()) it = cache_.emplace(std::string(project), Cached{}).first;
  it->second.stored = std::move(stored);
  it->second.loaded_ms = now_ms;
}

bool KeyRing::claim_forced_load(std::string_view project, int64_t now_ms) const {
  std::lock_guard lock(mutex_);
  const auto it = cache_.find(project);
  if (it == cache_.end()) return true;
  std::optional<int64_t>& forced = it->second.forced_ms;
  // A clock that went back does not block loads until it catches up.
  if (forced && now_ms >= *forced && now_ms - *forced < kForcedLoadGapMs) return false;
  forced = now_ms;
  return true;
}

Result<std::shared_ptr<const StoredRing>> KeyRing::refresh(std::string_view project,
                                                           std::shared_ptr<const StoredRing> start,
                                                           int64_t now_ms) const {
  std::shared_ptr<const StoredRing> current = std::move(start);
  for (int attempt = 0; attempt < kWriteAttempts; ++attempt) {
    if (!current) {
      Result<std::shared_ptr<const StoredRing>> loaded =
          load_or_create(store_, project, policy_.alg, now_ms);
      if (!loaded) return loaded.status();
      current = std::move(*loaded);
    }
    if (!write_due(*current, policy_, now_ms)) return current;
    Result<std::shared_ptr<const StoredRing>> written =
        write_next(store_, project, *current, policy_, now_ms);
    if (!written) return written.status();
    if (*written) return std::move(*written);
    current = nullptr;  // another daemon changed the ring first: take theirs
  }
  return Status::internal("signing_keys: the ring of project '" + std::string(project) +
                          "' changed under every one of " + std::to_string(kWriteAttempts) +
                          " attempts to rotate it");
}

Result<std::shared_ptr<const Ring>> KeyRing::ring(std::string_view project, int64_t now_ms) const {
  const Cached entry = cached(project);
  const bool fresh = entry.stored && now_ms >= entry.loaded_ms &&
                     now_ms - entry.loaded_ms < policy_.reload_s * 1000;
  if (fresh && !write_due(*entry.stored, policy_, now_ms)) return view(entry.stored);
  // A fresh ring that is due is written from the cache (a lost race reloads); a stale one is
  // loaded first.
  Result<std::shared_ptr<const StoredRing>> stored =
      refresh(project, fresh ? entry.stored : nullptr, now_ms);
  if (!stored) return stored.status();
  remember(project, *stored, now_ms);
  return view(*stored);
}

Result<std::shared_ptr<const Ring>> KeyRing::ring_with(std::string_view project,
                                                       std::string_view kid, int64_t now_ms) const {
  Result<std::shared_ptr<const Ring>> current = ring(project, now_ms);
  if (!current || (*current)->find(kid) != nullptr || !claim_forced_load(project, now_ms)) {
    return current;
  }
  Result<std::shared_ptr<const StoredRing>> loaded = load(store_, project);
  if (!loaded) return loaded.status();
  if (!*loaded) return current;  // nothing stored any more: keep what this daemon has
  remember(project, *loaded, now_ms);
  return view(*loaded);
}

Result<nlohmann::json> KeyRing::jwks(std::string_view project, int64_t now_ms) const {
  Result<std::shared_ptr<const Ring>> current = ring(project, now_ms);
  if (!current) return current.status();
  return auth::jwks((*current)->keys);
}

}  // namespace opbase::auth
