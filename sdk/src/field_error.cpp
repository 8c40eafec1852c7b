#include "opbase/field_error.hpp"

namespace opbase {

Status field_error(std::string_view field, std::string message, nlohmann::json more,
                   std::string_view code) {
  nlohmann::json details = more.is_object() ? std::move(more) : nlohmann::json::object();
  details["field"] = field;
  return Status(code, std::move(message), std::move(details));
}

}  // namespace opbase
