// call_plugin_service: how the host itself (not a plugin) calls a service a plugin provides —
// the JWKS route asks "auth.jwks", `opbase admin create` asks "auth.admin_create". The call runs
// on the caller's thread, like a plugin's call_service.
// Thread-safety: as safe as the service, which must allow concurrent calls (abi.h).
#pragma once

#include <string>
#include <string_view>

#include "opbase/status.hpp"
#include "plugin_host/registry.hpp"

namespace opbase::host {

// Calls `service` for `project_id` with `input` (JSON text). Answers the service's data as JSON
// text ("null" when it set none), or its error. A service that lets an exception escape (the
// SDK never does; a C plugin cannot) or fails without an error returns INTERNAL_ERROR.
Result<std::string> call_plugin_service(const ServiceEntry& service, std::string_view project_id,
                                        std::string_view input);

}  // namespace opbase::host
