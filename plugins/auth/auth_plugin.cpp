// The auth plugin: users and authentication (docs/api.md#users-and-authentication). Registers the
// ten auth.* ops, the administrators' auth.user.* and auth.settings.* ops, and the services the
// host and other plugins call: auth.verify_token (the gateway's bearer check), auth.jwks (GET
// .../.well-known/jwks.json), auth.admin_create (`opbase admin create`) and auth.consume_nonce.
#include <memory>
#include <utility>

#include "opbase/sdk.hpp"
#include "ops/auth_service.hpp"

namespace {

using nlohmann::json;
using opbase::Access;
using opbase::Reply;
using opbase::Request;
using opbase::Result;
using opbase::Status;
using opbase::auth::AuthService;

class AuthPlugin final : public opbase::Plugin {
 public:
  Status init(opbase::Registrar& r) override {
    auto config = opbase::auth::AuthConfig::load(host());
    if (!config) return config.status();
    service_ = std::make_unique<AuthService>(host(), std::move(*config));
    register_ops(r);
    register_services(r);
    return r.status();
  }

 private:
  void register_ops(opbase::Registrar& r) {
    using Handler = Result<Reply> (AuthService::*)(const Request&) const;
    const std::pair<const char*, Handler> ops[] = {
        {"auth.signup", &AuthService::signup},
        {"auth.signin", &AuthService::signin},
        {"auth.signout", &AuthService::signout},
        {"auth.update_profile", &AuthService::update_profile},
        {"auth.update_account", &AuthService::update_account},
        {"auth.verify_id_token", &AuthService::verify_id_token},
        {"auth.refresh_token", &AuthService::refresh_token},
        {"auth.settings", &AuthService::settings},
        {"auth.nonce", &AuthService::nonce},
    };
    // Tokens of these ops travel in the body (docs/api.md#the-auth-ops): the API key is the
    // gateway's check.
    for (const auto& [name, handler] : ops) {
      r.op(name, Access::kApiKey,
           [this, handler = handler](const Request& req) { return ((*service_).*handler)(req); });
    }
    const std::pair<const char*, Handler> admin_ops[] = {
        {"auth.user.list", &AuthService::list_users},
        {"auth.user.get", &AuthService::get_user},
        {"auth.user.update", &AuthService::update_user},
        {"auth.user.signout", &AuthService::sign_out_user},
        {"auth.settings.get", &AuthService::admin_settings},
        {"auth.settings.update", &AuthService::update_settings},
    };
    for (const auto& [name, handler] : admin_ops) {
      r.op(name, Access::kAdmin,
           [this, handler = handler](const Request& req) { return ((*service_).*handler)(req); });
    }
    // An invite needs an administrator's bearer token; the other intents need none.
    r.op("auth.send_otp", Access::kUserOptional,
         [this](const Request& req) { return service_->send_otp(req); });
  }

  void register_services(opbase::Registrar& r) {
    using Service = Result<json> (AuthService::*)(std::string_view, const json&) const;
    r.text_service("auth.verify_token", [this](std::string_view project, std::string_view input) {
      return service_->verify_token(project, input);
    });
    const std::pair<const char*, Service> services[] = {
        {"auth.jwks", &AuthService::jwks},
        {"auth.admin_create", &AuthService::admin_create},
        {"auth.consume_nonce", &AuthService::consume_nonce},
        {"auth.user_exists", &AuthService::user_exists},
    };
    for (const auto& [name, fn] : services) {
      r.service(name, [this, fn = fn](std::string_view project, const json& input) {
        return ((*service_).*fn)(project, input);
      });
    }
  }

  std::unique_ptr<AuthService> service_;
};

}  // namespace

OPBASE_PLUGIN(AuthPlugin, "auth", "1.0.0")
