#include "gateway/envelope.hpp"

#include <nlohmann/json.hpp>

namespace opbase::host {

std::string success_envelope(std::string_view data, const std::optional<std::string>& meta,
                             const std::optional<std::string>& top_level) {
  std::string out;
  out.reserve(data.size() + (meta ? meta->size() : 0) + 24);
  out += "{\"data\":";
  out += data.empty() ? std::string_view("null") : data;
  if (meta) {
    out += ",\"meta\":";
    out += *meta;
  }
  if (top_level) {
    const auto fields = nlohmann::json::parse(*top_level, nullptr, false);
    if (fields.is_object()) {
      for (const auto& [key, value] : fields.items()) {
        if (key == "data" || key == "meta" || key == "error") continue;
        out += ',';
        out += nlohmann::json(key).dump();
        out += ':';
        out += value.dump();
      }
    }
  }
  out += '}';
  return out;
}

std::string error_envelope(const Status& status, std::string_view request_id) {
  nlohmann::json error = {{"code", status.code()}, {"message", status.message()}};
  nlohmann::json details =
      status.details().is_object() ? status.details() : nlohmann::json::object();
  if (status.code() == code::kInternalError && !request_id.empty()) {
    details["request_id"] = request_id;
  }
  if (!details.empty()) error["details"] = std::move(details);
  // Replace invalid UTF-8 rather than throw: a message may quote client input.
  return nlohmann::json{{"error", std::move(error)}}.dump(-1, ' ', false,
                                                          nlohmann::json::error_handler_t::replace);
}

std::optional<std::string> retry_after(const Status& status) {
  if (status.code() != code::kRateLimitExceeded && status.code() != code::kQuotaExceeded) {
    return std::nullopt;
  }
  const nlohmann::json& details = status.details();
  if (!details.is_object() || !details.contains("retry_after") ||
      !details["retry_after"].is_number_integer()) {
    return std::nullopt;
  }
  return std::to_string(details["retry_after"].get<int64_t>());
}

}  // namespace opbase::host
