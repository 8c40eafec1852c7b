#include "limits/call_limits.hpp"

namespace opbase::ai {
namespace {

// How often a project's spent records are swept, and how long swept ones stay before the purge
// removes them (a rate bucket swept a moment too early is brought back meanwhile).
constexpr int64_t kSweepEveryMs = 10 * 60 * 1000;
constexpr int64_t kDeletedKeptMs = 60 * 60 * 1000;

}  // namespace

Status CallLimits::admit(std::string_view project, std::string_view user, int64_t code_points,
                         int64_t now_ms) const {
  sweep_if_due(project, now_ms);
  const UsageRules& rules = rules_.of(project);
  // User ids are key text, so the user's bucket is named by the id itself.
  if (Status s = rates_.take(project, "calls_" + std::string(user), rules.rate, now_ms); !s) {
    return s;
  }
  return quota_.charge(project, user, code_points, rules.daily, now_ms);
}

void CallLimits::refund(std::string_view project, std::string_view user, int64_t code_points,
                        int64_t admitted_ms) const {
  quota_.refund(project, user, code_points, rules_.of(project).daily, admitted_ms);
}

void CallLimits::sweep_if_due(std::string_view project, int64_t now_ms) const {
  {
    const std::lock_guard lock(sweep_mutex_);
    auto [last, first] = swept_ms_.try_emplace(std::string(project), now_ms);
    if (!first && now_ms - last->second < kSweepEveryMs) return;
    last->second = now_ms;
  }
  for (const Status& swept :
       {rates_.sweep_idle(project, now_ms), quota_.sweep_past_days(project, now_ms)}) {
    if (!swept) host_.warn("sweeping spent AI usage records failed: " + swept.message());
  }
  auto purged = store_.purge(project, {store::State::kDeleted, now_ms - kDeletedKeptMs});
  if (!purged) host_.warn("purging spent AI usage records failed: " + purged.status().message());
}

}  // namespace opbase::ai
