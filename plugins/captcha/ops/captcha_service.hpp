// CaptchaService: the op that hands out ALTCHA challenges and the captcha.verify service the
// datastore asks about an anonymous insert (docs/api.md#captcha). A challenge is signed with the
// project's key (a ProjectSecret in the plugin's store, so every daemon of a shared store checks
// what another signed) and costs no store write: the client holds it until it comes back solved.
// Verifying takes a token from the client address's bucket first, then checks the solution
// (altcha.hpp) and spends it (SpentChallenges), so a solution works once across every daemon.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "opbase/document_store.hpp"
#include "opbase/host.hpp"
#include "opbase/project_secret.hpp"
#include "opbase/rate_limiter.hpp"
#include "opbase/status.hpp"
#include "settings.hpp"
#include "spent/spent_challenges.hpp"

namespace opbase::captcha {

class CaptchaService {
 public:
  CaptchaService(const Host& host, CaptchaSettings settings, const DocumentStore& store);

  // A new challenge for `project`: {algorithm, challenge, maxnumber, salt, signature}.
  Result<nlohmann::json> challenge(std::string_view project);

  // The verdict on input {"token": <the widget's payload>, "client_address": <text>}:
  // {"valid": true}, or {"valid": false, "reason", "message"} with reason one of malformed,
  // algorithm, signature, expired, wrong, replayed. RATE_LIMIT_EXCEEDED (details.retry_after)
  // when the address has presented too many; VALIDATION_ERROR when the input is not of that form.
  Result<nlohmann::json> verify(std::string_view project, const nlohmann::json& input);

 private:
  Status check_and_spend(std::string_view project, std::string_view token, int64_t now_ms);
  void sweep_if_due(std::string_view project, int64_t now_ms);

  const Host& host_;
  const CaptchaSettings settings_;
  ProjectSecret keys_;
  RateLimiter limits_;
  SpentChallenges spent_;
  std::mutex sweep_mutex_;
  std::map<std::string, int64_t, std::less<>> swept_ms_;  // project → last sweep
};

}  // namespace opbase::captcha
