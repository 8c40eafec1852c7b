// Passwords: argon2id hashing in PHC form (RFC 9106, libargon2) and the password policy of the
// settings (`password_policy`). Secrets are never logged here, nor put in a Status.
// Thread-safety: pure functions, except verify_dummy_password's cache, which is locked.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "opbase/status.hpp"

namespace opbase::auth {

// Cost of argon2id. The defaults are OWASP's recommendation (19 MiB, 2 passes, 1 lane).
// Accepted: t_cost 1-64, m_cost_kib 8 * parallelism to 4 GiB, parallelism 1-64.
struct Argon2Params {
  uint32_t t_cost = 2;
  uint32_t m_cost_kib = 19456;
  uint32_t parallelism = 1;
  bool operator==(const Argon2Params&) const = default;
};

// Passwords longer than this many bytes are refused unhashed (the policy's own maximum is lower).
inline constexpr size_t kMaxPasswordBytes = 4096;

// "$argon2id$v=19$m=..,t=..,p=..$<16-byte salt>$<32-byte hash>", the salt from RAND_bytes.
// VALIDATION_ERROR for parameters out of range or a password over kMaxPasswordBytes;
// INTERNAL_ERROR when argon2 or the random generator fails (out of memory, say).
Result<std::string> hash_password(std::string_view password, const Argon2Params& params);

// True when `encoded` is an argon2id hash of `password` (compared in constant time by argon2).
// False for anything malformed — including costs beyond the accepted range, so a corrupt stored
// hash cannot make a sign-in allocate gigabytes.
bool verify_password(std::string_view password, std::string_view encoded);

// True when `encoded` was not made by hash_password with exactly these params (another algorithm
// or version, other costs or lengths, or malformed): hash the password again after a sign-in.
bool needs_rehash(std::string_view encoded, const Argon2Params& params);

// For a sign-in with an unknown email: as slow as verify_password against a real hash made with
// `params`, so response times do not tell which emails exist. Always false. The fixed hash is
// made once per params and cached.
bool verify_dummy_password(std::string_view password, const Argon2Params& params);

// What a password must hold. The defaults are the MEDIUM policy.
struct PasswordPolicy {
  uint32_t min_length = 8;  // in Unicode code points
  uint32_t max_length = 64;
  bool lowercase = true;  // required: at least one a-z
  bool uppercase = true;  // required: at least one A-Z
  bool numbers = true;    // required: at least one 0-9
  bool symbols = false;   // required: at least one code point that is none of the above
  bool operator==(const PasswordPolicy&) const = default;
};

// The longest LENGTH maximum a policy may set.
inline constexpr uint32_t kMaxPolicyLength = 1024;

// LOW: 6-64, nothing required. MEDIUM: 8-64, lowercase, uppercase and numbers. HIGH: 12-64, all
// four. Any other name is MEDIUM, the default.
PasswordPolicy named_policy(std::string_view name);

// From settings: a policy name ("LOW", "MEDIUM", "HIGH") or an object with exactly the keys
// {"LENGTH":[min,max],"LOWERCASE":bool,"NUMBERS":bool,"SYMBOLS":bool,"UPPERCASE":bool}, every
// one required, 1 <= min <= max <= kMaxPolicyLength. VALIDATION_ERROR saying what is wrong.
Result<PasswordPolicy> policy_from_json(const nlohmann::json& value);

// The object form above.
nlohmann::json to_json(const PasswordPolicy& policy);

// OK, or WEAK_PASSWORD with details {"field":"password","policy":<to_json>} and a message
// saying what is missing ("password must have at least 8 characters, a number"); a password that
// is not UTF-8 is VALIDATION_ERROR. Never holds the password itself.
Status check_password(std::string_view password, const PasswordPolicy& policy);

}  // namespace opbase::auth
