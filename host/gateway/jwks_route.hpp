// The JWKS route (docs/api.md#the-jwks-route): GET /api/{endpoint_key}/.well-known/jwks.json
// returns the public keys that verify the project's ID tokens, as the auth plugin's service
// "auth.jwks" gives them ({"keys": [...]}, a JSON Web Key Set). Public keys are public: no API key
// is asked for, and the answer may be cached for five minutes. Thread-safety: stateless; reads the
// projects and the registry, which do not change while serving.
#pragma once

#include <optional>
#include <string_view>

#include "gateway/dispatcher.hpp"
#include "plugin_host/registry.hpp"
#include "projects/projects.hpp"

namespace opbase::host {

inline constexpr std::string_view kJwksService = "auth.jwks";

// The endpoint key in a JWKS path ("/api/<key>/.well-known/jwks.json"), or nullopt when `path`
// is not one. The key is not checked here.
std::optional<std::string_view> jwks_endpoint_key(std::string_view path);

// The answer to GET of the JWKS path: 200 with the key set as the body (not wrapped in the
// envelope: JOSE libraries read the key set itself) and Cache-Control; or the error envelope,
// 404 UNKNOWN_OPERATION for an unknown endpoint key or when no plugin provides "auth.jwks",
// 500 INTERNAL_ERROR when the service fails (the reason goes to the log, not to the client).
ApiAnswer serve_jwks(const Projects& projects, const Registry& registry,
                     std::string_view endpoint_key, std::string_view request_id);

}  // namespace opbase::host
