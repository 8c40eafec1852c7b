// SpentChallenges: the challenges whose solutions were accepted, one document each in the
// plugin's collection `captcha_spent` (`_key` "captcha_" + the challenge hash, with the
// challenge's expiry), kept until that expiry is well past. Spending is one insert and the
// store's unique `_key` is the check, so of two requests racing with one solution exactly one
// wins, on one daemon or on several sharing a MongoDB. No solution is read back or compared in
// memory.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <string_view>

#include "opbase/document_store.hpp"
#include "opbase/status.hpp"

namespace opbase::captcha {

class SpentChallenges {
 public:
  explicit SpentChallenges(const DocumentStore& store) : store_(store) {}

  // OK when `challenge` (its hex hash) had not been spent and now is. VALIDATION_ERROR with
  // details.reason "replayed" when it had been.
  Status spend(std::string_view project, std::string_view challenge, int64_t expires_s) const;

  // Drops the records of challenges that expired over ten minutes ago (a margin for clocks that
  // differ between daemons): a replay of one fails on its expiry before it gets here.
  Status sweep(std::string_view project, int64_t now_ms) const;

 private:
  const DocumentStore& store_;
};

}  // namespace opbase::captcha
