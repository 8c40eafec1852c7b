// FileBackend: where a file's bytes live (docs/api.md#file-storage-backends). The ops keep the
// records in the project's store and ask the backend only about bytes: the URL a client uploads
// with, the URL it downloads with, what is stored under a record now, and removing it. A public
// file's stable URL is the daemon's /files/<project>/<key> on both backends: the local one
// serves the bytes there, the S3 one redirects to a fresh download URL.
//   - LocalBackend (files.backend = local): a folder under storage.path, bytes through the
//     daemon's /files/ route (routes/file_route.hpp).
//   - S3Backend (files.backend = s3): an S3-compatible store; clients upload and download
//     through presigned URLs, so the bytes never pass through the daemon.
//
// Thread-safety: every method may be called from any thread, concurrently.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "opbase/status.hpp"

namespace opbase::file {

// How a client sends a file's bytes: PUT to `url` with exactly these header fields.
struct UploadTicket {
  std::string url;
  nlohmann::json headers = nlohmann::json::object();  // {"Content-Type": "image/png", ...}
};

// What a backend holds under a record now.
struct StoredBytes {
  int64_t size = 0;
  std::optional<std::string> sha256;  // lowercase hex, when the backend knows it
};

// One file as the backend needs it: the record's project, key and the fields a URL signs.
struct FileRef {
  std::string project;
  std::string key;           // the record's _key
  std::string name;          // for Content-Disposition
  std::string content_type;  // as stored: uploads must send it, downloads answer it
  int64_t size = 0;
  std::optional<std::string> sha256;  // declared at presign, lowercase hex
};

class FileBackend {
 public:
  virtual ~FileBackend() = default;

  // The URL a client uploads `file`'s bytes with until `expires_s` (Unix seconds). `nonce` is the
  // record's one-use upload nonce, which the local backend puts in its URL.
  virtual Result<UploadTicket> upload_ticket(const FileRef& file, std::string_view nonce,
                                             int64_t now_s, int64_t expires_s) const = 0;

  // A URL that downloads `file` until `expires_s`.
  virtual Result<std::string> download_url(const FileRef& file, int64_t now_s,
                                           int64_t expires_s) const = 0;

  // The bytes stored for `file` now, or nullopt when there are none.
  virtual Result<std::optional<StoredBytes>> stored(const FileRef& file) const = 0;

  // Removes `file`'s bytes; OK when there were none.
  virtual Status remove(const FileRef& file) const = 0;
};

}  // namespace opbase::file
