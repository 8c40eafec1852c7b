// The account throttle as conditional updates (see limits/account_throttle.hpp). The document holds
// `taken` (attempts in the current run), `next_ms` (when the next attempt past the free ones
// may go) and `idle_ms` (when the run ends without further attempts). A take is:
//   1. idle_ms <= now: a new run, this attempt its first;
//   2. taken < free: one more free attempt;
//   3. otherwise, when next_ms <= now: this attempt, and the wait before the next doubles. The
//      update is conditional on the `taken` it read, so of racing attempts one wins the slot and
//      the others see the new wait.
// The SDK's StoreCounter runs the steps and their races.
#include "limits/account_throttle.hpp"

#include <algorithm>
#include <utility>

#include "opbase/crypto.hpp"
#include "opbase/iso_time.hpp"
#include "opbase/store_access.hpp"

namespace opbase::auth {
namespace {

using nlohmann::json;

constexpr int64_t kFirstDelayMs = 1000;
constexpr int64_t kSweepMarginMs = 60'000;

std::string key_of(std::string_view email) { return "st_" + sha256_hex(email); }

Status waiting(int64_t wait_ms) {
  return {code::kRateLimitExceeded,
          "too many attempts on this account; try again later",
          {{"retry_after", std::max<int64_t>(1, (wait_ms + 999) / 1000)}}};
}

// The wait after the attempt numbered `taken` (counting from 1) past the free ones: 1 s after
// the first of them, doubling with each.
int64_t delay_after(int64_t taken, const ThrottleRule& rule) {
  const int64_t doublings = std::clamp<int64_t>(taken - rule.free_attempts - 1, 0, 30);
  return std::min(kFirstDelayMs << doublings, rule.max_delay_s * 1000);
}

// Steps 1 and 2: a new run, or one more free attempt.
std::vector<StoreCounter::Update> free_takes(const ThrottleRule& rule, int64_t now_ms) {
  store::Change one_more = set_fields({{"idle_ms", now_ms + rule.window_s * 1000}});
  one_more.inc["taken"] = 1;
  return {
      {{{"idle_ms:$lte", now_ms}},
       set_fields({{"taken", 1}, {"next_ms", 0}, {"idle_ms", now_ms + rule.window_s * 1000}})},
      {{{"taken:$lt", rule.free_attempts}}, std::move(one_more)},
  };
}

// Past the free attempts (step 3), given the account's document: its first attempt, the wait,
// or this attempt on the `taken` read, with the doubled wait after it.
StoreCounter::Next after_free(const json* doc, const ThrottleRule& rule, int64_t now_ms) {
  if (doc == nullptr) {
    return StoreCounter::Next::insert({{"_userkey", nullptr},
                                       {"_created_at", iso_time(now_ms)},
                                       {"taken", 1},
                                       {"next_ms", 0},
                                       {"idle_ms", now_ms + rule.window_s * 1000}});
  }
  const int64_t taken = doc->value("taken", int64_t{0});
  const int64_t next_ms = doc->value("next_ms", int64_t{0});
  if (next_ms > now_ms) return StoreCounter::Next::refuse(waiting(next_ms - now_ms));
  const int64_t delay = delay_after(taken + 1, rule);
  store::Change change = set_fields(
      {{"next_ms", now_ms + delay}, {"idle_ms", now_ms + std::max(rule.window_s * 1000, delay)}});
  change.inc["taken"] = 1;
  return StoreCounter::Next::try_update(
      {{{"taken", taken}, {"next_ms:$lte", now_ms}}, std::move(change)});
}

}  // namespace

Status AccountThrottle::take(std::string_view project, std::string_view email,
                             const ThrottleRule& rule, int64_t now_ms) const {
  if (rule.free_attempts <= 0) return Status::ok();
  return counter_.count(
      project, key_of(email), free_takes(rule, now_ms),
      [&](const json* doc) { return after_free(doc, rule, now_ms); }, waiting(kFirstDelayMs));
}

void AccountThrottle::give_back(std::string_view project, std::string_view email,
                                const ThrottleRule& rule) const {
  if (rule.free_attempts <= 0) return;
  store::Change change;
  change.inc["taken"] = -1;
  counter_.adjust(project, key_of(email), std::move(change), {{"taken:$gt", 0}});
}

Status AccountThrottle::sweep_idle(std::string_view project, int64_t now_ms) const {
  return counter_.sweep(project, {{"idle_ms:$lt", now_ms - kSweepMarginMs}}, now_ms);
}

}  // namespace opbase::auth
