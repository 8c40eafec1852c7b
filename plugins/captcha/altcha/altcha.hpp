// The ALTCHA proof of work (the open format the `altcha` widget and `altcha-lib` speak), as
// pure functions: a challenge, and the check of a solution the widget sends back.
//
// A challenge is {algorithm: "SHA-256", challenge, maxnumber, salt, signature}: the salt is
// random hex with "?expires=<unix seconds>&" after it (the '&' as altcha-lib ends its salts),
// `challenge` the hex SHA-256 of salt + decimal(number) for a secret number from 0 to maxnumber,
// and `signature` the hex HMAC-SHA256 of `challenge` under the project's key. The client finds the
// number by trying them in turn. Its answer (the widget's form value) is base64 of the JSON
// {algorithm, challenge, number, salt, signature[, took]}.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "opbase/status.hpp"

namespace opbase::captcha {

struct Challenge {
  std::string challenge;  // hex SHA-256 of salt + number
  int64_t maxnumber = 0;
  std::string salt;  // "<hex>?expires=<unix seconds>&"
  std::string signature;
  nlohmann::json to_json() const;  // with "algorithm": "SHA-256"
};

struct Solution {
  std::string challenge;
  int64_t number = 0;
  std::string salt;
  std::string signature;
};

// The salt's "expires" parameter (unix seconds), or -1 when it has none or its parameters do not
// end with '&'.
int64_t salt_expiry(std::string_view salt);

// A challenge for `number` (the one to find) with `salt_hex` (random) that expires at
// `expires_s`, signed with `key`.
Challenge make_challenge(std::string_view key, int64_t number, int64_t maxnumber,
                         std::string_view salt_hex, int64_t expires_s);

// The widget's payload read strictly: VALIDATION_ERROR with details.reason "malformed" (not
// base64 of a JSON object with the five fields of the right types, at most 4 KiB) or
// "algorithm" (not SHA-256).
Result<Solution> parse_solution(std::string_view payload);

// Whether `solution` is genuine and solved at `now_s`: the signature is the key's (reason
// "signature"), the salt's expiry is there, its parameters end with '&', and it is not past
// (reason "expired"), and the number
// hashes to the challenge (reason "wrong"). Compared in constant time.
Status check_solution(const Solution& solution, std::string_view key, int64_t now_s);

}  // namespace opbase::captcha
