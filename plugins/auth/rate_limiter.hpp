// Rate limits of the auth plugin (DECISIONS 22): fixed-window counters kept in the project's
// store (collection `rate_limits`, one document per (bucket, window)), so several daemons on one
// MongoDB share them. A counter grows with a conditional `inc` in the store, never read-modify-
// write in memory. Buckets are digests of what they count (an e-mail, a client address), so the
// store does not collect addresses in clear.
//
// Old windows: the first event of a bucket's window moves that bucket's windows older than the
// previous one to the deleted state (the previous one stays for daemons whose clock lags); the
// plugin's purge of deleted documents (store.purge) removes them for good. A bucket never seen
// again keeps its last one or two window documents.
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "opbase/document_store.hpp"
#include "opbase/status.hpp"

namespace opbase::auth {

// `limit` events per `window_s` seconds; limit 0 switches the rule off.
struct RateRule {
  int64_t limit = 0;
  int64_t window_s = 900;
};

class RateLimiter {
 public:
  explicit RateLimiter(const DocumentStore& store) : store_(store) {}

  // RATE_LIMIT_EXCEEDED (details {"retry_after": seconds until the window ends, at least 1})
  // when `bucket` has already counted `rule.limit` events in the current window; OK otherwise.
  // Counts nothing.
  Status check(std::string_view project, std::string_view bucket, const RateRule& rule,
               int64_t now_ms) const;

  // Counts one event for `bucket` and answers RATE_LIMIT_EXCEEDED when it went over the limit
  // (the count after it > limit), OK otherwise. For rules that count every attempt (send_otp,
  // sign-up).
  Status hit(std::string_view project, std::string_view bucket, const RateRule& rule,
             int64_t now_ms) const;

  // Counts one event without answering over-limit (failed sign-ins: the failure is the answer).
  void record(std::string_view project, std::string_view bucket, const RateRule& rule,
              int64_t now_ms) const;

 private:
  const DocumentStore& store_;
};

}  // namespace opbase::auth
