// Fixed-window rate limits on the reference store with a fake clock (DECISIONS 22): N events
// pass and the next is RATE_LIMIT_EXCEEDED with retry_after, a new window starts afresh, buckets
// are separate, limit 0 is off, check() counts nothing and record() counts without answering.
#include "rate_limiter.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "store_backed_host.hpp"

namespace opbase::auth {
namespace {

using nlohmann::json;

constexpr std::string_view kProject = "p1";
constexpr std::string_view kBucket = "signin_email:ada@example.com";
constexpr RateRule kRule{3, 60};

class RateLimiterTest : public ::testing::Test {
 protected:
  Status hit(std::string_view bucket = kBucket, const RateRule& rule = kRule) {
    return limiter_.hit(kProject, bucket, rule, env_.now_ms());
  }
  Status check(std::string_view bucket = kBucket, const RateRule& rule = kRule) {
    return limiter_.check(kProject, bucket, rule, env_.now_ms());
  }

  // Every document of `rate_limits` in `state`, as the store holds it.
  std::vector<json> documents(store::State state = store::State::kActive) {
    return env_.documents(kProject, "rate_limits", state);
  }
  size_t stored(store::State state = store::State::kActive) { return documents(state).size(); }

  opbase::test::StoreBackedHost env_{"auth"};
  DocumentStore store_{env_.host()};
  RateLimiter limiter_{store_};
};

TEST_F(RateLimiterTest, AllowsTheLimitThenRefusesWithRetryAfter) {
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(hit().is_ok()) << i;
  const Status over = hit();
  ASSERT_EQ(over.code(), code::kRateLimitExceeded);
  EXPECT_EQ(over.message(), "too many attempts; try again later");
  const int64_t retry_after = over.details().at("retry_after").get<int64_t>();
  EXPECT_GT(retry_after, 0);
  EXPECT_LE(retry_after, kRule.window_s);
  EXPECT_EQ(hit().code(), code::kRateLimitExceeded);  // and stays refused
}

TEST_F(RateLimiterTest, RetryAfterCountsTheSecondsLeftInTheWindow) {
  // The fake clock starts on some millisecond; move to 10.5 s into a 60 s window.
  const int64_t into = env_.now_ms() % 60'000;
  env_.fake().advance_ms(60'000 - into + 10'500);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(hit().is_ok());
  EXPECT_EQ(hit().details(), json({{"retry_after", 50}}));  // 49.5 s, rounded up
  env_.fake().advance_ms(49'000);                           // 0.5 s left
  EXPECT_EQ(check().details(), json({{"retry_after", 1}}));
}

TEST_F(RateLimiterTest, NewWindowStartsAfresh) {
  for (int i = 0; i < 4; ++i) (void)hit();
  ASSERT_EQ(hit().code(), code::kRateLimitExceeded);
  env_.fake().advance_ms(60'000);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(hit().is_ok()) << i;
  EXPECT_EQ(hit().code(), code::kRateLimitExceeded);
}

TEST_F(RateLimiterTest, BucketsAreSeparate) {
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(hit().is_ok());
  EXPECT_EQ(hit().code(), code::kRateLimitExceeded);
  EXPECT_TRUE(hit("signin_email:bob@example.com").is_ok());
  EXPECT_TRUE(check("signin_email:bob@example.com").is_ok());
}

TEST_F(RateLimiterTest, LimitZeroNeverLimitsAndStoresNothing) {
  const RateRule off{0, 60};
  for (int i = 0; i < 20; ++i) EXPECT_TRUE(hit(kBucket, off).is_ok());
  limiter_.record(kProject, kBucket, off, env_.now_ms());
  EXPECT_TRUE(check(kBucket, off).is_ok());
  EXPECT_EQ(stored(), 0U);
}

TEST_F(RateLimiterTest, CheckCountsNothing) {
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(check().is_ok());
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(hit().is_ok());
  EXPECT_EQ(check().code(), code::kRateLimitExceeded);
}

TEST_F(RateLimiterTest, RecordCountsWithoutAnswering) {
  for (int i = 0; i < 2; ++i) limiter_.record(kProject, kBucket, kRule, env_.now_ms());
  EXPECT_TRUE(check().is_ok());
  limiter_.record(kProject, kBucket, kRule, env_.now_ms());
  EXPECT_EQ(check().code(), code::kRateLimitExceeded);
  limiter_.record(kProject, kBucket, kRule, env_.now_ms());  // over the limit: still quiet
  EXPECT_EQ(hit().code(), code::kRateLimitExceeded);
}

TEST_F(RateLimiterTest, BucketNamesAreNotStoredInClear) {
  ASSERT_TRUE(hit().is_ok());
  const std::vector<json> stored = documents();
  ASSERT_EQ(stored.size(), 1U);
  const std::string dump = stored.front().dump();
  EXPECT_EQ(dump.find("ada@example.com"), std::string::npos) << dump;
}

// A new window sweeps the bucket's windows older than the previous one; the previous one stays
// for daemons whose clock lags.
TEST_F(RateLimiterTest, OldWindowsAreSwept) {
  ASSERT_TRUE(hit().is_ok());
  env_.fake().advance_ms(60'000);
  ASSERT_TRUE(hit().is_ok());
  EXPECT_EQ(stored(), 2U);
  env_.fake().advance_ms(60'000);
  ASSERT_TRUE(hit().is_ok());
  EXPECT_EQ(stored(), 2U);
  EXPECT_EQ(stored(store::State::kDeleted), 1U);
  env_.fake().advance_ms(10 * 60'000);  // idle for many windows
  ASSERT_TRUE(hit().is_ok());
  EXPECT_EQ(stored(), 1U);
  EXPECT_EQ(stored(store::State::kDeleted), 3U);
}

}  // namespace
}  // namespace opbase::auth
