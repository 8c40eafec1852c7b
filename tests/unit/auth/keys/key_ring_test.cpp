// KeyRing on the host's memory store with a fake clock. Two KeyRing objects on one store stand
// for two daemons sharing it: the first ring is made once, rotation happens once however many
// try, a key one makes is found by the other at once (at most one forced load a second), a
// changed alg rotates, and a stored ring that does not parse is an error, never replaced.
#include "keys/key_ring.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "keys/jwt.hpp"
#include "opbase/base64.hpp"
#include "store_backed_host.hpp"

namespace opbase::auth {
namespace {

using nlohmann::json;

constexpr std::string_view kProject = "p1";

// Rotation every 100 s, keys kept 50 s after; reloads every 60 s unless a test says otherwise.
KeyRingPolicy small_policy(Alg alg = Alg::kEs256, int64_t reload_s = 60) {
  return {alg, /*rotate_after_s=*/100, /*retain_s=*/50, reload_s};
}

class KeyRingTest : public ::testing::Test {
 protected:
  std::shared_ptr<const Ring> ring_of(const KeyRing& keys, std::string_view project = kProject) {
    Result<std::shared_ptr<const Ring>> ring = keys.ring(project, env_.now_ms());
    EXPECT_TRUE(ring.is_ok()) << ring.status().to_string();
    return ring.is_ok() ? *ring : std::make_shared<const Ring>();
  }

  std::shared_ptr<const Ring> ring_with(const KeyRing& keys, std::string_view kid) {
    Result<std::shared_ptr<const Ring>> ring = keys.ring_with(kProject, kid, env_.now_ms());
    EXPECT_TRUE(ring.is_ok()) << ring.status().to_string();
    return ring.is_ok() ? *ring : std::make_shared<const Ring>();
  }

  bool knows(const KeyRing& keys, std::string_view kid) {
    return ring_with(keys, kid)->find(kid) != nullptr;
  }

  // The stored ring document, null when there is none.
  json stored(std::string_view project = kProject) {
    store::FindRequest request;
    request.collection = "signing_keys";
    request.scope = store::Scope::everyone();
    request.match = *query::parse_match(json{{"_key", "ring"}}, store::wire_parse_options());
    Result<store::FindAnswer> found = store_.find(project, request);
    EXPECT_TRUE(found.is_ok()) << found.status().to_string();
    return found.is_ok() && !found->documents.empty() ? found->documents.front() : json();
  }

  void overwrite(const json& fields) {
    store::UpdateStep step{*query::parse_match(json{{"_key", "ring"}}, store::wire_parse_options()),
                           {}};
    step.change.set = fields;
    Result<store::UpdateAnswer> updated =
        store_.update(kProject, {"signing_keys", store::Scope::everyone(), {step}});
    ASSERT_TRUE(updated.is_ok()) << updated.status().to_string();
    ASSERT_EQ(updated->documents.size(), 1U);
  }

  std::string token_of(const SigningKey& key) {
    const int64_t now_s = env_.now_ms() / 1000;
    Result<std::string> token =
        sign(key, {{"sub", "user-1"}, {"aud", "p1"}, {"iat", now_s}, {"exp", now_s + 3600}});
    EXPECT_TRUE(token.is_ok()) << token.status().to_string();
    return token.is_ok() ? *token : std::string();
  }

  // What auth.verify_id_token does: the ring that holds the token's kid, then jwt::verify.
  Status verify_with(const KeyRing& keys, const std::string& token) {
    std::shared_ptr<const Ring> ring;
    const KeyLookup lookup = [&](std::string_view kid) -> const SigningKey* {
      Result<std::shared_ptr<const Ring>> found = keys.ring_with(kProject, kid, env_.now_ms());
      if (!found) return nullptr;
      ring = *found;
      return ring->find(kid);
    };
    return verify(token, lookup, env_.now_ms() / 1000, "p1").status();
  }

  test::StoreBackedHost env_{"auth"};
  DocumentStore store_{env_.host()};
};

TEST_F(KeyRingTest, FirstCallMakesAndStoresARingThatASecondDaemonShares) {
  const KeyRing first(store_, {});
  const std::shared_ptr<const Ring> ring = ring_of(first);
  ASSERT_EQ(ring->keys.size(), 1U);
  EXPECT_EQ(ring->keys[0].alg(), Alg::kEs256);
  EXPECT_EQ(ring->version, 1);
  EXPECT_EQ(ring->find(ring->keys[0].kid()), &ring->keys[0]);
  EXPECT_EQ(ring->find("no-such-kid"), nullptr);

  const json doc = stored();
  ASSERT_TRUE(doc.is_object());
  EXPECT_EQ(doc["version"], 1);
  EXPECT_TRUE(doc["_userkey"].is_null());
  ASSERT_EQ(doc["keys"].size(), 1U);
  EXPECT_EQ(doc["keys"][0]["key"]["kid"], ring->keys[0].kid());
  EXPECT_EQ(doc["keys"][0]["created_ms"], env_.now_ms());
  EXPECT_TRUE(doc["keys"][0]["retired_ms"].is_null());

  const KeyRing second(store_, {});
  const std::shared_ptr<const Ring> theirs = ring_of(second);
  ASSERT_EQ(theirs->keys.size(), 1U);
  EXPECT_EQ(theirs->keys[0].kid(), ring->keys[0].kid());
  EXPECT_EQ(theirs->keys[0].public_jwk(), ring->keys[0].public_jwk());
  // Cached: the same snapshot again.
  EXPECT_EQ(ring_of(first), ring);
}

TEST_F(KeyRingTest, CodeSecretIs32BytesStoredAndStableAcrossDaemonsAndRotation) {
  const KeyRing first(store_, small_policy());
  const std::string secret = ring_of(first)->code_secret;
  EXPECT_EQ(secret.size(), 32U);
  EXPECT_EQ(base64url_decode(stored()["code_secret_b64url"].get<std::string>()), secret);
  EXPECT_EQ(ring_of(KeyRing(store_, small_policy()))->code_secret, secret);
  env_.fake().advance_ms(101'000);
  const std::shared_ptr<const Ring> rotated = ring_of(first);
  EXPECT_EQ(rotated->version, 2);
  EXPECT_EQ(rotated->code_secret, secret);
  // Another project has its own.
  EXPECT_NE(ring_of(first, "p2")->code_secret, secret);
}

TEST_F(KeyRingTest, TokensSignedWithTheNewestKeyVerifyThroughRingWith) {
  const KeyRing first(store_, {});
  const std::string token = token_of(ring_of(first)->keys[0]);
  EXPECT_TRUE(verify_with(first, token).is_ok());
  const KeyRing second(store_, {});
  EXPECT_TRUE(verify_with(second, token).is_ok()) << verify_with(second, token).to_string();
  // A key of another project does not verify it.
  const KeyRing other(store_, {});
  const std::string foreign = token_of(ring_of(other, "p2")->keys[0]);
  EXPECT_EQ(verify_with(first, foreign).code(), code::kTokenInvalid);
}

TEST_F(KeyRingTest, RotatesAfterRotateAfterAndDropsTheOldKeyAfterRetain) {
  const KeyRing keys(store_, small_policy());
  const std::string old_kid = ring_of(keys)->keys[0].kid();
  const std::string old_token = token_of(ring_of(keys)->keys[0]);

  env_.fake().advance_ms(100'000);  // exactly rotate_after_s old: not older yet
  EXPECT_EQ(ring_of(keys)->keys[0].kid(), old_kid);
  env_.fake().advance_ms(1);
  const int64_t rotated_at = env_.now_ms();
  const std::shared_ptr<const Ring> rotated = ring_of(keys);
  ASSERT_EQ(rotated->keys.size(), 2U);
  const std::string new_kid = rotated->keys[0].kid();
  EXPECT_NE(new_kid, old_kid);
  EXPECT_EQ(rotated->keys[1].kid(), old_kid);
  EXPECT_EQ(rotated->version, 2);
  EXPECT_EQ(stored()["keys"][1]["retired_ms"], rotated_at);
  EXPECT_EQ(stored()["keys"][0]["key"]["kid"], new_kid);
  EXPECT_TRUE(verify_with(keys, old_token).is_ok());

  env_.fake().advance_ms(50'000);  // retired exactly retain_s ago: still kept
  EXPECT_NE(ring_of(keys)->find(old_kid), nullptr);
  EXPECT_TRUE(knows(keys, old_kid));
  env_.fake().advance_ms(1);
  EXPECT_EQ(ring_of(keys)->find(old_kid), nullptr);
  EXPECT_FALSE(knows(keys, old_kid));
  EXPECT_EQ(ring_of(keys)->keys[0].kid(), new_kid);
  EXPECT_EQ(stored()["keys"].size(), 1U);
  EXPECT_EQ(stored()["version"], 3);
}

// Both daemons hold the ring when rotation falls due. With a long reload_s the second rotates
// from its cache, loses the conditional update and takes the first's ring; with a short one it
// reloads first and finds the rotation done. Either way: one new key.
class KeyRingRaceTest : public KeyRingTest, public ::testing::WithParamInterface<int64_t> {};

TEST_P(KeyRingRaceTest, TwoDaemonsRotatingAtOnceEndWithOneNewestKey) {
  const KeyRing first(store_, small_policy(Alg::kEs256, GetParam()));
  const KeyRing second(store_, small_policy(Alg::kEs256, GetParam()));
  const std::string old_kid = ring_of(first)->keys[0].kid();
  EXPECT_EQ(ring_of(second)->keys[0].kid(), old_kid);

  env_.fake().advance_ms(101'000);
  const std::shared_ptr<const Ring> mine = ring_of(first);
  const std::shared_ptr<const Ring> theirs = ring_of(second);
  EXPECT_NE(mine->keys[0].kid(), old_kid);
  EXPECT_EQ(theirs->keys[0].kid(), mine->keys[0].kid());
  EXPECT_EQ(theirs->version, 2);
  EXPECT_EQ(theirs->keys.size(), 2U);
  EXPECT_EQ(stored()["version"], 2);
  EXPECT_EQ(stored()["keys"].size(), 2U);
  // And it stays settled: no further rotation on either side.
  EXPECT_EQ(ring_of(first)->version, 2);
  EXPECT_EQ(ring_of(second)->version, 2);
}

INSTANTIATE_TEST_SUITE_P(ReloadSeconds, KeyRingRaceTest, ::testing::Values(3600, 60));

TEST_F(KeyRingTest, DaemonsStartingAtOnceShareOneFirstRing) {
  constexpr size_t kDaemons = 4;
  std::vector<std::unique_ptr<KeyRing>> daemons;
  daemons.reserve(kDaemons);
  for (size_t i = 0; i < kDaemons; ++i) {
    daemons.push_back(std::make_unique<KeyRing>(store_, KeyRingPolicy{}));
  }
  const int64_t now = env_.now_ms();
  std::vector<std::string> kids(daemons.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < daemons.size(); ++i) {
    threads.emplace_back([&, i] {
      Result<std::shared_ptr<const Ring>> ring = daemons[i]->ring(kProject, now);
      if (ring) kids[i] = (*ring)->keys[0].kid();
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_FALSE(kids[0].empty());
  EXPECT_EQ(std::set<std::string>(kids.begin(), kids.end()).size(), 1U);
  EXPECT_EQ(stored()["keys"][0]["key"]["kid"], kids[0]);
}

TEST_F(KeyRingTest, Hs256PolicyMakesHs256KeysAndPublishesNone) {
  const KeyRing keys(store_, small_policy(Alg::kHs256));
  const std::shared_ptr<const Ring> ring = ring_of(keys);
  ASSERT_EQ(ring->keys.size(), 1U);
  EXPECT_EQ(ring->keys[0].alg(), Alg::kHs256);
  EXPECT_EQ(stored()["keys"][0]["key"]["alg"], "HS256");
  Result<json> published = keys.jwks(kProject, env_.now_ms());
  ASSERT_TRUE(published.is_ok()) << published.status().to_string();
  EXPECT_EQ(*published, json({{"keys", json::array()}}));
  EXPECT_TRUE(verify_with(keys, token_of(ring->keys[0])).is_ok());
}

TEST_F(KeyRingTest, Es256JwksPublishesThePublicKey) {
  const KeyRing keys(store_, {});
  Result<json> published = keys.jwks(kProject, env_.now_ms());
  ASSERT_TRUE(published.is_ok()) << published.status().to_string();
  ASSERT_EQ((*published)["keys"].size(), 1U);
  EXPECT_EQ((*published)["keys"][0]["kid"], ring_of(keys)->keys[0].kid());
  EXPECT_FALSE((*published)["keys"][0].contains("d"));
  EXPECT_EQ(published->dump().find("PRIVATE"), std::string::npos);
}

TEST_F(KeyRingTest, SwitchingTheAlgRotatesAndTheOldKeyVerifiesUntilRetained) {
  const KeyRing before(store_, small_policy(Alg::kEs256));
  const std::string old_kid = ring_of(before)->keys[0].kid();
  const std::string old_token = token_of(ring_of(before)->keys[0]);

  env_.fake().advance_ms(1'000);  // long before rotate_after_s
  const KeyRing after(store_, small_policy(Alg::kHs256));
  const std::shared_ptr<const Ring> ring = ring_of(after);
  ASSERT_EQ(ring->keys.size(), 2U);
  EXPECT_EQ(ring->keys[0].alg(), Alg::kHs256);
  EXPECT_EQ(ring->keys[1].kid(), old_kid);
  EXPECT_TRUE(verify_with(after, old_token).is_ok());
  Result<json> published = after.jwks(kProject, env_.now_ms());
  ASSERT_TRUE(published.is_ok());
  ASSERT_EQ((*published)["keys"].size(), 1U);
  EXPECT_EQ((*published)["keys"][0]["kid"], old_kid);
  // Settled: the HS256 key is not rotated again.
  EXPECT_EQ(ring_of(after)->version, 2);

  env_.fake().advance_ms(50'001);
  EXPECT_EQ(ring_of(after)->keys.size(), 1U);
  EXPECT_EQ((*after.jwks(kProject, env_.now_ms()))["keys"], json::array());
}

TEST_F(KeyRingTest, RingWithFindsAKidAnotherDaemonJustMadeBeforeReload) {
  const KeyRing mine(store_, small_policy(Alg::kEs256, /*reload_s=*/3600));
  ring_of(mine);
  // Another daemon (configured for HS256) rotates at once.
  const KeyRing theirs(store_, small_policy(Alg::kHs256, 3600));
  const std::string their_kid = ring_of(theirs)->keys[0].kid();
  ASSERT_EQ(ring_of(theirs)->version, 2);

  EXPECT_EQ(ring_of(mine)->find(their_kid), nullptr);  // the cache is an hour good
  EXPECT_TRUE(knows(mine, their_kid));
  EXPECT_TRUE(verify_with(mine, token_of(ring_of(theirs)->keys[0])).is_ok());
}

TEST_F(KeyRingTest, UnknownKidsForceAtMostOneLoadASecond) {
  const KeyRing mine(store_, small_policy(Alg::kEs256, /*reload_s=*/3600));
  ring_of(mine);
  EXPECT_FALSE(knows(mine, "made-up-kid"));  // forces a load, which finds nothing new

  const KeyRing theirs(store_, small_policy(Alg::kHs256, 3600));
  const std::string their_kid = ring_of(theirs)->keys[0].kid();
  EXPECT_FALSE(knows(mine, their_kid));  // within the same second: no second load
  env_.fake().advance_ms(999);
  EXPECT_FALSE(knows(mine, their_kid));
  env_.fake().advance_ms(1);
  EXPECT_TRUE(knows(mine, their_kid));
}

TEST_F(KeyRingTest, UnknownKidWithNothingNewAnswersTheRingWithoutIt) {
  const KeyRing keys(store_, {});
  const std::shared_ptr<const Ring> ring = ring_with(keys, "made-up-kid");
  ASSERT_EQ(ring->keys.size(), 1U);
  EXPECT_EQ(ring->find("made-up-kid"), nullptr);
  EXPECT_EQ(ring->keys[0].kid(), ring_of(keys)->keys[0].kid());
}

// Each corruption, written over a good ring: every daemon that loads it fails, naming the
// collection and not the key material, and the document is left as it was.
TEST_F(KeyRingTest, CorruptStoredRingIsAnInternalErrorAndNeverReplaced) {
  const KeyRing maker(store_, {});
  ring_of(maker);
  const json good = stored();
  const json entry = good["keys"][0];
  json bad_created = entry;
  bad_created["created_ms"] = "yesterday";
  json bad_retired = entry;
  bad_retired["retired_ms"] = "never";
  json bad_pem = entry;
  bad_pem["key"]["private_pem"] = "junk";
  json bad_alg = entry;
  bad_alg["key"]["alg"] = "none";
  const std::vector<json> corruptions = {
      {{"version", "three"}},
      {{"code_secret_b64url", "short"}},
      {{"keys", json::array()}},
      {{"keys", "all of them"}},
      {{"keys", json::array({entry, bad_pem})}},
      {{"keys", json::array({bad_alg})}},
      {{"keys", json::array({bad_created})}},
      {{"keys", json::array({bad_retired})}},
  };
  for (const json& corruption : corruptions) {
    SCOPED_TRACE(corruption.dump());
    overwrite(good);
    overwrite(corruption);
    const json bad = stored();
    const KeyRing keys(store_, {});
    for (const Result<std::shared_ptr<const Ring>>& ring :
         {keys.ring(kProject, env_.now_ms()), keys.ring_with(kProject, "k", env_.now_ms())}) {
      ASSERT_FALSE(ring.is_ok());
      EXPECT_EQ(ring.status().code(), code::kInternalError);
      EXPECT_NE(ring.status().message().find("signing_keys"), std::string::npos);
      EXPECT_EQ(ring.status().message().find("PRIVATE KEY"), std::string::npos);
    }
    EXPECT_FALSE(keys.jwks(kProject, env_.now_ms()).is_ok());
    EXPECT_EQ(stored(), bad);
  }
}

TEST_F(KeyRingTest, ACorruptRingReachesACachingDaemonAtItsNextReload) {
  const KeyRing keys(store_, small_policy());
  ring_of(keys);
  overwrite({{"keys", json::array()}});
  EXPECT_TRUE(keys.ring(kProject, env_.now_ms()).is_ok());  // cached
  env_.fake().advance_ms(60'000);
  EXPECT_EQ(keys.ring(kProject, env_.now_ms()).status().code(), code::kInternalError);
}

TEST_F(KeyRingTest, ABadDocumentStoredBeforeAnyRingIsNotReplaced) {
  const json bad{{"_key", "ring"}, {"_userkey", nullptr}, {"version", 1}};
  ASSERT_TRUE(store_.insert(kProject, {"signing_keys", {bad}}).is_ok());
  const KeyRing keys(store_, {});
  EXPECT_EQ(keys.ring(kProject, env_.now_ms()).status().code(), code::kInternalError);
  EXPECT_EQ(stored(), bad);
}

TEST_F(KeyRingTest, ADeletedRingIsAnErrorNotANewRing) {
  const KeyRing maker(store_, {});
  ring_of(maker);
  store::StateRequest request;
  request.collection = "signing_keys";
  request.scope = store::Scope::everyone();
  request.match = *query::parse_match(json{{"_key", "ring"}}, store::wire_parse_options());
  request.ref = "test";
  ASSERT_TRUE(store_.change_state(kProject, request).is_ok());
  const KeyRing keys(store_, {});
  Result<std::shared_ptr<const Ring>> ring = keys.ring(kProject, env_.now_ms());
  ASSERT_FALSE(ring.is_ok());
  EXPECT_EQ(ring.status().code(), code::kInternalError);
  EXPECT_NE(ring.status().message().find("signing_keys"), std::string::npos);
}

}  // namespace
}  // namespace opbase::auth
