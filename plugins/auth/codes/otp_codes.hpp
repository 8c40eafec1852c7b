// One-time codes sent by e-mail (docs/api.md#one-time-codes): 6 digits from the CSPRNG, bound
// to (e-mail, intent), single use, valid for 10 minutes, void after 5 wrong tries; a newer code
// for the same (e-mail, intent) voids the older one. Only an HMAC of the code is stored
// (collection `otp_codes`, one document per (e-mail, intent), `_key` = a digest of both), keyed
// with the project's code secret, so a copy of the store does not hold usable codes.
//
// Every state change is a conditional update in the store, so two daemons sharing a MongoDB
// count tries and spend a code exactly once between them.
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "opbase/document_store.hpp"
#include "opbase/status.hpp"

namespace opbase::auth {

enum class OtpIntent { kSignin, kInvite, kChangePassword, kChangeEmail, kChangeUsername };

// "signin", "invite", "change_password", "change_email", "change_username".
std::string_view intent_name(OtpIntent intent);
// VALIDATION_ERROR (details {"field":"intent"}) for any other text.
Result<OtpIntent> parse_intent(std::string_view name);

struct OtpPolicy {
  int64_t lifetime_ms = int64_t{10} * 60 * 1000;
  int max_wrong_tries = 5;
  size_t digits = 6;
};

class OtpCodes {
 public:
  OtpCodes(const DocumentStore& store, OtpPolicy policy = {}) : store_(store), policy_(policy) {}

  // A fresh code for (email, intent) valid from now_ms, replacing any earlier one. `email` is
  // already canonical (lowercase). `secret` keys the HMAC of stored codes (the project's code
  // secret, from the key ring). The caller mails it; it is never stored in clear.
  // Old codes are not swept: there is one document per (e-mail, intent) ever used, rewritten by
  // each issue.
  Result<std::string> issue(std::string_view project, std::string_view secret,
                            std::string_view email, OtpIntent intent, int64_t now_ms) const;

  // Spends the code: OK once for the right code within its lifetime. OTP_EXPIRED for the right
  // code after the lifetime; OTP_INVALID for a wrong code (counting a try; anything but exactly
  // `digits` ASCII digits is a wrong code too), a code already used, a code voided by 5 wrong
  // tries or by a newer code, or when none was issued. A wrong code after the lifetime is
  // OTP_INVALID, not OTP_EXPIRED, so a guess never learns that a code was issued to the address.
  Status consume(std::string_view project, std::string_view secret, std::string_view email,
                 OtpIntent intent, std::string_view code, int64_t now_ms) const;

  const OtpPolicy& policy() const { return policy_; }

 private:
  const DocumentStore& store_;
  OtpPolicy policy_;
};

}  // namespace opbase::auth
