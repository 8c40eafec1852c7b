// The sign-in policy's steps (see limits/signin_guard.hpp).
#include "limits/signin_guard.hpp"

#include "accounts/email_address.hpp"
#include "opbase/crypto.hpp"

namespace opbase::auth {
namespace {

// Buckets are named by digests, so the store holds no e-mail or address in clear.
std::string pair_bucket(const SigninAttempt& attempt) {
  return sha256_hex("signin|email+addr|" + attempt.email + "|" + attempt.address);
}

std::string address_bucket(const SigninAttempt& attempt) {
  return sha256_hex("signin|addr|" + attempt.address);
}

}  // namespace

Result<SigninAttempt> SigninGuard::admit(std::string_view project, std::string_view email,
                                         std::string_view address, int64_t now_ms) const {
  SigninAttempt attempt{canonical_email(email), std::string(address), false};
  auto familiar = familiar_.contains(project, attempt.email, attempt.address, now_ms);
  if (!familiar) return familiar.status();
  attempt.familiar = *familiar;
  if (Status s = limits_.take(project, pair_bucket(attempt), rules_.per_email_address, now_ms);
      !s) {
    return s;
  }
  if (attempt.familiar) return attempt;
  if (Status s = limits_.take(project, address_bucket(attempt), rules_.per_address, now_ms); !s) {
    limits_.give_back(project, pair_bucket(attempt), rules_.per_email_address);
    return s;
  }
  if (Status s = throttle_.take(project, attempt.email, rules_.per_email, now_ms); !s) {
    limits_.give_back(project, pair_bucket(attempt), rules_.per_email_address);
    limits_.give_back(project, address_bucket(attempt), rules_.per_address);
    return s;
  }
  return attempt;
}

void SigninGuard::released(std::string_view project, const SigninAttempt& attempt) const {
  limits_.give_back(project, pair_bucket(attempt), rules_.per_email_address);
  if (attempt.familiar) return;
  limits_.give_back(project, address_bucket(attempt), rules_.per_address);
  throttle_.give_back(project, attempt.email, rules_.per_email);
}

void SigninGuard::succeeded(std::string_view project, const SigninAttempt& attempt,
                            int64_t now_ms) const {
  released(project, attempt);
  familiar_.remember(project, attempt.email, attempt.address, now_ms);
}

Status SigninGuard::sweep(std::string_view project, int64_t now_ms) const {
  if (Status s = throttle_.sweep_idle(project, now_ms); !s) return s;
  return familiar_.sweep_expired(project, now_ms);
}

}  // namespace opbase::auth
