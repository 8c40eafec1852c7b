// The rules of user documents (see ops/document_rules.hpp).
#include "ops/document_rules.hpp"

#include <ctime>

#include "opbase/crypto.hpp"
#include "opbase/field_error.hpp"
#include "opbase/hex.hpp"

namespace opbase::collection {
namespace {

using nlohmann::json;

}  // namespace

std::string new_key() {
  std::string bytes = random_bytes(16);
  bytes[6] = static_cast<char>((bytes[6] & 0x0F) | 0x40);  // version 4
  bytes[8] = static_cast<char>((bytes[8] & 0x3F) | 0x80);  // RFC 4122 variant
  return hex_encode(bytes);
}

std::string new_ref() { return random_hex(16); }

bool user_field_name(std::string_view name) {
  return !name.empty() && name.front() != '_' && name.front() != '$';
}

Status check_nested_names(const json& value, std::string_view field) {
  if (value.is_object()) {
    for (const auto& [name, inner] : value.items()) {
      std::string path(field);
      path.append(".").append(name);
      if (name.empty() || name.front() == '$') {
        return field_error(path, "field names may not be empty or start with '$'");
      }
      if (Status s = check_nested_names(inner, path); !s) return s;
    }
  } else if (value.is_array()) {
    for (const json& element : value) {
      if (Status s = check_nested_names(element, field); !s) return s;
    }
  }
  return Status::ok();
}

Result<json> new_document(const json& data, const json& owner, int64_t now_ms, int64_t max_bytes,
                          int64_t index, const json& reserved) {
  auto with_index = [&](json details) {
    if (index >= 0) details["index"] = index;
    return details;
  };
  if (!data.is_object()) {
    return field_error("data", "each document must be a JSON object", with_index(json::object()));
  }
  json doc = json::object();
  for (const auto& [name, value] : data.items()) {
    if (!name.empty() && name.front() == '_') continue;  // system names are ignored on insert
    if (name.empty() || name.front() == '$') {
      return field_error(name, "field names may not be empty or start with '$'",
                         with_index(json::object()));
    }
    if (Status s = check_nested_names(value, name); !s) {
      return Status::validation(s.message(), with_index(s.details()));
    }
    doc[name] = value;
  }
  for (const auto& [name, value] : reserved.items()) doc[name] = value;
  const std::string now = iso_time(now_ms);
  doc["_key"] = new_key();
  doc["_userkey"] = owner;
  doc["_created_at"] = now;
  doc["_modified_at"] = now;
  const auto size = static_cast<int64_t>(doc.dump().size());
  if (size > max_bytes) {
    return Status::validation(
        "the document is larger than the maximum of " + std::to_string(max_bytes) + " bytes",
        with_index({{"limit", max_bytes}, {"size", size}}));
  }
  return doc;
}

json with_updated_at(json document) {
  if (auto it = document.find("_modified_at"); it != document.end()) {
    document["_updated_at"] = *it;
  }
  return document;
}

}  // namespace opbase::collection
