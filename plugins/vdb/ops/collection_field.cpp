#include "ops/collection_field.hpp"

#include "opbase/collection_name.hpp"
#include "opbase/field_error.hpp"

namespace opbase::vdb {

Result<std::string> read_collection_field(const nlohmann::json& body) {
  const auto collection = body.find("collection");
  if (collection == body.end() || !collection->is_string()) {
    return field_error("collection", "collection must be a collection name",
                       {{"reason", "missing"}});
  }
  const auto& name = collection->get_ref<const std::string&>();
  if (Status s = collection::check_collection_name(name); !s) {
    nlohmann::json details = s.details().is_object() ? s.details() : nlohmann::json::object();
    details["field"] = "collection";
    return Status(s.code(), s.message(), std::move(details));
  }
  return name;
}

}  // namespace opbase::vdb
