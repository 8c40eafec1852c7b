// The fields of an update (collection.update's `data`, upsert's `update`) as a store change:
//   "field": value          sets the field (a dot path: "address.city")
//   "@field": "@now()"      sets the field to the current time (ISO 8601)
//   "@field": "@inc(n)"     adds the number n (a missing field counts as 0)
//   "@field": "@unset()"    removes the field
// Any other '@' form, a name starting with '_' or '$' (but the reserved fields allowed), two fields
// on one path or on a path and a path inside it, and an update with no field at all are
// VALIDATION_ERROR (docs/api.md#update-fields).
// `_modified_at` is always set to now. Pure function; thread-safe.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "opbase/status.hpp"
#include "opbase/store.hpp"

namespace opbase::collection {

// The reserved fields an update may name besides: the sharing lists `_readers` and `_writers`
// (set to a list, or "@unset()") when `max_sharing_entries` > 0, and `_userkey` (a string or
// null) when `owner` is true. The caller decides who may (ops/sharing_fields.hpp).
struct ReservedFields {
  int64_t max_sharing_entries = 0;
  bool owner = false;
};

Result<store::Change> change_from_fields(const nlohmann::json& fields, int64_t now_ms,
                                         const ReservedFields& reserved = {});

}  // namespace opbase::collection
