// Fuzzes the gateway's request pipeline (Dispatcher: body parse, op, access, dispatch, envelope)
// with any bytes as the body. Every answer must be a JSON object: either {"data": ...} with
// status 200 or {"error": {"code", "message"}} with a 4xx/5xx status.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string_view>

#include "gateway/dispatcher.hpp"
#include "plugin_host/response.hpp"

namespace {

using namespace opbase::host;

// An op that returns the "x" field of its body, or an error when there is none.
opbase_rc echo_x(void*, const opbase_request* request, opbase_response* response) {
  const auto body = nlohmann::json::parse(std::string_view(request->body.ptr, request->body.len));
  if (!body.contains("x")) {
    const std::string_view code = "VALIDATION_ERROR", message = "no x";
    response_set_error(response, {code.data(), code.size()}, {message.data(), message.size()}, {},
                       0);
    return OPBASE_RC_ERROR;
  }
  const std::string x = body["x"].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return response_set_part(response, OPBASE_PART_DATA, {x.data(), x.size()});
}

struct World {
  Config config = Config::defaults_with({{"projects.fuzz.endpoint_key", "fuzzkey"},
                                         {"projects.fuzz.api_key", "fuzz-api-key-0123456789"},
                                         {"projects.generate_default", "false"}});
  std::unique_ptr<Projects> projects;
  Registry registry;
  std::unique_ptr<Dispatcher> dispatcher;

  World() {
    projects = Projects::load(config).value();
    registry.add_op("fuzz", "fuzz.echo", OPBASE_ACCESS_API_KEY, &echo_x, nullptr);
    registry.add_op("fuzz", "fuzz.user", OPBASE_ACCESS_USER, &echo_x, nullptr);
    dispatcher = std::make_unique<Dispatcher>(*projects, registry, 1 << 20);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static World world;
  ApiCall call;
  call.endpoint_key = std::string_view("fuzzkey");
  call.api_key = "fuzz-api-key-0123456789";
  call.body = std::string_view(reinterpret_cast<const char*>(data), size);
  call.request_id = "fuzz";
  call.client_address = "127.0.0.1";
  const ApiAnswer answer = world.dispatcher->handle(call);
  const auto envelope = nlohmann::json::parse(answer.body, nullptr, false);
  if (!envelope.is_object()) std::abort();
  if (answer.http_status == 200) {
    if (!envelope.contains("data")) std::abort();
  } else {
    if (answer.http_status < 400 || answer.http_status > 599) std::abort();
    const auto& error = envelope["error"];
    if (!error.is_object() || !error["code"].is_string() || !error["message"].is_string())
      std::abort();
  }
  return 0;
}
