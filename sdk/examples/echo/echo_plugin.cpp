// echo: a small op plugin in C++, written only against the installed SDK.
//   echo.ping    returns {"pong": true}                      (API key only; the no-op benchmark)
//   echo.echo    returns the request body without "op"       (API key only)
//   echo.whoami  returns the caller's user key and claims    (signed-in user)
//   echo.greet   returns "<greeting>, <name>!" with the greeting from config key echo.greeting
#include <opbase/sdk.hpp>

namespace {

using opbase::Access;
using opbase::Reply;
using opbase::Request;
using opbase::Result;
using opbase::Status;

class EchoPlugin final : public opbase::Plugin {
 public:
  Status init(opbase::Registrar& r) override {
    greeting_ = host().config_or("echo.greeting", "Hello");
    r.op("echo.ping", Access::kApiKey, [](const Request&) -> Result<Reply> {
      return Reply({{"pong", true}});
    });
    r.op("echo.echo", Access::kApiKey, [](const Request& req) -> Result<Reply> {
      nlohmann::json copy = req.body;
      copy.erase("op");
      return Reply(std::move(copy));
    });
    r.op("echo.whoami", Access::kUser, [](const Request& req) -> Result<Reply> {
      return Reply({{"user", req.user_id}, {"claims", req.user_claims()}});
    });
    r.op("echo.greet", Access::kApiKey, [this](const Request& req) -> Result<Reply> {
      auto name = req.body.find("name");
      if (name == req.body.end() || !name->is_string()) {
        return Status::validation("field 'name' must be a string", {{"field", "name"}});
      }
      return Reply(greeting_ + ", " + name->get<std::string>() + "!");
    });
    return r.status();
  }

 private:
  std::string greeting_;
};

}  // namespace

OPBASE_PLUGIN(EchoPlugin, "echo", "1.0.0")
