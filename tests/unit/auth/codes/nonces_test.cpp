// Nonces on the reference store with a fake clock: single use, unknown and expired ones refused,
// each issue different, never stored in clear, expired ones swept.
#include "codes/nonces.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "store_backed_host.hpp"

namespace opbase::auth {
namespace {

using nlohmann::json;

constexpr std::string_view kProject = "p1";

class NoncesTest : public ::testing::Test {
 protected:
  std::string issue() {
    Result<std::string> nonce = nonces_.issue(kProject, env_.now_ms());
    EXPECT_TRUE(nonce.is_ok()) << nonce.status().to_string();
    return nonce.is_ok() ? *nonce : std::string();
  }

  // consume() as a plain bool; a store failure fails the test.
  bool consume(std::string_view nonce) {
    Result<bool> used = nonces_.consume(kProject, nonce, env_.now_ms());
    EXPECT_TRUE(used.is_ok()) << used.status().to_string();
    return used.is_ok() && *used;
  }

  // Every document of `nonces` in `state`, as the store holds it.
  std::vector<json> documents(store::State state = store::State::kActive) {
    return env_.documents(kProject, "nonces", state);
  }
  size_t stored(store::State state) { return documents(state).size(); }

  opbase::test::StoreBackedHost env_{"auth"};
  DocumentStore store_{env_.host()};
  Nonces nonces_{store_};
};

TEST_F(NoncesTest, ConsumedOnce) {
  const std::string nonce = issue();
  EXPECT_EQ(nonce.size(), 22U);  // 16 bytes of unpadded base64url
  EXPECT_TRUE(consume(nonce));
  EXPECT_FALSE(consume(nonce));
}

TEST_F(NoncesTest, UnknownAndMalformedAreRefused) {
  (void)issue();
  EXPECT_FALSE(consume("AAAAAAAAAAAAAAAAAAAAAA"));
  EXPECT_FALSE(consume(""));
  EXPECT_FALSE(consume(std::string(201, 'a')));
}

TEST_F(NoncesTest, ValidForTenMinutes) {
  const std::string fresh = issue();
  env_.fake().advance_ms(599'999);
  EXPECT_TRUE(consume(fresh));
  const std::string late = issue();
  env_.fake().advance_ms(600'000);
  EXPECT_FALSE(consume(late));
}

TEST_F(NoncesTest, EachNonceDiffersAndIsStoredOnlyAsADigest) {
  const std::string first = issue();
  const std::string second = issue();
  EXPECT_NE(first, second);
  const std::vector<json> stored = documents();
  ASSERT_EQ(stored.size(), 2U);
  for (const json& doc : stored) {
    EXPECT_EQ(doc.dump().find(first), std::string::npos);
    EXPECT_EQ(doc.dump().find(second), std::string::npos);
  }
  EXPECT_TRUE(consume(second));
  EXPECT_TRUE(consume(first));
}

TEST_F(NoncesTest, ExpiredNoncesAreSweptOnIssue) {
  (void)issue();
  (void)issue();
  env_.fake().advance_ms(600'000);
  (void)issue();
  EXPECT_EQ(stored(store::State::kActive), 1U);
  EXPECT_EQ(stored(store::State::kDeleted), 2U);
}

}  // namespace
}  // namespace opbase::auth
