// The day's count as conditional updates (see daily_quota.hpp). A charge is:
//   1. the day's document has room (calls < limit, code_points <= limit - this call's): add
//      the call to it;
//   2. else no document yet: insert one holding this call (when it fits at all);
//   3. else: refuse, naming the count that is full.
// A lost race in 2 (another call inserted first) goes back to 1; the SDK's StoreCounter runs
// the steps and their races.
#include "limits/daily_quota.hpp"

#include <algorithm>
#include <string>

#include "opbase/iso_time.hpp"
#include "opbase/store_access.hpp"
#include "opbase/store_counter.hpp"

namespace opbase::ai {
namespace {

using nlohmann::json;

constexpr int64_t kDayMs = 86'400'000;

bool off(const DailyLimits& limits) { return limits.calls <= 0 && limits.code_points <= 0; }

std::string day_of(int64_t now_ms) { return iso_time(now_ms).substr(0, 10); }

std::string key_of(std::string_view user, int64_t now_ms) {
  std::string day = day_of(now_ms);
  day.erase(std::remove(day.begin(), day.end(), '-'), day.end());
  return "d" + day + "_" + std::string(user);
}

// One call of `code_points` under the day's two limits.
std::vector<StoreCounter::Ceiling> ceilings(int64_t code_points, const DailyLimits& limits) {
  return {{"calls", 1, limits.calls}, {"code_points", code_points, limits.code_points}};
}

Status exceeded(std::string_view quota, int64_t limit, int64_t used, int64_t now_ms) {
  const int64_t next_day_ms = (now_ms / kDayMs + 1) * kDayMs;
  const int64_t retry_after = std::max<int64_t>(1, (next_day_ms - now_ms + 999) / 1000);
  return {code::kQuotaExceeded,
          "the daily AI quota is used up; it starts again at 00:00 UTC",
          {{"quota", quota},
           {"limit", limit},
           {"used", used},
           {"resets_at", iso_time(next_day_ms)},
           {"retry_after", retry_after}}};
}

// The refusal naming the count a call would pass, given the day's document (or none yet).
Status refusal(const StoreCounter::Ceiling& full, const json* day, int64_t now_ms) {
  const int64_t used = day ? day->value(full.field, int64_t{0}) : 0;
  return exceeded(full.field == "calls" ? "calls_per_day" : "code_points_per_day", full.limit, used,
                  now_ms);
}

}  // namespace

Status DailyQuota::charge(std::string_view project, std::string_view user, int64_t code_points,
                          const DailyLimits& limits, int64_t now_ms) const {
  if (off(limits)) return Status::ok();
  const std::vector<StoreCounter::Ceiling> counts = ceilings(code_points, limits);
  auto decide = [&](const json* day) {
    if (const StoreCounter::Ceiling* full = StoreCounter::passed(day, counts)) {
      return StoreCounter::Next::refuse(refusal(*full, day, now_ms));
    }
    if (day) return StoreCounter::Next::again();  // room came back in between (a refund)
    return StoreCounter::Next::insert({{"_userkey", user},
                                       {"_created_at", iso_time(now_ms)},
                                       {"day", day_of(now_ms)},
                                       {"calls", 1},
                                       {"code_points", code_points}});
  };
  // Still racing: refusing is the safe answer, and the client may simply try again.
  const Status busy(code::kRateLimitExceeded, "too many AI calls at once; try again",
                    {{"retry_after", 1}});
  return counter_.count(project, key_of(user, now_ms), {StoreCounter::within(counts)}, decide,
                        busy);
}

void DailyQuota::refund(std::string_view project, std::string_view user, int64_t code_points,
                        const DailyLimits& limits, int64_t charged_ms) const {
  if (off(limits)) return;
  counter_.adjust(project, key_of(user, charged_ms),
                  StoreCounter::added(ceilings(code_points, limits), -1));
}

Status DailyQuota::sweep_past_days(std::string_view project, int64_t now_ms) const {
  return counter_.sweep(project, {{"day:$lt", day_of(now_ms)}}, now_ms);
}

}  // namespace opbase::ai
