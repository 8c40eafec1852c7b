// A file record (docs/api.md#file-records-and-fields) as the plugin keeps it in the project's store
// (its collection "files") and as clients see it, and who may do what with it.
//
// Stored beside the fields clients see: `upload_nonce` (the SHA-256 of the upload URL's one-use
// nonce, cleared once the bytes are stored, so a leaked store does not give working URLs),
// `stored` ({size, sha256} of the bytes the upload route kept, for finalize to check),
// `failure_reason` (file.report_upload_failure's `reason`) and `bytes_rechecked` (false until
// the purge removed a failed upload's bytes once more, after its URL expired).
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "backends/file_backend.hpp"

namespace opbase::file {

inline constexpr std::string_view kFilesCollection = "files";

// What file.presign_upload was asked for, checked (requests/file_fields.hpp).
struct NewFile {
  std::string name;
  std::string content_type;
  int64_t size = 0;
  std::optional<std::string> sha256;  // lowercase hex
  nlohmann::json metadata = nlohmann::json::object();
  bool is_public = false;
};

// The stored document of a new upload: state "pending", no readers.
nlohmann::json pending_record(const NewFile& file, std::string_view key, std::string_view owner,
                              std::string_view now_iso, std::string_view nonce_sha256);

// The record as clients see it: the documented fields, nothing of the upload's internals.
nlohmann::json client_record(const nlohmann::json& stored);

// What a backend needs of a stored record.
FileRef file_ref(std::string_view project, const nlohmann::json& stored);

// What `user` may do with `stored`: the owner and admins change it; they and its readers read
// it; anyone else gets what a missing file gets.
enum class Reach { kNone, kRead, kChange };
Reach reach_of(const nlohmann::json& stored, std::string_view user, bool admin);

}  // namespace opbase::file
