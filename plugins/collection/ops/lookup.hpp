// `lookup` of collection.find (docs/api.md#lookup): {from, local_field, foreign_field, as}, or an
// array of them. Each joins into field `as` (an array) the caller's own documents of collection
// `from` whose `foreign_field` equals a value of the document's `local_field` (array values element
// by element; a missing local field joins on null, which a missing foreign field matches, as in
// MongoDB's $lookup). Thread-safe: pure functions plus the fetch callback.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "opbase/query.hpp"
#include "opbase/status.hpp"

namespace opbase::collection {

struct LookupSpec {
  std::string from;
  query::FieldPath local;
  query::FieldPath foreign;
  query::FieldPath as;
};

// VALIDATION_ERROR with details {"field": "lookup", ...} naming what is wrong.
Result<std::vector<LookupSpec>> parse_lookup(const nlohmann::json& lookup,
                                             const query::ParseOptions& options);

// The caller's active documents of `from` that match (all of them, in any order).
using FetchForeign = std::function<Result<std::vector<nlohmann::json>>(const std::string& from,
                                                                       const query::Match&)>;

Status apply_lookups(std::vector<nlohmann::json>& documents, const std::vector<LookupSpec>& specs,
                     const FetchForeign& fetch);

}  // namespace opbase::collection
