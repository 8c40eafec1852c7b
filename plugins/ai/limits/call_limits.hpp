// CallLimits: what a signed-in user's AI call passes after its request checks and before any
// provider (docs/api.md#ai-limits): the user's rate limit (RateLimiter, RATE_LIMIT_EXCEEDED),
// then the user's daily quota (DailyQuota, QUOTA_EXCEEDED), each by the project's UsageRules.
// A call refused by either is not counted by the other. It also sweeps their spent records
// from the store now and then, as calls come.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "limits/daily_quota.hpp"
#include "limits/usage_rules.hpp"
#include "opbase/document_store.hpp"
#include "opbase/host.hpp"
#include "opbase/rate_limiter.hpp"

namespace opbase::ai {

class CallLimits {
 public:
  CallLimits(const Host& host, UsageRulesByProject rules)
      : host_(host), store_(host), rules_(std::move(rules)), rates_(store_), quota_(store_) {}

  // OK when `user` of `project` may make a call of `code_points` at `now_ms` (and it is
  // counted); the refusal otherwise.
  Status admit(std::string_view project, std::string_view user, int64_t code_points,
               int64_t now_ms) const;

  // Takes back the quota of a call admitted at `admitted_ms` that the provider failed.
  void refund(std::string_view project, std::string_view user, int64_t code_points,
              int64_t admitted_ms) const;

 private:
  void sweep_if_due(std::string_view project, int64_t now_ms) const;

  const Host& host_;
  DocumentStore store_;
  UsageRulesByProject rules_;
  RateLimiter rates_;
  DailyQuota quota_;
  mutable std::mutex sweep_mutex_;
  mutable std::map<std::string, int64_t, std::less<>> swept_ms_;  // by project
};

}  // namespace opbase::ai
