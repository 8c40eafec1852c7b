// The account throttle as conditional updates (see account_throttle.hpp). The document holds
// `taken` (attempts in the current run), `next_ms` (when the next attempt past the free ones
// may go) and `idle_ms` (when the run ends without further attempts). A take is:
//   1. idle_ms <= now: a new run, this attempt its first;
//   2. taken < free: one more free attempt;
//   3. otherwise, when next_ms <= now: this attempt, and the wait before the next doubles. The
//      update is conditional on the `taken` it read, so of racing attempts one wins the slot and
//      the others see the new wait.
#include "account_throttle.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include "opbase/iso_time.hpp"
#include "opbase/store_access.hpp"
#include "random_text.hpp"

namespace opbase::auth {
namespace {

using nlohmann::json;

constexpr std::string_view kCollection = "signin_throttles";
constexpr int kMaxRaces = 5;
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

Result<bool> start_run(const DocumentStore& store, std::string_view project, const std::string& key,
                       const ThrottleRule& rule, int64_t now_ms) {
  return update_matched(
      store, project, kCollection, {{"_key", key}, {"idle_ms:$lte", now_ms}},
      set_fields({{"taken", 1}, {"next_ms", 0}, {"idle_ms", now_ms + rule.window_s * 1000}}));
}

Result<bool> take_free(const DocumentStore& store, std::string_view project, const std::string& key,
                       const ThrottleRule& rule, int64_t now_ms) {
  store::Change change = set_fields({{"idle_ms", now_ms + rule.window_s * 1000}});
  change.inc["taken"] = 1;
  return update_matched(store, project, kCollection,
                        {{"_key", key}, {"taken:$lt", rule.free_attempts}}, std::move(change));
}

// Past the free attempts: nullopt when the caller should try again (a race, or no document),
// else OK or the wait.
Result<std::optional<Status>> take_delayed(const DocumentStore& store, std::string_view project,
                                           const std::string& key, const ThrottleRule& rule,
                                           int64_t now_ms) {
  auto found = find_by_key(store, project, kCollection, key);
  if (!found) return found.status();
  if (!*found) {
    const json doc = {
        {"_key", key}, {"_userkey", nullptr}, {"_created_at", iso_time(now_ms)},
        {"taken", 1},  {"next_ms", 0},        {"idle_ms", now_ms + rule.window_s * 1000}};
    const Status inserted = insert_or_revive(store, project, kCollection, doc);
    if (inserted.code() == store::kDuplicateKey) return std::optional<Status>();
    return std::optional<Status>(inserted);
  }
  const int64_t taken = (*found)->value("taken", int64_t{0});
  const int64_t next_ms = (*found)->value("next_ms", int64_t{0});
  if (next_ms > now_ms) return std::optional<Status>(waiting(next_ms - now_ms));
  const int64_t delay = delay_after(taken + 1, rule);
  store::Change change = set_fields(
      {{"next_ms", now_ms + delay}, {"idle_ms", now_ms + std::max(rule.window_s * 1000, delay)}});
  change.inc["taken"] = 1;
  auto took = update_matched(store, project, kCollection,
                             {{"_key", key}, {"taken", taken}, {"next_ms:$lte", now_ms}},
                             std::move(change));
  if (!took) return took.status();
  if (*took) return std::optional<Status>(Status::ok());
  return std::optional<Status>();
}

}  // namespace

Status AccountThrottle::take(std::string_view project, std::string_view email,
                             const ThrottleRule& rule, int64_t now_ms) const {
  if (rule.free_attempts <= 0) return Status::ok();
  const std::string key = key_of(email);
  for (int attempt = 0; attempt < kMaxRaces; ++attempt) {
    for (auto step : {&start_run, &take_free}) {
      auto took = step(store_, project, key, rule, now_ms);
      if (!took) return took.status();
      if (*took) return Status::ok();
    }
    auto delayed = take_delayed(store_, project, key, rule, now_ms);
    if (!delayed) return delayed.status();
    if (*delayed) return **delayed;
  }
  return waiting(kFirstDelayMs);
}

void AccountThrottle::give_back(std::string_view project, std::string_view email,
                                const ThrottleRule& rule) const {
  if (rule.free_attempts <= 0) return;
  store::Change change;
  change.inc["taken"] = -1;
  (void)update_where(store_, project, kCollection, {{"_key", key_of(email)}, {"taken:$gt", 0}},
                     std::move(change));
}

Status AccountThrottle::sweep_idle(std::string_view project, int64_t now_ms) const {
  return sweep(store_, project, kCollection, {{"idle_ms:$lt", now_ms - kSweepMarginMs}}, now_ms);
}

}  // namespace opbase::auth
