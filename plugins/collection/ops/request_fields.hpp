// The fields datastore ops read from their bodies the same way: the collection's name, a match,
// a sort, paging (docs/api.md#the-datastore), with the error each gives when it is wrong.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/query.hpp"
#include "opbase/status.hpp"

namespace opbase::collection {

// VALIDATION_ERROR "'<field>' is required and must be <what>" with details.field.
Status missing(std::string_view field, std::string_view what);

// `collection`: a string that is a valid collection name.
Result<std::string> collection_of(const nlohmann::json& body);

// A match-syntax field of the body: required ones must be objects; optional ones may be absent.
Result<query::Match> match_field(const nlohmann::json& body, std::string_view field, bool required,
                                 const query::ParseOptions& options);

// `sort`: a string such as "price desc, name asc"; absent or null: "_created_at desc".
Result<std::vector<query::SortKey>> sort_field(const nlohmann::json& body,
                                               const query::ParseOptions& options);

// `limit` (1 to options.limit_cap, default 100) and `offset` (0 to 2^53, default 0).
Result<query::Paging> paging_fields(const nlohmann::json& body, const query::ParseOptions& options);

}  // namespace opbase::collection
