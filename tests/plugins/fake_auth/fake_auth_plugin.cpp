// fake_auth: a test-only plugin named "auth" providing the service the gateway verifies bearer
// tokens through, "auth.verify_token", with tokens a test can write by hand:
//   "user-<id>"   → {"sub": "<id>", "roles": ["user"]}
//   "admin-<id>"  → {"sub": "<id>", "roles": ["user", "admin"]}
//   "expired"     → TOKEN_EXPIRED
//   anything else → TOKEN_INVALID
// No ops. Thread-safety: no state; the service may run concurrently.
#include <opbase/sdk.hpp>
#include <string>
#include <string_view>

namespace {

using nlohmann::json;
using opbase::Result;
using opbase::Status;

// The id after `prefix`, or "" when `token` does not start with it.
std::string id_after(std::string_view token, std::string_view prefix) {
  if (!token.starts_with(prefix)) return {};
  return std::string(token.substr(prefix.size()));
}

Result<json> verify_token(std::string_view /*project_id*/, const json& input) {
  const auto token = input.find("token");
  if (token == input.end() || !token->is_string()) {
    return Status(opbase::code::kTokenInvalid, "no token given");
  }
  const std::string& text = token->get_ref<const std::string&>();
  if (text == "expired") return Status(opbase::code::kTokenExpired, "the token has expired");
  if (std::string id = id_after(text, "user-"); !id.empty()) {
    return json{{"sub", id}, {"roles", {"user"}}};
  }
  if (std::string id = id_after(text, "admin-"); !id.empty()) {
    return json{{"sub", id}, {"roles", {"user", "admin"}}};
  }
  return Status(opbase::code::kTokenInvalid, "the token is not valid");
}

class FakeAuthPlugin final : public opbase::Plugin {
 public:
  Status init(opbase::Registrar& r) override {
    r.service("auth.verify_token", &verify_token);
    return r.status();
  }
};

}  // namespace

OPBASE_PLUGIN(FakeAuthPlugin, "auth", "0.0.0-test")
