// The `data` of file.update (docs/api.md#fileupdate) read into the fields to set: any of `name`,
// `metadata`, `public` and `readers`, at least one, nothing else. The bytes, their type and the
// owner never change after the upload.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include "opbase/status.hpp"

namespace opbase::file {

// The fields to set, checked as file.presign_upload checks them. VALIDATION_ERROR with
// details.field ("data", or the field's name) and details.reason: "missing" (no data), "type"
// (not an object), "empty", "unknown", or the field's own reason.
Result<nlohmann::json> read_file_changes(const nlohmann::json& body);

}  // namespace opbase::file
