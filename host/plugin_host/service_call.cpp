// The host calling a plugin's service (see service_call.hpp).
#include "plugin_host/service_call.hpp"

#include "opbase/internal/str.hpp"
#include "plugin_host/response.hpp"

namespace opbase::host {

Result<std::string> call_plugin_service(const ServiceEntry& service, std::string_view project_id,
                                        std::string_view input) {
  opbase_response answer;
  opbase_rc rc = OPBASE_RC_ERROR;
  try {
    rc = service.fn(service.state, str(project_id), str(input), &answer);
  } catch (...) {
    return Status::internal("the service '" + service.name + "' of plugin '" + service.plugin +
                            "' let an exception escape");
  }
  if (answer.failed) return answer.error_status();
  if (rc != OPBASE_RC_OK) {
    return Status::internal("the service '" + service.name + "' of plugin '" + service.plugin +
                            "' failed without an error");
  }
  return answer.data.value_or("null");
}

}  // namespace opbase::host
