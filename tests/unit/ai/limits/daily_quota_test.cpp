// Each user's daily AI quota on the reference store with a fake clock: the day's calls pass up
// to the limit and the next is QUOTA_EXCEEDED with what is full, the limit, the use and the wait
// until 00:00 UTC; content code points count the same way; the count starts again the next UTC
// day; a refund gives a call back; users are counted apart; racing calls from many threads pass
// exactly the limit; a quota that is off writes nothing; past days are swept.
#include "limits/daily_quota.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "store_backed_host.hpp"

namespace opbase::ai {
namespace {

using nlohmann::json;

constexpr std::string_view kProject = "p1";
constexpr std::string_view kAda = "a1b2c3";
// 2026-11-27T23:00:00Z: an hour before the day's count starts again.
constexpr int64_t kLateEvening = 1'795'820'400'000;

class DailyQuotaTest : public ::testing::Test {
 protected:
  void SetUp() override { env_.fake().set_now_ms(kLateEvening); }
  Status charge(int64_t code_points, const DailyLimits& limits, std::string_view user = kAda) {
    return quota_.charge(kProject, user, code_points, limits, env_.now_ms());
  }
  int charges_that_pass(int tries, const DailyLimits& limits, int64_t code_points = 10) {
    int passed = 0;
    for (int i = 0; i < tries; ++i) passed += charge(code_points, limits).is_ok() ? 1 : 0;
    return passed;
  }
  std::vector<json> documents(store::State state = store::State::kActive) {
    return env_.documents(kProject, "daily_usage", state);
  }

  opbase::test::StoreBackedHost env_{"ai"};
  DocumentStore store_{env_.host()};
  DailyQuota quota_{store_};
};

TEST_F(DailyQuotaTest, TheDaysCallsPassThenTheNextIsRefusedWithWhatIsFull) {
  const DailyLimits three_calls{3, 0};
  EXPECT_EQ(charges_that_pass(3, three_calls), 3);
  const Status refused = charge(10, three_calls);
  ASSERT_EQ(refused.code(), code::kQuotaExceeded);
  const json& details = refused.details();
  EXPECT_EQ(details["quota"], "calls_per_day");
  EXPECT_EQ(details["limit"], 3);
  EXPECT_EQ(details["used"], 3);
  EXPECT_EQ(details["retry_after"], 3600);
  EXPECT_EQ(details["resets_at"], "2026-11-28T00:00:00.000Z");
  EXPECT_EQ(charges_that_pass(5, three_calls), 0);
  ASSERT_EQ(documents().size(), 1u);
  EXPECT_EQ(documents().front()["calls"], 3);
  EXPECT_EQ(documents().front()["code_points"], 30);
}

TEST_F(DailyQuotaTest, ContentCodePointsCountTheSameWay) {
  const DailyLimits hundred_points{0, 100};
  EXPECT_TRUE(charge(60, hundred_points).is_ok());
  const Status refused = charge(50, hundred_points);
  ASSERT_EQ(refused.code(), code::kQuotaExceeded);
  EXPECT_EQ(refused.details()["quota"], "code_points_per_day");
  EXPECT_EQ(refused.details()["used"], 60);
  EXPECT_TRUE(charge(40, hundred_points).is_ok());  // a smaller call still fits
  EXPECT_EQ(charge(1, hundred_points).code(), code::kQuotaExceeded);
  EXPECT_EQ(charge(101, DailyLimits{0, 100}, "fresh").code(), code::kQuotaExceeded);
}

TEST_F(DailyQuotaTest, TheCountStartsAgainTheNextUtcDay) {
  const DailyLimits two_calls{2, 0};
  EXPECT_EQ(charges_that_pass(3, two_calls), 2);
  env_.fake().advance_ms(3'599'000);  // 23:59:59
  EXPECT_EQ(charge(10, two_calls).details()["retry_after"], 1);
  env_.fake().advance_ms(1'000);  // 00:00:00
  EXPECT_EQ(charges_that_pass(3, two_calls), 2);
  EXPECT_EQ(documents().size(), 2u);  // one per day
}

TEST_F(DailyQuotaTest, ARefundGivesTheCallBackToItsDay) {
  const DailyLimits two_calls{2, 0};
  const int64_t charged = env_.now_ms();
  EXPECT_EQ(charges_that_pass(2, two_calls), 2);
  quota_.refund(kProject, kAda, 10, two_calls, charged);
  EXPECT_EQ(charges_that_pass(2, two_calls), 1);
  EXPECT_EQ(documents().front()["code_points"], 20);
}

TEST_F(DailyQuotaTest, UsersAreCountedApart) {
  const DailyLimits one_call{1, 0};
  EXPECT_TRUE(charge(10, one_call, "ada").is_ok());
  EXPECT_TRUE(charge(10, one_call, "bob").is_ok());
  EXPECT_EQ(charge(10, one_call, "ada").code(), code::kQuotaExceeded);
  for (const json& day : documents())
    EXPECT_TRUE(day["_userkey"] == "ada" || day["_userkey"] == "bob");
}

TEST_F(DailyQuotaTest, RacingCallsPassExactlyTheLimit) {
  const DailyLimits limits{40, 0};
  std::atomic<int> passed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10; ++i) passed += charge(1, limits).is_ok() ? 1 : 0;
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(passed.load(), 40);
  EXPECT_EQ(documents().front()["calls"], 40);
}

TEST_F(DailyQuotaTest, AQuotaThatIsOffWritesNothing) {
  EXPECT_EQ(charges_that_pass(100, DailyLimits{0, 0}), 100);
  EXPECT_TRUE(documents().empty());
}

TEST_F(DailyQuotaTest, PastDaysAreSwept) {
  EXPECT_TRUE(charge(10, DailyLimits{5, 0}).is_ok());
  ASSERT_TRUE(quota_.sweep_past_days(kProject, env_.now_ms()).is_ok());
  EXPECT_EQ(documents().size(), 1u);  // today's stays
  env_.fake().advance_ms(3'600'000);
  ASSERT_TRUE(quota_.sweep_past_days(kProject, env_.now_ms()).is_ok());
  EXPECT_TRUE(documents().empty());
  EXPECT_EQ(documents(store::State::kDeleted).size(), 1u);
}

}  // namespace
}  // namespace opbase::ai
