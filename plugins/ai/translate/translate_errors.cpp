#include "translate/translate_errors.hpp"

#include <nlohmann/json.hpp>

namespace opbase::ai {

Status translation_failure(std::string_view error_type, std::string message,
                           bool retry_recommended) {
  return Status(
      code::kProcessingFailed, std::move(message),
      nlohmann::json{{"error_type", error_type}, {"retry_recommended", retry_recommended}});
}

std::string translation_error_type(const Status& status) {
  const nlohmann::json& details = status.details();
  if (!details.is_object()) return "";
  const auto found = details.find("error_type");
  return found != details.end() && found->is_string() ? found->get<std::string>() : "";
}

}  // namespace opbase::ai
