#include "ops/request_fields.hpp"

#include <algorithm>

#include "opbase/field_error.hpp"

namespace opbase::auth {
namespace {

using nlohmann::json;

Status bad(std::string_view field, std::string what) {
  return field_error(field, std::string(field) + " " + std::move(what));
}

// {"token":"<no quote, no backslash>"}, the gateway's form; else nullopt. Between those quotes
// the string has no escapes, so its bytes are the token. (Bytes JSON forbids there, such as
// control characters, are taken as they are: no token holding them verifies.)
std::optional<std::string_view> compact_token(std::string_view input) {
  constexpr std::string_view kOpen = R"({"token":")";
  constexpr std::string_view kClose = R"("})";
  if (input.size() <= kOpen.size() + kClose.size() || !input.starts_with(kOpen) ||
      !input.ends_with(kClose)) {
    return std::nullopt;
  }
  const std::string_view token =
      input.substr(kOpen.size(), input.size() - kOpen.size() - kClose.size());
  const bool plain =
      token.find('"') == std::string_view::npos && token.find('\\') == std::string_view::npos;
  return plain ? std::optional(token) : std::nullopt;
}

}  // namespace

Result<std::string> verifier_input_token(std::string_view input_json) {
  if (std::optional<std::string_view> token = compact_token(input_json)) return std::string(*token);
  const json input = json::parse(input_json, nullptr, /*allow_exceptions=*/false);
  const auto token = input.is_object() ? input.find("token") : input.end();
  if (!input.is_object() || token == input.end() || !token->is_string()) {
    return Status(code::kTokenInvalid, "no token given");
  }
  return token->get<std::string>();
}

Result<std::string> required_string(const json& body, std::string_view field, size_t max_bytes) {
  const auto it = body.find(field);
  if (it == body.end() || it->is_null()) return bad(field, "is required");
  if (!it->is_string()) return bad(field, "must be a string");
  const std::string& value = it->get_ref<const std::string&>();
  if (value.empty()) return bad(field, "must not be empty");
  if (value.size() > max_bytes) {
    return bad(field, "is longer than " + std::to_string(max_bytes) + " bytes");
  }
  return value;
}

Result<std::optional<std::string>> optional_string(const json& body, std::string_view field,
                                                   size_t max_bytes) {
  const auto it = body.find(field);
  if (it == body.end() || it->is_null()) return std::optional<std::string>();
  auto value = required_string(body, field, max_bytes);
  if (!value) return value.status();
  return std::optional<std::string>(std::move(*value));
}

std::optional<std::string> expected_audience(const json& body) {
  const auto aud = body.find("aud");
  if (aud == body.end() || !aud->is_string() || aud->get_ref<const std::string&>().empty()) {
    return std::nullopt;
  }
  return aud->get<std::string>();
}

Result<json> profile_fields(const json& source, std::initializer_list<std::string_view> allowed,
                            bool strict) {
  if (!source.is_object()) return bad("data", "must be an object");
  json out = json::object();
  for (const auto& [name, value] : source.items()) {
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      if (strict) return bad(name, "cannot be changed here");
      continue;
    }
    if (name == "metadata") {
      if (!value.is_object()) return bad(name, "must be an object");
      if (value.dump().size() > kMaxMetadataBytes) {
        return bad(name, "is larger than " + std::to_string(kMaxMetadataBytes) + " bytes");
      }
    } else if (!value.is_string() || value.get_ref<const std::string&>().size() > kMaxFieldBytes) {
      return bad(name, "must be a string of at most " + std::to_string(kMaxFieldBytes) + " bytes");
    }
    out[name] = value;
  }
  return out;
}

}  // namespace opbase::auth
