// fake_auth: a test-only plugin named "auth" providing the services the host calls on the auth
// plugin, with results a test can predict. "auth.verify_token", for the gateway's bearer
// tokens, takes tokens a test can write by hand:
//   "user-<id>"   → {"sub": "<id>", "roles": ["user"]}
//   "admin-<id>"  → {"sub": "<id>", "roles": ["user", "admin"]}
//   "expired"     → TOKEN_EXPIRED
//   anything else → TOKEN_INVALID
// "auth.jwks", for the JWKS route: {"keys": [{"kty": "EC", "kid": "test"}]}, or INTERNAL_ERROR
// for the project "broken".
// "auth.admin_create", for `opbase admin create`: {"_userkey": "u-admin", "email": <email>};
// EMAIL_ALREADY_EXISTS for "taken@example.com"; VALIDATION_ERROR when the input lacks a string
// email, password or display_name. It logs the email and display_name it got (never the
// password), so a test can see what the command sent.
// No ops. Thread-safety: no state; the services may run concurrently.
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

Result<json> jwks(std::string_view project_id, const json& /*input*/) {
  if (project_id == "broken") return Status::internal("the keys of project 'broken' are broken");
  return json{{"keys", {{{"kty", "EC"}, {"kid", "test"}}}}};
}

bool has_string(const json& input, const char* name) {
  return input.is_object() && input.contains(name) && input[name].is_string();
}

class FakeAuthPlugin final : public opbase::Plugin {
 public:
  Status init(opbase::Registrar& r) override {
    r.service("auth.verify_token", &verify_token);
    r.service("auth.jwks", &jwks);
    r.service("auth.admin_create",
              [this](std::string_view, const json& input) { return admin_create(input); });
    return r.status();
  }

 private:
  Result<json> admin_create(const json& input) const {
    for (const char* field : {"email", "password", "display_name"}) {
      if (!has_string(input, field)) {
        return Status::validation(std::string("'") + field + "' must be a string",
                                  {{"field", field}});
      }
    }
    const std::string email = input["email"];
    host().info("admin_create email=" + email +
                " display_name=" + input["display_name"].get<std::string>());
    if (email == "taken@example.com") {
      return Status(opbase::code::kEmailAlreadyExists, "an account with this e-mail exists");
    }
    return json{{"_userkey", "u-admin"}, {"email", email}};
  }
};

}  // namespace

OPBASE_PLUGIN(FakeAuthPlugin, "auth", "0.0.0-test")
