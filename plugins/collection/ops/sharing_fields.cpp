// The sharing lists (see ops/sharing_fields.hpp).
#include "ops/sharing_fields.hpp"

#include <algorithm>

#include "opbase/field_error.hpp"
#include "rules/collection_rules.hpp"

namespace opbase::collection {
namespace {

using nlohmann::json;

bool user_key_like(std::string_view text) {
  if (text.empty() || text.size() > 64) return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  });
}

}  // namespace

bool is_sharing_field(std::string_view name) {
  return std::find(kSharingFields.begin(), kSharingFields.end(), name) != kSharingFields.end();
}

Result<json> sharing_list(const json& value, std::string_view field, int64_t max) {
  if (!value.is_array()) {
    return field_error(
        field, std::string(field) + " must be an array of user keys and role:<name> entries");
  }
  if (static_cast<int64_t>(value.size()) > max) {
    return field_error(field,
                       std::string(field) + " holds more than " + std::to_string(max) +
                           " entries (datastore.max_sharing_entries)",
                       {{"max", max}});
  }
  json list = json::array();
  for (std::size_t i = 0; i < value.size(); ++i) {
    const json& entry = value[i];
    const bool ok =
        entry.is_string() &&
        (entry.get_ref<const std::string&>().starts_with("role:")
             ? valid_role_name(std::string_view(entry.get_ref<const std::string&>()).substr(5))
             : user_key_like(entry.get_ref<const std::string&>()));
    if (!ok) {
      return field_error(
          field,
          std::string(field) + "[" + std::to_string(i) + "] is neither a user key nor role:<name>",
          {{"index", i}});
    }
    if (std::find(list.begin(), list.end(), entry) == list.end()) list.push_back(entry);
  }
  return list;
}

bool changes_sharing(const store::Change& change) {
  for (std::string_view field : kSharingFields) {
    if (change.set.contains(std::string(field))) return true;
    if (std::find(change.unset.begin(), change.unset.end(), field) != change.unset.end()) {
      return true;
    }
  }
  return false;
}

std::vector<std::string> lists_for_reading() {
  return {std::string(kReaders), std::string(kWriters)};
}
std::vector<std::string> lists_for_writing() { return {std::string(kWriters)}; }

}  // namespace opbase::collection
