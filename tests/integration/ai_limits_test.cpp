// ai_limits_test: each user's AI rate limit and daily quota over HTTP (docs/api.md#ai-limits):
// past the rate limit a call is 429 RATE_LIMIT_EXCEEDED and past the quota 429 QUOTA_EXCEEDED,
// each with Retry-After and its details, while other users go on; a project's own quota key
// wins over the daemon-wide one; calls refused by the request checks count for neither, and
// calls the provider fails do not use up the quota; the refusals are counted in /metrics.
#include <gtest/gtest.h>

#include <string>

#include "daemon_process.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;

// 88 code points.
const std::string kReview =
    "The camera is wonderful and the battery lasts for days, but the screen scratches easily.";

class AiLimits : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    DaemonOptions options;
    options.plugins = {"auth", "ai"};
    options.config = {{"auth.rate.signup_per_address", "off"},
                      {"ai.rate_limit", "4/3600"},
                      {"ai.quota.code_points_per_day", "100000"},
                      {"projects.test.ai.quota.code_points_per_day", "200"}};
    daemon_ = DaemonProcess::start(options).release();
  }
  static void TearDownTestSuite() {
    delete daemon_;
    daemon_ = nullptr;
  }

  static HttpResponse ask(const std::string& user, const std::string& op,
                          const std::string& content) {
    return daemon_->call({{"op", op}, {"content", content}}, daemon_->user(user).bearer());
  }

  // The refusal's details, after checking its status, code and Retry-After header.
  static json refused(const HttpResponse& r, std::string_view code) {
    EXPECT_EQ(r.status, 429) << r.describe();
    const json error = r.json()["error"];
    EXPECT_EQ(error["code"], code) << r.describe();
    const json details = error.value("details", json::object());
    EXPECT_TRUE(details["retry_after"].is_number_integer()) << r.describe();
    EXPECT_EQ(r.header("Retry-After"), details["retry_after"].dump()) << r.describe();
    return details;
  }

  static DaemonProcess* daemon_;
};
DaemonProcess* AiLimits::daemon_ = nullptr;

TEST_F(AiLimits, PastTheRateLimitACallIsRefusedAndOtherUsersGoOn) {
  for (int i = 0; i < 4; ++i) EXPECT_EQ(ask("rosa", "ai.sentiment", "fine").status, 200) << i;
  const json details = refused(ask("rosa", "ai.sentiment", "fine"), "RATE_LIMIT_EXCEEDED");
  // One call every 900 s comes back: the wait is at most that.
  EXPECT_GT(details["retry_after"].get<int>(), 0);
  EXPECT_LE(details["retry_after"].get<int>(), 900);
  EXPECT_EQ(ask("rosa", "baseai.vectorize", "fine").status, 429);  // every AI op, either name
  EXPECT_EQ(ask("sam", "ai.sentiment", "fine").status, 200);
  EXPECT_GE(daemon_->metric("opbase_ai_rate_limit_refusals_total").value_or(0), 2);
}

TEST_F(AiLimits, PastTheProjectsDailyQuotaACallIsRefusedWithItsDetails) {
  EXPECT_EQ(ask("quinn", "ai.sentiment", kReview).status, 200);
  EXPECT_EQ(ask("quinn", "ai.summarize", kReview).status, 200);
  const json details = refused(ask("quinn", "ai.sentiment", kReview), "QUOTA_EXCEEDED");
  EXPECT_EQ(details["quota"], "code_points_per_day");
  EXPECT_EQ(details["limit"], 200);  // the project's key, not the daemon-wide one
  EXPECT_EQ(details["used"], 176);
  EXPECT_TRUE(details["resets_at"].get<std::string>().ends_with("T00:00:00.000Z")) << details;
  EXPECT_LE(details["retry_after"].get<int>(), 86'400);
  EXPECT_EQ(ask("quinn", "ai.sentiment", "Short and sweet.").status, 200);  // 16 still fit
  EXPECT_EQ(ask("una", "ai.sentiment", kReview).status, 200);
  EXPECT_GE(daemon_->metric("opbase_ai_quota_refusals_total").value_or(0), 1);
}

TEST_F(AiLimits, RefusedRequestsCountForNeitherAndFailedCallsKeepTheQuota) {
  for (int i = 0; i < 10; ++i) EXPECT_EQ(ask("fay", "ai.sentiment", "   ").status, 400);
  // The offline provider cannot generate: three failures, with the quota given back.
  const json generate = {{"op", "ai.generate"}, {"user_input", kReview}};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(daemon_->call(generate, daemon_->user("fay").bearer()).status, 502);
  }
  EXPECT_EQ(ask("fay", "ai.sentiment", kReview + kReview).status, 200);  // 176 of 200
  // The rate limit counted the three failed calls and this one: four of four.
  refused(ask("fay", "ai.sentiment", "fine"), "RATE_LIMIT_EXCEEDED");
}

}  // namespace
}  // namespace opbase::test
