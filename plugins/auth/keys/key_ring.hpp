// KeyRing: each project's signing keys (docs/api.md#id-tokens), made on the project's first use and
// kept in its store (collection `signing_keys`, one document `_key` = "ring"), so every daemon
// sharing the store signs and verifies with the same keys. The ring also holds the project's code
// secret (32 random bytes) that keys the HMAC of one-time codes.
//
// Rotation: when the newest key is older than `rotate_after_s`, the next signing call makes a
// new key and signs with it; older keys stay in the ring (verifying, never signing) until every
// token they signed has expired (`retain_s` after they stopped signing), then they are dropped.
// The stored ring changes only by a conditional update on its `version`, so two daemons rotating
// at once end with one ring; the loser reloads it.
//
// Changing the algorithm (auth.token_alg, say ES256 to HS256) rotates too: a newest key whose alg
// is not the policy's is due at once, so a key of the new alg signs from the next call while the
// old keys keep verifying until their retained time passes. Daemons sharing a store must
// therefore agree on the alg: two that differ would take turns rotating.
//
// A stored ring that cannot be read is INTERNAL_ERROR naming `signing_keys`, never replaced by a
// new one: that would sign every user out.
//
// Each ring is cached in memory and reloaded from the store at most every `reload_s` seconds, or
// at once when a token names a kid the cache does not know (a key another daemon just made) —
// such forced loads at most once a second per project, so tokens with made-up kids cannot turn
// into a flood of store reads.
// Thread-safety: every method may be called from any thread; rings are immutable snapshots.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keys/signing_key.hpp"
#include "opbase/document_store.hpp"
#include "opbase/status.hpp"

namespace opbase::auth {

// A Ring with the dates rotation needs (keys/key_ring.cpp).
struct StoredRing;

struct KeyRingPolicy {
  Alg alg = Alg::kEs256;                  // for new keys (auth.token_alg)
  int64_t rotate_after_s = 90 * 86'400;   // auth.key_rotation_days
  int64_t retain_s = 30 * 86'400 + 3600;  // at least the longest token lifetime
  int64_t reload_s = 60;
};

// One snapshot of a project's ring.
struct Ring {
  std::vector<SigningKey> keys;  // newest first; keys[0] signs
  std::string code_secret;       // raw bytes
  int64_t version = 0;
  const SigningKey* find(std::string_view kid) const;
};

class KeyRing {
 public:
  KeyRing(const DocumentStore& store, KeyRingPolicy policy) : store_(store), policy_(policy) {}

  // The project's ring, made (and stored) when the project has none yet, rotated when due.
  Result<std::shared_ptr<const Ring>> ring(std::string_view project, int64_t now_ms) const;
  // The ring holding `kid` when there is one: the cached ring, else a fresh load from the store.
  Result<std::shared_ptr<const Ring>> ring_with(std::string_view project, std::string_view kid,
                                                int64_t now_ms) const;
  // {"keys":[public JWKs]} of the project (empty keys for HS256).
  Result<nlohmann::json> jwks(std::string_view project, int64_t now_ms) const;

  const KeyRingPolicy& policy() const { return policy_; }

 private:
  struct Cached {
    std::shared_ptr<const StoredRing> stored;
    int64_t loaded_ms = 0;
    std::optional<int64_t> forced_ms;  // the last load an unknown kid forced
  };

  // The cached entry (a copy), empty when there is none. Lock held only inside.
  Cached cached(std::string_view project) const;
  void remember(std::string_view project, std::shared_ptr<const StoredRing> stored,
                int64_t now_ms) const;
  // Whether an unknown kid may force a load now; if so, takes the project's turn.
  bool claim_forced_load(std::string_view project, int64_t now_ms) const;
  // `start` (or, when null, the stored ring, made if there is none) with any rotation due
  // written to the store. Called without the lock.
  Result<std::shared_ptr<const StoredRing>> refresh(std::string_view project,
                                                    std::shared_ptr<const StoredRing> start,
                                                    int64_t now_ms) const;

  const DocumentStore& store_;
  KeyRingPolicy policy_;
  mutable std::mutex mutex_;  // guards cache_
  mutable std::map<std::string, Cached, std::less<>> cache_;
};

}  // namespace opbase::auth
