// Rate limits for plugins: token buckets kept in the project's store (the plugin's collection
// `rate_limits`, one document per bucket), so several daemons sharing a MongoDB share them.
// The auth plugin limits sign-in attempts with it, the ai plugin each user's calls.
//
// A rule "limit per window" is a bucket of `limit` tokens that refills one token every
// window / limit: a burst of `limit`, then an even pace, with no window edge to time attacks
// around. An event takes its token before it happens (take-then-act): of N requests racing for
// a bucket with k tokens, exactly k go ahead, on one daemon or many. The bucket is one number,
// the time at which it will be full again (the generic cell rate algorithm's "theoretical
// arrival time"), and every take is one conditional update of it in the store, never a
// read-modify-write in memory (a StoreCounter, store_counter.hpp). A bucket's name is its
// document's `_key` after a prefix, so it must be key text (letters, digits, `_`, `-`, `.`); a
// caller counting something private (an e-mail, a client address) names the bucket by a digest of
// it, so the store does not collect addresses in clear.
//
// A bucket full again for a while is the same as no bucket: sweep_idle() moves those documents
// to the deleted state for the plugin's purge, and a take finding its document swept brings it
// back.
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "opbase/document_store.hpp"
#include "opbase/status.hpp"
#include "opbase/store_counter.hpp"

namespace opbase {

// `limit` events per `window_s` seconds; limit 0 switches the rule off.
struct RateRule {
  int64_t limit = 0;
  int64_t window_s = 900;

  // The configuration form "<limit>/<window seconds>" (e.g. "10/900", limit 1 to 1,000,000,
  // window up to 30 days, at most 1000 a second: a bucket counts in milliseconds), or "0" /
  // "off" for no limit. VALIDATION_ERROR otherwise.
  static Result<RateRule> parse(std::string_view text);
};

class RateLimiter {
 public:
  explicit RateLimiter(const DocumentStore& store) : counter_(store, "rate_limits") {}

  // Takes a token from `bucket` for an event about to happen: OK when there was one;
  // RATE_LIMIT_EXCEEDED (details {"retry_after": seconds until the next token, at least 1})
  // when the bucket is empty, and then nothing is taken.
  Status take(std::string_view project, std::string_view bucket, const RateRule& rule,
              int64_t now_ms) const;

  // Puts back a token taken for an event that turned out not to count (a sign-in that
  // succeeded). Best effort: a lost give-back only tightens the limit by one token.
  void give_back(std::string_view project, std::string_view bucket, const RateRule& rule) const;

  // Moves the documents of buckets full for over a minute to the deleted state.
  Status sweep_idle(std::string_view project, int64_t now_ms) const;

 private:
  StoreCounter counter_;
};

}  // namespace opbase
