#include "plugin_host/response.hpp"

#include <nlohmann/json.hpp>
#include <string_view>

#include "opbase/internal/answer_rules.hpp"
#include "opbase/internal/str.hpp"
#include "opbase/json_text.hpp"

opbase::Status opbase_response::error_status() const {
  if (!failed) return opbase::Status::ok();
  nlohmann::json parsed_details = nullptr;
  if (!details.empty()) parsed_details = nlohmann::json::parse(details, nullptr, false);
  if (parsed_details.is_discarded()) parsed_details = nullptr;
  return opbase::Status(code, message, std::move(parsed_details));
}

namespace opbase::host {
namespace {}  // namespace

opbase_rc response_set_part(opbase_response* response, opbase_part part, opbase_str json) {
  if (response == nullptr || (json.ptr == nullptr && json.len > 0)) return OPBASE_RC_REFUSED;
  const std::string_view text = view(json);
  switch (part) {
    case OPBASE_PART_DATA:
      if (!json_text::is_valid(text)) return OPBASE_RC_REFUSED;
      response->data.emplace(text);
      return OPBASE_RC_OK;
    case OPBASE_PART_META:
      if (!answers::is_json_object(text)) return OPBASE_RC_REFUSED;
      response->meta.emplace(text);
      return OPBASE_RC_OK;
    case OPBASE_PART_TOP_LEVEL:
      if (!answers::is_json_object(text)) return OPBASE_RC_REFUSED;
      response->top_level.emplace(text);
      return OPBASE_RC_OK;
  }
  return OPBASE_RC_REFUSED;
}

opbase_rc response_set_error(opbase_response* response, opbase_str code, opbase_str message,
                             opbase_str details, int http_status) {
  if (response == nullptr) return OPBASE_RC_REFUSED;
  const std::string_view code_text = view(code);
  const std::string_view details_text = view(details);
  const bool details_ok = details_text.empty() || answers::is_json_object(details_text);
  const bool status_ok = answers::valid_http_status(http_status);
  response->failed = true;
  if (!answers::valid_error_code(code_text) || !details_ok || !status_ok) {
    // A malformed error from a plugin is the plugin's bug: answer INTERNAL_ERROR, not garbage.
    response->code = std::string(opbase::code::kInternalError);
    response->message = "the plugin answered a malformed error";
    response->details.clear();
    response->http_status = 0;
    return OPBASE_RC_REFUSED;
  }
  response->code.assign(code_text);
  response->message.assign(view(message));
  response->details.assign(details_text);
  response->http_status = http_status;
  return OPBASE_RC_OK;
}

}  // namespace opbase::host
