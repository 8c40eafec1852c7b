// The JWKS route (see jwks_route.hpp).
#include "gateway/jwks_route.hpp"

#include <string>

#include "gateway/envelope.hpp"
#include "log/log.hpp"
#include "opbase/json_text.hpp"
#include "plugin_host/service_call.hpp"

namespace opbase::host {
namespace {

constexpr std::string_view kPrefix = "/api/";
constexpr std::string_view kSuffix = "/.well-known/jwks.json";

ApiAnswer failure(const Status& status, std::string_view request_id) {
  ApiAnswer answer;
  answer.http_status = status.http_status();
  answer.body = error_envelope(status, request_id);
  answer.metric_code = status.code();
  return answer;
}

// Keys change rarely (at rotation, which keeps the old key published for a while), so clients
// and proxies may keep the set for five minutes instead of asking on every token they verify.
ApiAnswer key_set(std::string body) {
  ApiAnswer answer;
  answer.body = std::move(body);
  answer.headers.emplace_back("Cache-Control", "public, max-age=300");
  return answer;
}

}  // namespace

std::optional<std::string_view> jwks_endpoint_key(std::string_view path) {
  if (!path.starts_with(kPrefix) || !path.ends_with(kSuffix)) return std::nullopt;
  if (path.size() <= kPrefix.size() + kSuffix.size()) return std::nullopt;
  const std::string_view key =
      path.substr(kPrefix.size(), path.size() - kPrefix.size() - kSuffix.size());
  if (key.find('/') != std::string_view::npos) return std::nullopt;
  return key;
}

ApiAnswer serve_jwks(const Projects& projects, const Registry& registry,
                     std::string_view endpoint_key, std::string_view request_id) {
  const Project* project = projects.by_endpoint_key(endpoint_key);
  if (project == nullptr) {
    return failure(Status(code::kUnknownOperation, "no project has this endpoint key"), request_id);
  }
  const ServiceEntry* service = registry.find_service(kJwksService);
  if (service == nullptr) {
    return failure(Status(code::kUnknownOperation,
                          "no ID token keys to publish: the auth plugin is not enabled"),
                   request_id);
  }
  Result<std::string> keys = call_plugin_service(*service, project->id, "{}");
  if (keys && !json_text::is_object(*keys)) {
    keys = Status::internal("the answer is not a JSON object");
  }
  if (!keys) {
    log::error("gateway", "request " + std::string(request_id) + ": " + std::string(kJwksService) +
                              " failed for project " + project->id + ": " +
                              keys.status().to_string());
    return failure(Status::internal("the ID token keys are not available"), request_id);
  }
  return key_set(std::move(*keys));
}

}  // namespace opbase::host
