// ALTCHA challenges and solutions (see altcha.hpp).
#include "altcha/altcha.hpp"

#include <charconv>

#include "opbase/base64.hpp"
#include "opbase/crypto.hpp"
#include "opbase/field_error.hpp"

namespace opbase::captcha {
namespace {

using nlohmann::json;

constexpr std::string_view kAlgorithm = "SHA-256";
constexpr size_t kMaxPayloadBytes = 4096;
constexpr std::string_view kExpiresParam = "expires=";

Status refused(std::string_view reason, std::string message) {
  return field_error("captcha", std::move(message), {{"reason", reason}});
}

}  // namespace

// The parameters must end with '&': the challenge hashes salt + number, so without that delimiter a
// client could move the number's leading digits onto the end of the salt ("expires=1800000000" +
// "4242" read as "expires=18000000004" + "242") and lengthen the expiry under the same signed
// challenge.
int64_t salt_expiry(std::string_view salt) {
  const size_t query = salt.find('?');
  if (query == std::string_view::npos || !salt.ends_with('&')) return -1;
  std::string_view params = salt.substr(query + 1);
  while (!params.empty()) {
    const size_t end = params.find('&');
    const std::string_view param = params.substr(0, end);
    if (param.starts_with(kExpiresParam)) {
      const std::string_view digits = param.substr(kExpiresParam.size());
      int64_t value = -1;
      const auto [at, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
      return error == std::errc() && at == digits.data() + digits.size() ? value : -1;
    }
    params = end == std::string_view::npos ? std::string_view() : params.substr(end + 1);
  }
  return -1;
}

json Challenge::to_json() const {
  return {{"algorithm", kAlgorithm},
          {"challenge", challenge},
          {"maxnumber", maxnumber},
          {"salt", salt},
          {"signature", signature}};
}

Challenge make_challenge(std::string_view key, int64_t number, int64_t maxnumber,
                         std::string_view salt_hex, int64_t expires_s) {
  Challenge out;
  out.salt = std::string(salt_hex) + "?expires=" + std::to_string(expires_s) + "&";
  out.challenge = sha256_hex(out.salt + std::to_string(number));
  out.maxnumber = maxnumber;
  out.signature = hmac_sha256_hex(key, out.challenge);
  return out;
}

Result<Solution> parse_solution(std::string_view payload) {
  const Status malformed = refused("malformed", "captcha is not an ALTCHA solution");
  if (payload.size() > kMaxPayloadBytes) return malformed;
  const auto text = base64_decode(payload);
  if (!text) return malformed;
  const json fields = json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!fields.is_object()) return malformed;
  for (const char* name : {"algorithm", "challenge", "salt", "signature"}) {
    const auto found = fields.find(name);
    if (found == fields.end() || !found->is_string()) return malformed;
  }
  const auto number = fields.find("number");
  if (number == fields.end() || !number->is_number_integer() || number->get<int64_t>() < 0) {
    return malformed;
  }
  if (fields["algorithm"] != kAlgorithm) {
    return refused("algorithm", "captcha must be solved with SHA-256");
  }
  return Solution{fields["challenge"].get<std::string>(), number->get<int64_t>(),
                  fields["salt"].get<std::string>(), fields["signature"].get<std::string>()};
}

Status check_solution(const Solution& solution, std::string_view key, int64_t now_s) {
  if (!constant_time_equal(hmac_sha256_hex(key, solution.challenge), solution.signature)) {
    return refused("signature", "captcha was not issued by this project");
  }
  const int64_t expires = salt_expiry(solution.salt);
  if (expires < 0 || expires <= now_s) return refused("expired", "captcha has expired");
  if (!constant_time_equal(sha256_hex(solution.salt + std::to_string(solution.number)),
                           solution.challenge)) {
    return refused("wrong", "captcha is not solved");
  }
  return Status::ok();
}

}  // namespace opbase::captcha
