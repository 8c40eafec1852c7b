// SigninGuard: the sign-in policy against guessing that never locks the innocent out. Every
// attempt at an account's password or code is counted before it is checked (take-then-act, so
// parallel guesses cannot slip past), and given back when it turns out right:
//
//  - per account and client address: `per_email_address` attempts per window (token bucket).
//    This is what stops one attacker guessing at one account, and it holds back that address
//    only: the account's owner elsewhere is not affected;
//  - per client address, over all accounts: `per_address` attempts per window, against one
//    address trying many accounts. Not applied to accounts that know the address, so people
//    behind a shared address (an office, a carrier's NAT) who signed in from it before are never
//    blocked by someone else there;
//  - per account, over all addresses it does not know: `per_email` free attempts per window,
//    then a progressive delay (limits/account_throttle.hpp) instead of a lock, against many
//    addresses guessing at one account. From an address the account knows it does not apply.
//
// An address is familiar to an account after a successful sign-in from it (familiar_addresses
// .hpp). Unknown e-mails go through exactly the same steps, so neither the responses nor the time
// they take say whether an account exists.
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "limits/account_throttle.hpp"
#include "limits/familiar_addresses.hpp"
#include "opbase/document_store.hpp"
#include "opbase/rate_limiter.hpp"
#include "opbase/status.hpp"

namespace opbase::auth {

struct SigninRules {
  RateRule per_email_address{10, 900};
  RateRule per_address{100, 900};
  ThrottleRule per_email;
  int64_t familiar_days = 30;
};

// One admitted attempt, to hand back to released() or succeeded().
struct SigninAttempt {
  std::string email;  // canonical
  std::string address;
  bool familiar = false;
};

class SigninGuard {
 public:
  SigninGuard(const DocumentStore& store, const RateLimiter& limits, SigninRules rules)
      : limits_(limits), throttle_(store), familiar_(store, rules.familiar_days), rules_(rules) {}

  // Counts an attempt at `email` from `address` in every limit that applies, before it is
  // checked: the attempt, or RATE_LIMIT_EXCEEDED with details.retry_after from the first limit
  // that has none left (and then nothing stays counted).
  Result<SigninAttempt> admit(std::string_view project, std::string_view email,
                              std::string_view address, int64_t now_ms) const;
  // The attempt was no guess (the request was malformed, or the password right but the address
  // unverified): it stops counting.
  void released(std::string_view project, const SigninAttempt& attempt) const;
  // The attempt signed in: it stops counting, and its address becomes familiar to the account.
  void succeeded(std::string_view project, const SigninAttempt& attempt, int64_t now_ms) const;

  // Moves throttles of quiet accounts and expired familiar addresses to the deleted state.
  Status sweep(std::string_view project, int64_t now_ms) const;

 private:
  const RateLimiter& limits_;
  AccountThrottle throttle_;
  FamiliarAddresses familiar_;
  SigninRules rules_;
};

}  // namespace opbase::auth
