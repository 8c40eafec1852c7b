// A filter of vdb.search and the match of vdb.delete: the datastore's match syntax
// (docs/query.md) over a record's `metadata.<path>` and its system fields `_key`, `_created_at`
// and `_modified_at` (docs/api.md#vector-search). Anything else (content, the vector,
// another top-level name) is refused, so a filter never silently matches nothing.
//
// Thread-safety: a pure function.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "opbase/query.hpp"
#include "opbase/status.hpp"

namespace opbase::vdb {

// `value` (an object) as a match; VALIDATION_ERROR naming `field` otherwise, with the match
// parser's details or {"field", "key", "reason": "not_filterable"}.
Result<query::Match> read_record_filter(const nlohmann::json& value, std::string_view field);

}  // namespace opbase::vdb
