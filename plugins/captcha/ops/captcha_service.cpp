#include "ops/captcha_service.hpp"

#include "altcha/altcha.hpp"
#include "opbase/crypto.hpp"

namespace opbase::captcha {
namespace {

using nlohmann::json;

// ALTCHA's own libraries use 12 random bytes of salt.
constexpr size_t kSaltBytes = 12;
constexpr int64_t kSweepEveryMs = 10 * 60 * 1000;

// The secret number of a challenge: from 0 to `max`, each equally likely.
int64_t random_number(int64_t max) {
  return static_cast<int64_t>(random_below(static_cast<uint64_t>(max) + 1));
}

// Buckets are named by a digest, so the store never keeps client addresses in clear.
std::string address_bucket(std::string_view address) {
  return "verify_" + sha256_hex("captcha|addr|" + std::string(address));
}

}  // namespace

CaptchaService::CaptchaService(const Host& host, CaptchaSettings settings,
                               const DocumentStore& store)
    : host_(host),
      settings_(settings),
      // Keys are unique across the whole store: this one names its plugin.
      keys_(store, "captcha_keys", "captcha_hmac_key"),
      limits_(store),
      spent_(store) {}

Result<json> CaptchaService::challenge(std::string_view project) {
  auto key = keys_.of(project);
  if (!key) return key.status();
  const int64_t expires_s = host_.now_ms() / 1000 + settings_.expires_s;
  return make_challenge(*key, random_number(settings_.maxnumber), settings_.maxnumber,
                        random_hex(kSaltBytes), expires_s)
      .to_json();
}

Result<json> CaptchaService::verify(std::string_view project, const json& input) {
  const auto token = input.find("token");
  const auto address = input.find("client_address");
  if (!input.is_object() || token == input.end() || !token->is_string() || address == input.end() ||
      !address->is_string()) {
    return Status::validation(
        "captcha.verify needs {\"token\": string, \"client_address\": string}");
  }
  const int64_t now_ms = host_.now_ms();
  if (Status s = limits_.take(project, address_bucket(address->get<std::string>()),
                              settings_.verify_per_address, now_ms);
      !s) {
    host_.count("solutions_refused_total");
    return s;
  }
  const Status verdict = check_and_spend(project, token->get<std::string>(), now_ms);
  sweep_if_due(project, now_ms);
  if (verdict.code() == code::kValidationError) {
    host_.count("solutions_refused_total");
    const json& details = verdict.details();
    return json{
        {"valid", false},
        {"reason", details.is_object() ? details.value("reason", "malformed") : "malformed"},
        {"message", verdict.message()}};
  }
  if (!verdict) return verdict;
  host_.count("solutions_accepted_total");
  return json{{"valid", true}};
}

Status CaptchaService::check_and_spend(std::string_view project, std::string_view token,
                                       int64_t now_ms) {
  auto solution = parse_solution(token);
  if (!solution) return solution.status();
  auto key = keys_.of(project);
  if (!key) return key.status();
  if (Status s = check_solution(*solution, *key, now_ms / 1000); !s) return s;
  return spent_.spend(project, solution->challenge, salt_expiry(solution->salt));
}

void CaptchaService::sweep_if_due(std::string_view project, int64_t now_ms) {
  {
    const std::lock_guard lock(sweep_mutex_);
    auto [last, first] = swept_ms_.try_emplace(std::string(project), now_ms);
    if (!first && now_ms - last->second < kSweepEveryMs) return;
    last->second = now_ms;
  }
  for (const Status& swept : {spent_.sweep(project, now_ms), limits_.sweep_idle(project, now_ms)}) {
    if (!swept) host_.warn("captcha: sweeping spent challenges failed: " + swept.message());
  }
}

}  // namespace opbase::captcha
