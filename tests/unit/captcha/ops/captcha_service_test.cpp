// The captcha plugin's service (ops/captcha_service.hpp) as two daemons sharing one store
// see it: two CaptchaService objects, each with its own memory, over the reference store. A
// challenge one hands out verifies on the other (the signing key is in the store), a solution
// works once across both, also when many copies race; spent challenges are swept once their
// expiry is well past, and a replay after that fails on the expiry; the per-address limit holds
// across both; input that is not {token, client_address} is refused.
#include "ops/captcha_service.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "altcha/altcha.hpp"
#include "opbase/base64.hpp"
#include "opbase/crypto.hpp"
#include "store_backed_host.hpp"

namespace opbase::captcha {
namespace {

using nlohmann::json;

constexpr std::string_view kProject = "p1";
// 2026-11-28T12:00:00Z.
constexpr int64_t kNow = 1'795'867'200'000;

CaptchaSettings small_settings() {
  CaptchaSettings s;
  s.maxnumber = 5'000;
  s.expires_s = 600;
  s.verify_per_address = RateRule{1000, 600};
  return s;
}

std::string solved(CaptchaService& service) {
  auto c = service.challenge(kProject);
  EXPECT_TRUE(c.is_ok()) << c.status().to_string();
  const std::string salt = (*c)["salt"];
  int64_t number = 0;
  while (sha256_hex(salt + std::to_string(number)) != (*c)["challenge"]) ++number;
  return base64_encode(json{
      {"algorithm", "SHA-256"},
      {"challenge", (*c)["challenge"]},
      {"number", number},
      {"salt", salt},
      {"signature",
       (*c)["signature"]}}.dump());
}

json input(const std::string& token, const std::string& address = "192.0.2.7") {
  return {{"token", token}, {"client_address", address}};
}

// "valid", or the refusal's reason, or the failure's code.
std::string verdict(CaptchaService& service, const json& in) {
  auto answer = service.verify(kProject, in);
  if (!answer) return answer.status().code();
  return answer->value("valid", false) ? "valid" : answer->value("reason", "");
}

class CaptchaService2Daemons : public ::testing::Test {
 protected:
  void SetUp() override { env_.fake().set_now_ms(kNow); }

  test::StoreBackedHost env_{"captcha"};
  DocumentStore store_{env_.host()};
  CaptchaService a_{env_.host(), small_settings(), store_};
  CaptchaService b_{env_.host(), small_settings(), store_};
};

TEST_F(CaptchaService2Daemons, ASolutionWorksOnceOnEitherDaemon) {
  const std::string token = solved(a_);
  EXPECT_EQ(verdict(b_, input(token)), "valid");
  EXPECT_EQ(verdict(a_, input(token)), "replayed");
  EXPECT_EQ(verdict(b_, input(token)), "replayed");
  // The key both use is the one stored, made once.
  EXPECT_EQ(env_.documents(kProject, "captcha_keys").size(), 1u);
  EXPECT_EQ(verdict(a_, input(solved(b_))), "valid");
}

TEST_F(CaptchaService2Daemons, OfManyRacingCopiesExactlyOneIsAccepted) {
  const std::string token = solved(a_);
  std::atomic<int> accepted{0}, replayed{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&, i] {
      const std::string v = verdict(i % 2 ? a_ : b_, input(token, "192.0.2." + std::to_string(i)));
      (v == "valid" ? accepted : replayed).fetch_add(v == "valid" || v == "replayed" ? 1 : 0);
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(accepted.load(), 1);
  EXPECT_EQ(replayed.load(), 7);
}

TEST_F(CaptchaService2Daemons, SpentChallengesAreSweptOnceTheirExpiryIsWellPast) {
  const std::string old_token = solved(a_);
  EXPECT_EQ(verdict(a_, input(old_token)), "valid");
  EXPECT_EQ(env_.documents(kProject, "captcha_spent").size(), 1u);
  // Past the expiry, the clock margin and the sweep's interval: the next verify sweeps.
  env_.fake().set_now_ms(kNow + (600 + 600 + 600 + 1) * 1000);
  EXPECT_EQ(verdict(a_, input(solved(a_))), "valid");
  EXPECT_EQ(env_.documents(kProject, "captcha_spent").size(), 1u);
  EXPECT_EQ(verdict(b_, input(old_token)), "expired");
}

TEST_F(CaptchaService2Daemons, TheAddressLimitHoldsAcrossDaemons) {
  CaptchaSettings tight = small_settings();
  tight.verify_per_address = RateRule{3, 600};
  CaptchaService a(env_.host(), tight, store_), b(env_.host(), tight, store_);
  EXPECT_EQ(verdict(a, input("guess")), "malformed");
  EXPECT_EQ(verdict(b, input(solved(a))), "valid");
  EXPECT_EQ(verdict(a, input(solved(b))), "valid");
  EXPECT_EQ(verdict(b, input(solved(a))), "RATE_LIMIT_EXCEEDED");
  EXPECT_EQ(verdict(a, input(solved(a), "198.51.100.1")), "valid");
}

TEST_F(CaptchaService2Daemons, InputOfAnotherFormIsRefused) {
  for (const json& bad : {json("text"), json::object(), json{{"token", 1}, {"client_address", ""}},
                          json{{"token", "t"}}, json{{"client_address", "a"}}}) {
    EXPECT_EQ(verdict(a_, bad), "VALIDATION_ERROR") << bad.dump();
  }
}

}  // namespace
}  // namespace opbase::captcha
