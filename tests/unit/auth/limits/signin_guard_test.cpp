// The sign-in policy on the reference store with a fake clock: one address guessing at an
// account is held back without touching the owner elsewhere; many addresses guessing at one
// account meet a doubling delay, never a lock, and never from an address the account knows;
// one address trying many accounts is limited, except for accounts that know it; right
// attempts are given back; parallel attempts cannot pass a limit; the store keeps digests, not
// e-mails or addresses.
#include "limits/signin_guard.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "store_backed_host.hpp"

namespace opbase::auth {
namespace {

constexpr std::string_view kProject = "p1";
constexpr std::string_view kVictim = "victim@example.com";
constexpr std::string_view kAttacker = "203.0.113.9";
constexpr std::string_view kHome = "198.51.100.7";

SigninRules small_rules() {
  SigninRules rules;
  rules.per_email_address = {10, 900};
  rules.per_address = {30, 900};
  rules.per_email = {20, 900, 300};
  return rules;
}

class SigninGuardTest : public ::testing::Test {
 protected:
  Result<SigninAttempt> admit(std::string_view email, std::string_view address) {
    return guard_.admit(kProject, email, address, env_.now_ms());
  }
  // `tries` wrong attempts: how many were admitted (and so checked).
  int wrong_attempts(std::string_view email, std::string_view address, int tries) {
    int admitted = 0;
    for (int i = 0; i < tries; ++i) admitted += admit(email, address).is_ok() ? 1 : 0;
    return admitted;
  }
  void sign_in(std::string_view email, std::string_view address) {
    auto attempt = admit(email, address);
    ASSERT_TRUE(attempt.is_ok()) << attempt.status().to_string();
    guard_.succeeded(kProject, *attempt, env_.now_ms());
  }
  int64_t retry_after(const Result<SigninAttempt>& refused) {
    EXPECT_EQ(refused.status().code(), code::kRateLimitExceeded);
    return refused.is_ok() ? -1 : refused.status().details().value("retry_after", int64_t{-1});
  }

  opbase::test::StoreBackedHost env_{"auth"};
  DocumentStore store_{env_.host()};
  RateLimiter limits_{store_};
  SigninGuard guard_{store_, limits_, small_rules()};
};

TEST_F(SigninGuardTest, OneAddressGuessingIsHeldBackAndTheOwnerElsewhereIsNot) {
  EXPECT_EQ(wrong_attempts(kVictim, kAttacker, 1000), 10);
  EXPECT_TRUE(admit(kVictim, kHome).is_ok());                  // a new address of the owner
  EXPECT_TRUE(admit("other@example.com", kAttacker).is_ok());  // other accounts from there
}

TEST_F(SigninGuardTest, ManyAddressesMeetADoublingDelayNotALock) {
  int admitted = 0;
  for (int i = 0; i < 5; ++i) {
    admitted += wrong_attempts(kVictim, "203.0.113." + std::to_string(i), 10);
  }
  EXPECT_EQ(admitted, 21);  // 20 free, then one, and the next must wait
  EXPECT_EQ(retry_after(admit(kVictim, "192.0.2.1")), 1);
  env_.fake().advance_ms(1'000);
  EXPECT_TRUE(admit(kVictim, "192.0.2.1").is_ok());
  EXPECT_EQ(retry_after(admit(kVictim, "192.0.2.2")), 2);
  env_.fake().advance_ms(2'000);
  EXPECT_TRUE(admit(kVictim, "192.0.2.2").is_ok());
  EXPECT_EQ(retry_after(admit(kVictim, "192.0.2.3")), 4);
}

TEST_F(SigninGuardTest, TheDelayStopsAtItsCeilingAndAQuietWindowStartsOver) {
  SigninRules rules = small_rules();
  rules.per_email = {1, 900, 5};
  SigninGuard guard{store_, limits_, rules};
  const auto admit_from = [&](int host) {
    return guard.admit(kProject, kVictim, "192.0.2." + std::to_string(host), env_.now_ms());
  };
  ASSERT_TRUE(admit_from(0).is_ok());  // the free one
  std::vector<int64_t> waits;
  for (int i = 1; i <= 6; ++i) {
    ASSERT_TRUE(admit_from(i).is_ok()) << i;  // the wait is over: one attempt
    waits.push_back(retry_after(admit_from(99)));
    env_.fake().advance_ms(waits.back() * 1000);
  }
  EXPECT_EQ(waits, (std::vector<int64_t>{1, 2, 4, 5, 5, 5}));
  env_.fake().advance_ms(900'000);
  EXPECT_TRUE(admit_from(200).is_ok());
  EXPECT_TRUE(admit_from(201).is_ok());
  EXPECT_EQ(retry_after(admit_from(202)), 1);
}

TEST_F(SigninGuardTest, AFamiliarAddressIsNeverDelayedByStrangers) {
  sign_in(kVictim, kHome);
  for (int i = 0; i < 5; ++i) wrong_attempts(kVictim, "203.0.113." + std::to_string(i), 10);
  EXPECT_EQ(admit(kVictim, "192.0.2.1").status().code(), code::kRateLimitExceeded);
  EXPECT_TRUE(admit(kVictim, kHome).is_ok());
}

TEST_F(SigninGuardTest, OneAddressTryingManyAccountsIsLimitedButNotForAccountsThatKnowIt) {
  const std::string office = "198.51.100.50";
  sign_in("colleague@example.com", office);
  int admitted = 0;
  for (int i = 0; i < 40; ++i) {
    admitted += wrong_attempts("user" + std::to_string(i) + "@example.com", office, 1);
  }
  EXPECT_EQ(admitted, 30);  // the colleague's sign-in was right, so it was given back
  EXPECT_TRUE(admit("colleague@example.com", office).is_ok());
}

TEST_F(SigninGuardTest, RightAttemptsAreGivenBack) {
  for (int i = 0; i < 50; ++i) sign_in(kVictim, kHome);
  for (int i = 0; i < 50; ++i) {
    auto attempt = admit(kVictim, "192.0.2.1");
    ASSERT_TRUE(attempt.is_ok()) << i;
    guard_.released(kProject, *attempt);
  }
}

TEST_F(SigninGuardTest, ParallelGuessesCannotPassTheLimit) {
  std::atomic<int> admitted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 12; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 5; ++i) {
        if (guard_.admit(kProject, kVictim, kAttacker, env_.now_ms()).is_ok()) ++admitted;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(admitted.load(), 10);
}

TEST_F(SigninGuardTest, TheStoreHoldsNeitherEmailsNorAddresses) {
  sign_in(kVictim, kHome);
  wrong_attempts(kVictim, kAttacker, 3);
  for (const char* collection : {"rate_limits", "signin_throttles", "familiar_addresses"}) {
    const auto documents = env_.documents(kProject, collection, store::State::kActive);
    EXPECT_FALSE(documents.empty()) << collection;
    for (const auto& doc : documents) {
      const std::string text = doc.dump();
      EXPECT_EQ(text.find("victim"), std::string::npos) << text;
      EXPECT_EQ(text.find("203.0.113"), std::string::npos) << text;
      EXPECT_EQ(text.find("198.51.100"), std::string::npos) << text;
    }
  }
}

TEST_F(SigninGuardTest, TheStoreHoldsDigestsNotEmailsOrAddresses) {
  ASSERT_EQ(wrong_attempts(kVictim, kAttacker, 1), 1);
  const auto buckets = env_.documents(kProject, "rate_limits", store::State::kActive);
  ASSERT_FALSE(buckets.empty());
  for (const auto& bucket : buckets) {
    EXPECT_EQ(bucket.dump().find(kVictim), std::string::npos);
    EXPECT_EQ(bucket.dump().find(kAttacker), std::string::npos);
  }
}

}  // namespace
}  // namespace opbase::auth
