// The checks of a file's own fields (docs/api.md#file-records-and-fields), shared by
// file.presign_upload and file.update: its name, content type, size and SHA-256, each refused with
// VALIDATION_ERROR naming the field and a details.reason.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "opbase/status.hpp"

namespace opbase::file {

// A name of 1-255 bytes of UTF-8 with no '/', '\' or control character (it becomes a download's
// Content-Disposition file name, so nothing in it may read as a path or break a header).
Result<std::string> read_file_name(const nlohmann::json& value);

// A media type as type/subtype (RFC 9110 tokens), with optional ";name=value" parameters, at
// most 255 bytes; kept lowercase but for its parameters' values.
Result<std::string> read_content_type(const nlohmann::json& value);

// A size in bytes, 0 to `max_size` (files.max_size); PAYLOAD_TOO_LARGE past it.
Result<int64_t> read_file_size(const nlohmann::json& value, int64_t max_size);

// 64 hexadecimal digits, kept lowercase.
Result<std::string> read_sha256(const nlohmann::json& value);

// An object whose JSON text is at most 16 KiB.
Result<nlohmann::json> read_metadata(const nlohmann::json& value);

// A boolean (the field `public`).
Result<bool> read_public(const nlohmann::json& value);

// At most 100 distinct user keys (strings of 1-64 letters, digits, '_' and '-'), repeats
// dropped, in the order given.
Result<nlohmann::json> read_readers(const nlohmann::json& value);

// An unknown field's name as details.field names it: its first 64 bytes at most, cut between
// two UTF-8 characters (the error's details must stay valid UTF-8).
std::string field_name_for_error(std::string_view name);

// The `_key` of a file record in a request body: a string of 1-64 letters, digits, '_' and '-'.
Result<std::string> read_file_key(const nlohmann::json& body);

}  // namespace opbase::file
