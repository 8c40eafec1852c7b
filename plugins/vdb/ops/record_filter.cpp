#include "ops/record_filter.hpp"

#include <string>

#include "opbase/field_error.hpp"

namespace opbase::vdb {

using nlohmann::json;

Result<query::Match> read_record_filter(const json& value, std::string_view field) {
  if (!value.is_object()) {
    return field_error(field, std::string(field) + " must be an object in the match syntax",
                       {{"reason", "not_object"}});
  }
  static const query::ParseOptions options = [] {
    query::ParseOptions o;
    // Every `_` name parses, so the check below refuses the ones a filter cannot test by name.
    o.allow_system_fields = true;
    return o;
  }();
  auto match = query::parse_match(value, options);
  if (!match) {
    json details = match.status().details().is_object() ? match.status().details() : json::object();
    details["field"] = field;
    return Status(match.status().code(), std::string(field) + ": " + match.status().message(),
                  std::move(details));
  }
  for (const query::Condition& condition : *match) {
    const std::string& top = condition.path.segments.front();
    const bool allowed = (top == "metadata" && condition.path.segments.size() > 1) ||
                         top == "_key" || top == "_created_at" || top == "_modified_at";
    if (!allowed) {
      return field_error(
          field,
          std::string(field) +
              " can test metadata.<path>, _key, _created_at and _modified_at, not '" +
              condition.path.text + "'",
          {{"key", condition.path.text}, {"reason", "not_filterable"}});
    }
  }
  return std::move(*match);
}

}  // namespace opbase::vdb
