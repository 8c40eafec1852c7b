// DailyQuota: each user's AI use of the current UTC day, counted in the project's store (the
// plugin's collection `daily_usage`, one document per user and day: `calls` and `code_points`),
// so several daemons sharing a MongoDB share one count.
//
// A call is counted before a provider sees it, as one conditional update that adds it only while
// both counts stay within the day's limits; the store re-checks the condition as it writes, so
// of N calls racing for the last k allowed, exactly k pass, on one daemon or many. A call the
// provider then fails is taken back (refund), so a user does not pay for the model server's
// outage. The count starts again at 00:00 UTC; documents of past days are swept.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <string_view>

#include "limits/usage_rules.hpp"
#include "opbase/document_store.hpp"
#include "opbase/status.hpp"
#include "opbase/store_counter.hpp"

namespace opbase::ai {

class DailyQuota {
 public:
  explicit DailyQuota(const DocumentStore& store) : counter_(store, "daily_usage") {}

  // Counts one call of `code_points` for `user` on the UTC day of `now_ms`: OK, or
  // QUOTA_EXCEEDED (details: quota "calls_per_day" or "code_points_per_day", limit, used,
  // resets_at, retry_after seconds until then) and nothing counted. No write when both limits
  // are off.
  Status charge(std::string_view project, std::string_view user, int64_t code_points,
                const DailyLimits& limits, int64_t now_ms) const;

  // Takes back a call charge() counted at `charged_ms`. Best effort: a lost refund only leaves
  // the call counted.
  void refund(std::string_view project, std::string_view user, int64_t code_points,
              const DailyLimits& limits, int64_t charged_ms) const;

  // Moves the documents of days before the day of `now_ms` to the deleted state.
  Status sweep_past_days(std::string_view project, int64_t now_ms) const;

 private:
  StoreCounter counter_;
};

}  // namespace opbase::ai
