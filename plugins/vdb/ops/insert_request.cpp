#include "ops/insert_request.hpp"

#include <algorithm>
#include <cctype>

#include "opbase/field_error.hpp"
#include "ops/collection_field.hpp"
#include "vectors/vector_value.hpp"

namespace opbase::vdb {
namespace {

using nlohmann::json;

Status refused(const std::string& field, std::string_view reason, const std::string& message) {
  return field_error(field, field + " " + message, {{"reason", reason}});
}

bool blank(const std::string& text) {
  return std::all_of(text.begin(), text.end(),
                     [](unsigned char c) { return std::isspace(c) != 0; });
}

Result<InsertItem> read_item(const json& record, size_t index) {
  const std::string at = "data[" + std::to_string(index) + "]";
  if (!record.is_object()) return refused(at, "not_object", "must be an object");
  for (const auto& [name, value] : record.items()) {
    if (name != "content" && name != "vector" && name != "metadata") {
      return refused(at + "." + name, "unknown",
                     "is not a field of a record (content, vector, metadata)");
    }
  }
  InsertItem item;
  if (const auto content = record.find("content"); content != record.end() && !content->is_null()) {
    if (!content->is_string()) return refused(at + ".content", "not_string", "must be a string");
    item.content = content->get<std::string>();
  }
  if (const auto vector = record.find("vector"); vector != record.end()) {
    auto read = read_vector(*vector, at + ".vector");
    if (!read) return read.status();
    item.vector = std::move(*read);
  } else if (!item.content || blank(*item.content)) {
    return field_error(at + ".content", at + " has no content to embed (and no vector)",
                       {{"index", index}}, code::kContentEmpty);
  }
  if (const auto metadata = record.find("metadata"); metadata != record.end()) {
    if (!metadata->is_object()) {
      return refused(at + ".metadata", "not_object", "must be an object");
    }
    if (metadata->dump().size() > kMaxMetadataBytes) {
      return refused(at + ".metadata", "too_large",
                     "is larger than " + std::to_string(kMaxMetadataBytes) + " bytes as JSON");
    }
    item.metadata = *metadata;
  }
  return item;
}

}  // namespace

Result<InsertRequest> read_insert_request(const json& body) {
  InsertRequest request;
  auto collection = read_collection_field(body);
  if (!collection) return collection.status();
  request.collection = std::move(*collection);

  const auto data = body.find("data");
  if (data == body.end() || !(data->is_object() || data->is_array())) {
    return refused("data", "missing", "must be a record or an array of records");
  }
  request.many = data->is_array();
  const size_t count = request.many ? data->size() : 1;
  if (count == 0) return refused("data", "empty", "must hold at least one record");
  if (count > kMaxInsertRecords) {
    return refused("data", "too_many",
                   "holds more than " + std::to_string(kMaxInsertRecords) + " records");
  }
  for (size_t i = 0; i < count; ++i) {
    auto item = read_item(request.many ? (*data)[i] : *data, i);
    if (!item) return item.status();
    request.items.push_back(std::move(*item));
  }
  return request;
}

}  // namespace opbase::vdb
