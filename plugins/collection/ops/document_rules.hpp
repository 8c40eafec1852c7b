// What a document is when a user writes one (docs/api.md#documents): system fields the
// plugin stamps, the field names users may use, the size limit. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "opbase/iso_time.hpp"
#include "opbase/status.hpp"

namespace opbase::collection {

// The base properties users may read, match, sort and project.
inline const std::vector<std::string>& base_fields() {
  static const std::vector<std::string> fields = {"_key", "_userkey", "_created_at",
                                                  "_modified_at"};
  return fields;
}

// A new `_key`: UUID version 4 from the kernel's CSPRNG, as 32 lowercase hex digits.
std::string new_key();
// A random 128-bit reference for a delete or archive (32 hex digits).
std::string new_ref();

// The stored form of a user's new document: user fields without the `_`-names (ignored on
// insert), plus `reserved` (an object of reserved fields the caller checked and allows, such as
// the sharing lists), _key, _userkey (null when anonymous), _created_at and _modified_at.
// VALIDATION_ERROR when `data` is not an object, a field name is empty or starts with '$' (at any
// depth), or the document's JSON is over `max_bytes` (details: limit, size, and index when `index`
// >= 0).
Result<nlohmann::json> new_document(const nlohmann::json& data, const nlohmann::json& owner,
                                    int64_t now_ms, int64_t max_bytes, int64_t index,
                                    const nlohmann::json& reserved = nlohmann::json::object());

// A field name users may write (non-empty, not starting with '_' or '$').
bool user_field_name(std::string_view name);

// Checks names at every depth of a value users write (no empty or '$' names).
Status check_nested_names(const nlohmann::json& value, std::string_view field);

// A stored document as returned by insert and update: with `_updated_at` = `_modified_at`.
nlohmann::json with_updated_at(nlohmann::json document);

}  // namespace opbase::collection
