// libFuzzer target: the captcha payload an anonymous client sends (plugins/captcha/altcha,
// parse_solution and check_solution), read before anything else looks at it. Beyond not
// crashing:
//   - a payload over 4 KiB is never read;
//   - what parses has a number from 0 and, written back as the widget would, parses to the same
//     solution;
//   - a solution accepted under the key has an expiry still ahead and is exactly the challenge
//     make_challenge makes from its salt and number (the seed "solved" is one).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "altcha/altcha.hpp"
#include "opbase/base64.hpp"

namespace {

using opbase::captcha::Solution;

constexpr std::string_view kKey = "fuzz-key";
constexpr int64_t kNow = 1'800'000'000;

void check(bool ok) {
  if (!ok) std::abort();
}

std::string written_back(const Solution& s) {
  return opbase::base64_encode(nlohmann::json{
      {"algorithm", "SHA-256"},
      {"challenge", s.challenge},
      {"number", s.number},
      {"salt", s.salt},
      {"signature", s.signature}}.dump());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view payload(reinterpret_cast<const char*>(data), size);
  auto solution = opbase::captcha::parse_solution(payload);
  if (!solution) return 0;
  check(size <= 4096);
  check(solution->number >= 0);
  auto again = opbase::captcha::parse_solution(written_back(*solution));
  check(again.is_ok());
  check(again->challenge == solution->challenge && again->number == solution->number &&
        again->salt == solution->salt && again->signature == solution->signature);
  if (!opbase::captcha::check_solution(*solution, kKey, kNow).is_ok()) return 0;
  // Accepted: the same challenge made afresh from its salt and number is identical.
  const size_t at = solution->salt.find("?expires=");
  check(at != std::string::npos);
  // The parameters end with '&' (check_solution insists), after the expiry's digits.
  const std::string digits = solution->salt.substr(at + 9, solution->salt.size() - at - 10);
  if (digits.empty() || digits.size() > 18 ||
      digits.find_first_not_of("0123456789") != std::string::npos) {
    return 0;  // other parameters after the expiry: not a salt of make_challenge's form
  }
  const int64_t expires = std::stoll(digits);
  check(expires > kNow);
  const auto made = opbase::captcha::make_challenge(kKey, solution->number, 1,
                                                    solution->salt.substr(0, at), expires);
  check(made.challenge == solution->challenge && made.signature == solution->signature);
  return 0;
}
