// The body of file.presign_upload (docs/api.md#filepresign_upload) read into a NewFile: `name`,
// `content_type` and `size` required, `sha256`, `metadata` and `public` optional, nothing else.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "opbase/status.hpp"
#include "records/file_record.hpp"

namespace opbase::file {

// VALIDATION_ERROR naming the field (details.field, details.reason "missing", "unknown" or the
// field's own reason), PAYLOAD_TOO_LARGE for a size over `max_size`.
Result<NewFile> read_upload_request(const nlohmann::json& body, int64_t max_size);

}  // namespace opbase::file
