// Token-bucket rate limits on the reference store with a fake clock: a burst of `limit` passes
// and the next is RATE_LIMIT_EXCEEDED with retry_after; tokens come back one per window/limit,
// with no window edge to time a double burst around; racing takes from many threads spend each
// token once; a give-back returns one; idle buckets are swept and come back when needed.
#include "opbase/rate_limiter.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "store_backed_host.hpp"

namespace opbase {
namespace {

using nlohmann::json;

constexpr std::string_view kProject = "p1";
constexpr std::string_view kBucket = "signin-ada";
constexpr RateRule kRule{3, 60};  // one token every 20 s, three at most

class RateLimiterTest : public ::testing::Test {
 protected:
  Status take(std::string_view bucket = kBucket, const RateRule& rule = kRule) {
    return limiter_.take(kProject, bucket, rule, env_.now_ms());
  }
  int takes_that_pass(int tries) {
    int passed = 0;
    for (int i = 0; i < tries; ++i) passed += take().is_ok() ? 1 : 0;
    return passed;
  }
  std::vector<json> documents(store::State state = store::State::kActive) {
    return env_.documents(kProject, "rate_limits", state);
  }

  opbase::test::StoreBackedHost env_{"auth"};
  DocumentStore store_{env_.host()};
  RateLimiter limiter_{store_};
};

TEST_F(RateLimiterTest, AllowsABurstOfTheLimitThenRefusesWithRetryAfter) {
  EXPECT_EQ(takes_that_pass(3), 3);
  const Status over = take();
  ASSERT_EQ(over.code(), code::kRateLimitExceeded);
  EXPECT_EQ(over.message(), "too many attempts; try again later");
  EXPECT_EQ(over.details().at("retry_after"), 20);     // the next token, not the window's end
  EXPECT_EQ(take().code(), code::kRateLimitExceeded);  // and stays refused
}

TEST_F(RateLimiterTest, TokensComeBackOneAtATimeAtAnEvenPace) {
  EXPECT_EQ(takes_that_pass(3), 3);
  env_.fake().advance_ms(19'000);
  EXPECT_EQ(take().code(), code::kRateLimitExceeded);
  env_.fake().advance_ms(1'000);
  EXPECT_TRUE(take().is_ok());
  EXPECT_EQ(take().code(), code::kRateLimitExceeded);
  env_.fake().advance_ms(60'000);  // a whole window: full again, and never more than full
  EXPECT_EQ(takes_that_pass(5), 3);
}

// A fixed window let 2 x limit through around its edge; a bucket lets through at most the
// limit plus what refilled meanwhile, wherever the burst is placed.
TEST_F(RateLimiterTest, NoWindowEdgeLetsADoubleBurstThrough) {
  for (int64_t offset : {int64_t{0}, int64_t{59'000}, int64_t{59'999}}) {
    opbase::test::StoreBackedHost env{"auth"};
    DocumentStore store{env.host()};
    RateLimiter limiter{store};
    env.fake().advance_ms(offset);
    int passed = 0;
    for (int step = 0; step < 20; ++step) {  // 20 tries within 2 s
      passed += limiter.take(kProject, kBucket, kRule, env.now_ms()).is_ok() ? 1 : 0;
      env.fake().advance_ms(100);
    }
    EXPECT_EQ(passed, 3) << "starting at " << offset;
  }
}

TEST_F(RateLimiterTest, ParallelTakesSpendEachTokenOnce) {
  const RateRule ten{10, 900};
  std::atomic<int> passed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 12; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 5; ++i) {
        if (limiter_.take(kProject, kBucket, ten, env_.now_ms()).is_ok()) ++passed;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(passed.load(), 10);
}

TEST_F(RateLimiterTest, AGiveBackReturnsOneToken) {
  EXPECT_EQ(takes_that_pass(3), 3);
  limiter_.give_back(kProject, kBucket, kRule);
  EXPECT_TRUE(take().is_ok());
  EXPECT_EQ(take().code(), code::kRateLimitExceeded);
}

TEST_F(RateLimiterTest, BucketsAreSeparateAndLimitZeroIsOff) {
  EXPECT_EQ(takes_that_pass(3), 3);
  EXPECT_TRUE(take("signin-bob").is_ok());
  for (int i = 0; i < 100; ++i) EXPECT_TRUE(take(kBucket, RateRule{0, 60}).is_ok());
}

TEST(RateRuleTest, ParsesTheConfigurationFormAndRefusesTheRest) {
  auto rule = RateRule::parse("10/900");
  ASSERT_TRUE(rule.is_ok());
  EXPECT_EQ(rule->limit, 10);
  EXPECT_EQ(rule->window_s, 900);
  EXPECT_EQ(RateRule::parse("off")->limit, 0);
  EXPECT_EQ(RateRule::parse("0")->limit, 0);
  EXPECT_EQ(RateRule::parse("1000/1")->limit, 1000);
  for (const char* bad : {"", "10", "10/", "/900", "0/900", "10/0", "10/900s", "-1/60", "x/60",
                          "10/2592001", "1000001/60", "1001/1"}) {
    EXPECT_EQ(RateRule::parse(bad).status().code(), code::kValidationError) << bad;
  }
}

TEST_F(RateLimiterTest, IdleBucketsAreSweptAndComeBackWhenNeeded) {
  EXPECT_EQ(takes_that_pass(3), 3);
  ASSERT_TRUE(limiter_.sweep_idle(kProject, env_.now_ms()).is_ok());
  EXPECT_EQ(documents().size(), 1u);  // still counting
  env_.fake().advance_ms(60'000 + 60'001);
  ASSERT_TRUE(limiter_.sweep_idle(kProject, env_.now_ms()).is_ok());
  EXPECT_TRUE(documents().empty());
  EXPECT_EQ(documents(store::State::kDeleted).size(), 1u);
  EXPECT_EQ(takes_that_pass(4), 3);  // the swept document is back, full
  EXPECT_EQ(documents().size(), 1u);
}

}  // namespace
}  // namespace opbase
