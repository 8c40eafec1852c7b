#include "requests/upload_request.hpp"

#include <string>

#include "opbase/field_error.hpp"
#include "requests/file_fields.hpp"

namespace opbase::file {
namespace {

using nlohmann::json;

Status refused(std::string_view field, std::string message, std::string_view reason) {
  return field_error(field, std::string(field) + " " + std::move(message), {{"reason", reason}});
}

// A field every upload names: null counts as missing.
const json* required(const json& body, std::string_view field) {
  const auto found = body.find(field);
  return found == body.end() || found->is_null() ? nullptr : &*found;
}

// Reads the optional fields into `file`.
Status read_optional(const json& body, NewFile& file) {
  if (const auto sha = body.find("sha256"); sha != body.end() && !sha->is_null()) {
    auto read = read_sha256(*sha);
    if (!read) return read.status();
    file.sha256 = std::move(*read);
  }
  if (const auto metadata = body.find("metadata"); metadata != body.end() && !metadata->is_null()) {
    auto read = read_metadata(*metadata);
    if (!read) return read.status();
    file.metadata = std::move(*read);
  }
  if (const auto is_public = body.find("public");
      is_public != body.end() && !is_public->is_null()) {
    auto read = read_public(*is_public);
    if (!read) return read.status();
    file.is_public = *read;
  }
  return Status::ok();
}

}  // namespace

Result<NewFile> read_upload_request(const json& body, int64_t max_size) {
  for (const auto& [field, value] : body.items()) {
    if (field != "op" && field != "name" && field != "content_type" && field != "size" &&
        field != "sha256" && field != "metadata" && field != "public") {
      return refused(field_name_for_error(field),
                     "is not a field of an upload (name, content_type, size, sha256, metadata, "
                     "public)",
                     "unknown");
    }
  }
  NewFile file;
  for (const char* field : {"name", "content_type", "size"}) {
    if (required(body, field) == nullptr) return refused(field, "is required", "missing");
  }
  auto name = read_file_name(body["name"]);
  if (!name) return name.status();
  file.name = std::move(*name);
  auto content_type = read_content_type(body["content_type"]);
  if (!content_type) return content_type.status();
  file.content_type = std::move(*content_type);
  auto size = read_file_size(body["size"], max_size);
  if (!size) return size.status();
  file.size = *size;
  if (Status optional = read_optional(body, file); !optional) return optional;
  return file;
}

}  // namespace opbase::file
