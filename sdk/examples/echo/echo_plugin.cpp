// echo: a small op plugin in C++, written only against the installed SDK.
//   echo.ping    returns {"pong": true}                      (API key only; the no-op benchmark)
//   echo.echo    returns the request body without "op"       (API key only)
//   echo.whoami  returns the caller's user key and claims    (signed-in user)
//   echo.greet   returns "<greeting>, <name>!" with the greeting from config key echo.greeting
// and a route (no API key: a route checks its own credentials, and these need none), whose
// bodies are never held whole:
//   PUT /echo/count      reads the body in pieces; answers its length as text
//   GET /echo/bytes/<n>  answers n bytes (at most 1 GB) of "echo", written 64 KB at a time
#include <algorithm>
#include <charconv>
#include <opbase/sdk.hpp>
#include <string>

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
        return opbase::field_error("name", "field 'name' must be a string");
      }
      return Reply(greeting_ + ", " + name->get<std::string>() + "!");
    });
    r.route("/echo/", [](opbase::RouteCall& call) { serve(call); });
    return r.status();
  }

 private:
  static void serve(opbase::RouteCall& call) {
    const std::string_view path = call.target().substr(0, call.target().find('?'));
    if (path == "/echo/count" && call.method() == "PUT") return count(call);
    constexpr std::string_view kBytes = "/echo/bytes/";
    uint64_t n = 0;
    const char* digits = path.data() + std::min(path.size(), kBytes.size());
    const char* end = path.data() + path.size();
    if (path.starts_with(kBytes) && (call.method() == "GET" || call.method() == "HEAD") &&
        std::from_chars(digits, end, n).ptr == end && digits != end && n <= (1u << 30)) {
      return bytes(call, n);
    }
    call.respond_error(Status(opbase::code::kUnknownOperation, "no such echo route",
                              {{"method", call.method()}, {"path", path}}),
                       404);
  }

  static void count(opbase::RouteCall& call) {
    char buffer[65536];
    uint64_t total = 0;
    for (int64_t got; (got = call.read(buffer, sizeof buffer)) != 0; total += got) {
      if (got < 0) return;  // the client is gone: nobody to answer
    }
    call.respond(200, "text/plain", std::to_string(total));
  }

  static void bytes(opbase::RouteCall& call, uint64_t n) {
    std::string piece;
    while (piece.size() < 65536) piece += "echo";
    if (!call.start(200, "application/octet-stream", n)) return;
    for (uint64_t left = n; left > 0;) {
      const auto take = static_cast<size_t>(std::min<uint64_t>(left, piece.size()));
      if (!call.write(std::string_view(piece).substr(0, take))) return;
      left -= take;
    }
  }

  std::string greeting_;
};

}  // namespace

OPBASE_PLUGIN(EchoPlugin, "echo", "1.0.0")
