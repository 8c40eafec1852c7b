// The captcha plugin (docs/api.md#captcha): `captcha.challenge` hands a page an ALTCHA
// proof-of-work challenge, and the `captcha.verify` service answers the datastore whether an
// anonymous insert's solution is genuine, unexpired, solved and not used before. Everything it
// keeps (the project's signing key, spent challenges, rate buckets) is in the project's store.
#include <memory>

#include "opbase/sdk.hpp"
#include "ops/captcha_service.hpp"
#include "settings.hpp"

namespace opbase::captcha {
namespace {

using nlohmann::json;

class CaptchaPlugin final : public Plugin {
 public:
  Status init(Registrar& r) override {
    auto settings = CaptchaSettings::from(host());
    if (!settings) return settings.status();
    store_ = std::make_unique<DocumentStore>(host());
    service_ = std::make_unique<CaptchaService>(host(), *settings, *store_);
    // Anyone with the API key may ask: the page asking is, by design, not signed in.
    r.op("captcha.challenge", Access::kApiKey, [this](const Request& q) -> Result<Reply> {
      auto challenge = service_->challenge(q.project_id);
      if (!challenge) return challenge.status();
      return Reply(std::move(*challenge));
    });
    r.service("captcha.verify", [this](std::string_view project, const json& input) {
      return service_->verify(project, input);
    });
    return r.status();
  }

 private:
  std::unique_ptr<DocumentStore> store_;
  std::unique_ptr<CaptchaService> service_;
};

}  // namespace
}  // namespace opbase::captcha

OPBASE_PLUGIN(opbase::captcha::CaptchaPlugin, "captcha", "1.0.0")
