// The datastore ops' shared body fields (see ops/request_fields.hpp).
#include "ops/request_fields.hpp"

#include "opbase/collection_name.hpp"
#include "opbase/field_error.hpp"

namespace opbase::collection {

using nlohmann::json;

Status missing(std::string_view field, std::string_view what) {
  std::string message = "'";
  message.append(field).append("' is required and must be ").append(what);
  return field_error(field, std::move(message));
}

Result<std::string> collection_of(const json& body) {
  const auto it = body.find("collection");
  if (it == body.end() || !it->is_string()) return missing("collection", "a string");
  std::string name = it->get<std::string>();
  if (Status s = check_collection_name(name); !s) return s;
  return name;
}

Result<query::Match> match_field(const json& body, std::string_view field, bool required,
                                 const query::ParseOptions& options) {
  const auto it = body.find(field);
  if (it == body.end() || (it->is_null() && !required)) {
    if (required) return missing(field, "an object");
    return query::Match{};
  }
  if (!it->is_object()) return missing(field, "an object");
  auto match = query::parse_match(*it, options);
  if (!match) {
    json details = match.status().details().is_object() ? match.status().details() : json::object();
    details["field"] = field;
    return Status::validation(match.status().message(), std::move(details));
  }
  return match;
}

Result<std::vector<query::SortKey>> sort_field(const json& body,
                                               const query::ParseOptions& options) {
  const auto it = body.find("sort");
  if (it != body.end() && !it->is_null() && !it->is_string()) {
    return field_error("sort", "sort must be a string such as \"price desc, name asc\"");
  }
  const std::string text = it != body.end() && it->is_string() ? it->get<std::string>() : "";
  return query::parse_sort(text, options, "_created_at desc");
}

Result<query::Paging> paging_fields(const json& body, const query::ParseOptions& options) {
  // Far beyond any collection, and small enough that the pagination arithmetic cannot overflow.
  constexpr int64_t kMaxOffset = int64_t{1} << 53;
  auto paging = query::parse_paging(body, options);
  if (!paging) return paging.status();
  if (paging->limit < 1) {
    return field_error("limit", "limit must be at least 1");
  }
  if (paging->offset > kMaxOffset) {
    return field_error("offset", "offset is above the maximum of " + std::to_string(kMaxOffset),
                       {{"max", kMaxOffset}});
  }
  return paging;
}

}  // namespace opbase::collection
