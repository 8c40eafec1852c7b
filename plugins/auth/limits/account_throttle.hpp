// AccountThrottle: the per-account part of the sign-in policy (limits/signin_guard.hpp). Attempts
// on one account from addresses it does not know are free up to a number per window; past it they
// are spaced out, one at a time, each wait twice the one before (1 s, 2 s, 4 s ...) up to a
// ceiling. A progressive delay rather than a lock: whoever waits gets an attempt, and a window
// without attempts starts the account over. Kept in the project's store (collection
// `signin_throttles`, one document per account, named by a digest of its e-mail), so daemons
// sharing a MongoDB share it. Like the rate buckets, an attempt is taken before the password is
// checked, by conditional updates only, so parallel guesses cannot slip past.
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <string_view>

#include "opbase/document_store.hpp"
#include "opbase/status.hpp"
#include "opbase/store_counter.hpp"

namespace opbase::auth {

struct ThrottleRule {
  int64_t free_attempts = 20;  // 0 switches the throttle off
  int64_t window_s = 900;      // a window without attempts starts the account over
  int64_t max_delay_s = 300;   // the ceiling of the doubling wait
};

class AccountThrottle {
 public:
  explicit AccountThrottle(const DocumentStore& store) : counter_(store, "signin_throttles") {}

  // Takes an attempt on the account of `email`: OK, or RATE_LIMIT_EXCEEDED (details
  // {"retry_after": seconds}) while the account's wait runs, and then nothing is taken.
  Status take(std::string_view project, std::string_view email, const ThrottleRule& rule,
              int64_t now_ms) const;

  // Gives back an attempt that turned out not to be a guess (the right password). Best effort.
  void give_back(std::string_view project, std::string_view email, const ThrottleRule& rule) const;

  // Moves the documents of accounts quiet for a window to the deleted state.
  Status sweep_idle(std::string_view project, int64_t now_ms) const;

 private:
  StoreCounter counter_;
};

}  // namespace opbase::auth
