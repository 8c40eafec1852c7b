#include "requests/file_changes.hpp"

#include <string>

#include "opbase/field_error.hpp"
#include "requests/file_fields.hpp"

namespace opbase::file {
namespace {

using nlohmann::json;

Status refused(std::string_view field, std::string message, std::string_view reason) {
  return field_error(field, std::string(field) + " " + std::move(message), {{"reason", reason}});
}

// One field of `data` checked into the value to store.
Result<json> read_change(const std::string& field, const json& value) {
  if (field == "name") {
    auto name = read_file_name(value);
    if (!name) return name.status();
    return json(*name);
  }
  if (field == "metadata") return read_metadata(value);
  if (field == "public") {
    auto is_public = read_public(value);
    if (!is_public) return is_public.status();
    return json(*is_public);
  }
  if (field == "readers") return read_readers(value);
  return refused(field_name_for_error(field),
                 "cannot be changed (file.update changes name, metadata, public and readers)",
                 "unknown");
}

}  // namespace

Result<json> read_file_changes(const json& body) {
  const auto data = body.find("data");
  if (data == body.end() || data->is_null()) return refused("data", "is required", "missing");
  if (!data->is_object()) return refused("data", "must be an object", "type");
  if (data->empty()) return refused("data", "must name a field to change", "empty");
  json changes = json::object();
  for (const auto& [field, value] : data->items()) {
    auto change = read_change(field, value);
    if (!change) return change.status();
    changes[field] = std::move(*change);
  }
  return changes;
}

}  // namespace opbase::file
