// Token buckets as one conditional update each (see rate_limiter.hpp). A bucket's document
// holds `tat_ms`, the time it is full again; each token is `interval` = window / limit of it,
// and the bucket holds `limit` tokens, so an event may go ahead while tat_ms + interval stays
// within one window of now. A take is:
//   1. now < tat_ms <= now + window - interval (in use, tokens left): add interval to it;
//   2. tat_ms <= now (full): set it to now + interval;
//   3. neither matched: no document yet (insert one) or the bucket is empty (refuse).
// Each step is atomic in the store, which re-checks its condition as it writes, so concurrent
// takes cannot spend the same token; the SDK's StoreCounter runs the steps and their races. A
// bucket in use comes first because that is where the cost shows: a caller making many calls pays
// one update each, and a full bucket pays two.
#include "opbase/rate_limiter.hpp"

#include <algorithm>
#include <charconv>
#include <utility>

#include "opbase/iso_time.hpp"
#include "opbase/store_access.hpp"

namespace opbase {
namespace {

using nlohmann::json;

// A bucket full for this long is swept; the margin covers daemons whose clocks differ a little.
constexpr int64_t kIdleMs = 60'000;

struct Bucket {
  std::string key;
  int64_t window_ms = 0;
  int64_t interval_ms = 0;
};

Bucket bucket_of(std::string_view name, const RateRule& rule) {
  // A zero or negative window would make every token free; one second is the shortest.
  const int64_t window_ms = std::max<int64_t>(rule.window_s, 1) * 1000;
  return {"rl_" + std::string(name), window_ms, std::max<int64_t>(window_ms / rule.limit, 1)};
}

Status exceeded(int64_t wait_ms) {
  const int64_t retry_after = std::max<int64_t>(1, (wait_ms + 999) / 1000);
  return {code::kRateLimitExceeded,
          "too many attempts; try again later",
          {{"retry_after", retry_after}}};
}

// The conditional updates of a take, the bucket in use first (see the top of this file).
std::vector<StoreCounter::Update> takes(const Bucket& bucket, int64_t now_ms) {
  store::Change from_rest;
  from_rest.inc["tat_ms"] = bucket.interval_ms;
  return {
      {{{"tat_ms:$gt", now_ms}, {"tat_ms:$lte", now_ms + bucket.window_ms - bucket.interval_ms}},
       std::move(from_rest)},
      {{{"tat_ms:$lte", now_ms}}, set_fields({{"tat_ms", now_ms + bucket.interval_ms}})},
  };
}

// No take matched: the bucket's first event (its document, one token taken), a give-back that
// came in between (again), or the refusal with the wait until the next token.
StoreCounter::Next after_takes(const json* doc, const Bucket& bucket, int64_t now_ms) {
  if (doc == nullptr) {
    return StoreCounter::Next::insert({{"_userkey", nullptr},
                                       {"_created_at", iso_time(now_ms)},
                                       {"tat_ms", now_ms + bucket.interval_ms}});
  }
  const int64_t tat = doc->value("tat_ms", int64_t{0});
  const int64_t wait = tat - (now_ms + bucket.window_ms - bucket.interval_ms);
  if (wait <= 0) return StoreCounter::Next::again();
  return StoreCounter::Next::refuse(exceeded(wait));
}

}  // namespace

Result<RateRule> RateRule::parse(std::string_view text) {
  if (text == "0" || text == "off") return RateRule{0, 900};
  const size_t slash = text.find('/');
  RateRule rule;
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (slash != std::string_view::npos) {
    auto [limit_end, e1] = std::from_chars(begin, begin + slash, rule.limit);
    auto [window_end, e2] = std::from_chars(begin + slash + 1, end, rule.window_s);
    if (e1 == std::errc() && e2 == std::errc() && limit_end == begin + slash && window_end == end &&
        rule.limit >= 1 && rule.limit <= 1'000'000 && rule.window_s >= 1 &&
        rule.window_s <= 86'400 * 30 && rule.limit <= rule.window_s * 1000) {
      return rule;
    }
  }
  return Status::validation(
      "a rate limit is <limit>/<window seconds> (e.g. 10/900, at most 1000 a second), or off");
}

Status RateLimiter::take(std::string_view project, std::string_view name, const RateRule& rule,
                         int64_t now_ms) const {
  if (rule.limit <= 0) return Status::ok();
  const Bucket bucket = bucket_of(name, rule);
  // Still racing after the counter's rounds: refusing is the safe answer, and the client may
  // simply try again.
  return counter_.count(
      project, bucket.key, takes(bucket, now_ms),
      [&](const json* doc) { return after_takes(doc, bucket, now_ms); }, exceeded(1000));
}

void RateLimiter::give_back(std::string_view project, std::string_view name,
                            const RateRule& rule) const {
  if (rule.limit <= 0) return;
  const Bucket bucket = bucket_of(name, rule);
  store::Change change;
  change.inc["tat_ms"] = -bucket.interval_ms;
  counter_.adjust(project, bucket.key, std::move(change));
}

Status RateLimiter::sweep_idle(std::string_view project, int64_t now_ms) const {
  return counter_.sweep(project, {{"tat_ms:$lt", now_ms - kIdleMs}}, now_ms);
}

}  // namespace opbase
