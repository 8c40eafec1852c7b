// Fixed-window counters in the store. The window of a moment is now / window length; its
// document's `_key` is a digest of (bucket, window index), so every daemon finds the same one
// without asking. Counting is an `inc` on that key; only the first event of a window inserts the
// document, and two first events racing resolve through the duplicate `_key`: the loser counts
// with `inc` like everyone after it.
#include "rate_limiter.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include "opbase/iso_time.hpp"
#include "random_text.hpp"
#include "store_access.hpp"

namespace opbase::auth {
namespace {

using nlohmann::json;

constexpr std::string_view kCollection = "rate_limits";
// Bounds the update-or-insert loop: each turn means another request inserted or swept the
// window's document in between, which cannot go on for long.
constexpr int kMaxRaces = 5;
// The tag of documents moved to the deleted state by sweep_ended(), for the plugin's purge.
constexpr std::string_view kSweepRef = "rate_limits_ended";

struct Window {
  std::string key;
  int64_t start_ms = 0;
  int64_t end_ms = 0;
};

// A zero or negative window would divide by zero; one second is the shortest meaningful one.
int64_t window_seconds(const RateRule& rule) { return std::max<int64_t>(rule.window_s, 1); }

Window window_of(std::string_view bucket, const RateRule& rule, int64_t now_ms) {
  const int64_t seconds = window_seconds(rule);
  const int64_t index = now_ms / 1000 / seconds;
  std::string text(bucket);
  text.append("\n").append(std::to_string(index));
  return {"rl_" + sha256_hex(text), index * seconds * 1000, (index + 1) * seconds * 1000};
}

Status exceeded(const Window& window, int64_t now_ms) {
  const int64_t retry_after = std::max<int64_t>(1, (window.end_ms - now_ms + 999) / 1000);
  return {code::kRateLimitExceeded,
          "too many attempts; try again later",
          {{"retry_after", retry_after}}};
}

// The window's count after one more event, or nullopt when its document does not exist yet.
Result<std::optional<int64_t>> increment(const DocumentStore& store, std::string_view project,
                                         const Window& window) {
  store::Change change;
  change.inc["count"] = 1;
  Result<store::UpdateAnswer> answer =
      update_where(store, project, kCollection, {{"_key", window.key}}, std::move(change));
  if (!answer) return answer.status();
  if (answer->documents.empty()) return std::optional<int64_t>();
  return std::optional<int64_t>(answer->documents.front().value("count", int64_t{1}));
}

// `bucket` holds the digest of the bucket's name so sweep_ended() can find its old windows.
Status insert_window(const DocumentStore& store, std::string_view project,
                     const std::string& bucket_digest, const Window& window, int64_t now_ms) {
  json doc = {{"_key", window.key},
              {"_userkey", nullptr},
              {"_created_at", iso_time(now_ms)},
              {"bucket", bucket_digest},
              {"window_end_ms", window.end_ms},
              {"count", 1}};
  return store.insert(project, store::InsertRequest{std::string(kCollection), {std::move(doc)}});
}

// Moves the bucket's windows that had ended by the time the previous one began to the deleted
// state, where the plugin's purge of deleted documents removes them. The previous window stays
// active: a daemon whose clock lags a little may still be counting in it, and a deleted document
// would hold its
// `_key` and stop that daemon from counting at all.
Status sweep_ended(const DocumentStore& store, std::string_view project,
                   const std::string& bucket_digest, const Window& current, int64_t now_ms) {
  const int64_t previous_start = current.start_ms - (current.end_ms - current.start_ms);
  store::StateRequest request;
  request.collection = std::string(kCollection);
  request.scope = store::Scope::everyone();
  request.match = match_of({{"bucket", bucket_digest}, {"window_end_ms:$lte", previous_start}});
  request.from = store::State::kActive;
  request.to = store::State::kDeleted;
  request.ref = kSweepRef;
  request.at_ms = now_ms;
  return store.change_state(project, request).status();
}

// Counts one event in the current window: the count after it.
Result<int64_t> count_event(const DocumentStore& store, std::string_view project,
                            std::string_view bucket, const RateRule& rule, int64_t now_ms) {
  const Window window = window_of(bucket, rule, now_ms);
  const std::string bucket_digest = sha256_hex(bucket);
  for (int attempt = 0; attempt < kMaxRaces; ++attempt) {
    Result<std::optional<int64_t>> counted = increment(store, project, window);
    if (!counted) return counted.status();
    if (counted->has_value()) return **counted;
    const Status inserted = insert_window(store, project, bucket_digest, window, now_ms);
    if (inserted) {
      // Once per bucket and window: the cheap moment to drop what the bucket no longer needs.
      if (Status swept = sweep_ended(store, project, bucket_digest, window, now_ms); !swept) {
        return swept;
      }
      return int64_t{1};
    }
    if (inserted.code() != store::kDuplicateKey) return inserted;
    // Another request inserted the window first: count with `inc` like everyone after it.
  }
  return Status::internal("the rate counter in '" + std::string(kCollection) +
                          "' could be neither incremented nor created");
}

// The current window's count, 0 when nothing was counted in it.
Result<int64_t> current_count(const DocumentStore& store, std::string_view project,
                              const Window& window) {
  Result<std::optional<json>> found = find_by_key(store, project, kCollection, window.key);
  if (!found) return found.status();
  return found->has_value() ? (*found)->value("count", int64_t{0}) : int64_t{0};
}

}  // namespace

Status RateLimiter::check(std::string_view project, std::string_view bucket, const RateRule& rule,
                          int64_t now_ms) const {
  if (rule.limit <= 0) return Status::ok();
  const Window window = window_of(bucket, rule, now_ms);
  Result<int64_t> count = current_count(store_, project, window);
  if (!count) return count.status();
  return *count >= rule.limit ? exceeded(window, now_ms) : Status::ok();
}

Status RateLimiter::hit(std::string_view project, std::string_view bucket, const RateRule& rule,
                        int64_t now_ms) const {
  if (rule.limit <= 0) return Status::ok();
  Result<int64_t> count = count_event(store_, project, bucket, rule, now_ms);
  if (!count) return count.status();
  return *count > rule.limit ? exceeded(window_of(bucket, rule, now_ms), now_ms) : Status::ok();
}

void RateLimiter::record(std::string_view project, std::string_view bucket, const RateRule& rule,
                         int64_t now_ms) const {
  if (rule.limit <= 0) return;
  // The caller is already answering a failure (a wrong password); a store failure here must not
  // turn that answer into INTERNAL_ERROR, and one lost count only loosens the limit by one.
  (void)count_event(store_, project, bucket, rule, now_ms);
}

}  // namespace opbase::auth
