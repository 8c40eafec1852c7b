// The C++ Host wrapper over the C function table.
#include "opbase/host.hpp"

#include <charconv>

#include "opbase/internal/str.hpp"

namespace opbase {
namespace {

struct ServiceAnswer {
  opbase_rc rc = OPBASE_RC_ERROR;
  std::string data, code, message, details;
};

void keep_service_answer(void* ctx, opbase_rc rc, opbase_str data, opbase_str code,
                         opbase_str message, opbase_str details) {
  auto* answer = static_cast<ServiceAnswer*>(ctx);
  answer->rc = rc;
  answer->data.assign(data.ptr, data.len);
  answer->code.assign(code.ptr, code.len);
  answer->message.assign(message.ptr, message.len);
  answer->details.assign(details.ptr, details.len);
}

void keep_config_value(void* ctx, opbase_str value) {
  static_cast<std::string*>(ctx)->assign(value.ptr, value.len);
}

}  // namespace

Result<std::string> Host::call_service_text(std::string_view name, std::string_view project_id,
                                            std::string_view input) const {
  ServiceAnswer answer;
  api_->call_service(plugin_, str(name), str(project_id), str(input), &keep_service_answer,
                     &answer);
  if (answer.rc == OPBASE_RC_OK) return std::move(answer.data);
  nlohmann::json details = nullptr;
  if (!answer.details.empty()) {
    details = nlohmann::json::parse(answer.details, nullptr, false);
    if (details.is_discarded()) details = nullptr;
  }
  if (answer.code.empty()) answer.code = std::string(code::kInternalError);
  return Status(answer.code, answer.message, std::move(details));
}

Result<nlohmann::json> Host::call_service(std::string_view name, std::string_view project_id,
                                          const nlohmann::json& input) const {
  auto text = call_service_text(name, project_id, input.dump());
  if (!text) return text.status();
  auto parsed = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    return Status::internal("service " + std::string(name) + " answered invalid JSON");
  }
  return parsed;
}

Status Host::publish(std::string_view type, std::string_view project_id,
                     const nlohmann::json& payload) const {
  const std::string text = payload.dump();
  if (api_->publish(plugin_, str(type), str(project_id), str(text)) != OPBASE_RC_OK) {
    return Status::internal("event " + std::string(type) + " was refused by the host");
  }
  return Status::ok();
}

void Host::count(std::string_view name, double amount) const {
  if (api_->abi_minor >= 1) (void)api_->metric_add(plugin_, str(name), amount);
}

void Host::gauge(std::string_view name, double value) const {
  if (api_->abi_minor >= 1) (void)api_->metric_set(plugin_, str(name), value);
}

void Host::observe_seconds(std::string_view name, double seconds) const {
  if (api_->abi_minor >= 1) (void)api_->metric_observe(plugin_, str(name), seconds);
}

std::optional<std::string> Host::config(std::string_view key) const {
  std::string value;
  if (api_->config_get(plugin_, str(key), &keep_config_value, &value) != OPBASE_RC_OK) {
    return std::nullopt;
  }
  return value;
}

std::string Host::config_or(std::string_view key, std::string_view fallback) const {
  auto value = config(key);
  return value ? *value : std::string(fallback);
}

Result<int64_t> Host::config_int_in(std::string_view key, int64_t fallback, int64_t min,
                                    int64_t max) const {
  auto value = config_int(key, fallback);
  if (!value) return value;
  if (*value < min || *value > max) {
    return Status::validation(std::string(key) + " must be an integer from " + std::to_string(min) +
                                  " to " + std::to_string(max),
                              {{"key", key}});
  }
  return value;
}

Result<int64_t> Host::config_int(std::string_view key, int64_t fallback) const {
  auto value = config(key);
  if (!value) return fallback;
  int64_t parsed = 0;
  const char* end = value->data() + value->size();
  auto [ptr, ec] = std::from_chars(value->data(), end, parsed);
  if (ec != std::errc() || ptr != end) {
    return Status::internal("configuration key " + std::string(key) + " must be an integer, not '" +
                            *value + "'");
  }
  return parsed;
}

std::vector<std::string> Host::config_list(std::string_view key) const {
  std::vector<std::string> out;
  const std::string text = config_or(key, "");
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    std::string item = text.substr(start, comma - start);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!item.empty()) out.push_back(std::move(item));
    start = comma + 1;
  }
  return out;
}

void Host::log(opbase_log_level level, std::string_view message) const {
  api_->log(plugin_, level, str(message));
}

}  // namespace opbase
