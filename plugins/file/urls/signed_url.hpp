// The signed URLs of the local backend (docs/api.md#files): the upload and download routes of
// the daemon, /files/<project>/<key>, which clients reach without a token. A URL carries its
// expiry, for uploads the file record's upload nonce (so it works once: the nonce is cleared
// when the bytes are stored), and an HMAC-SHA256 of all of that and of its purpose, keyed with
// the project's URL secret, so a download URL cannot upload and no field can be changed.
// The same path without a query is the file's stable public URL, served only while the file is
// public.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "opbase/status.hpp"

namespace opbase::file {

enum class UrlPurpose { kUpload, kDownload };

// What a signed URL grants.
struct UrlGrant {
  UrlPurpose purpose = UrlPurpose::kDownload;
  std::string project;
  std::string key;        // the file record's _key
  int64_t expires_s = 0;  // Unix time, seconds
  std::string nonce;      // uploads: the record's upload nonce; downloads: empty
};

// The path and query of the URL of `grant`, signed with `secret` (raw bytes):
// /files/<project>/<key>?expires=<s>&nonce=<n>&signature=<base64url>.
std::string signed_target(const UrlGrant& grant, std::string_view secret);

// The stable public path of a file: /files/<project>/<key>.
std::string public_target(std::string_view project, std::string_view key);

// A request's target on the files route, read but not yet trusted.
struct FileTarget {
  std::string project;
  std::string key;
  // Absent for the public path; else the grant the query claims, and its signature as sent.
  std::optional<UrlGrant> claimed;
  std::string signature;
};

// Reads `target` (path and query as sent) of a request with `method` (PUT uploads; GET and HEAD
// download). VALIDATION_ERROR with details.reason for anything that is not one of the forms
// above: another path, a project or key out of their alphabets, a parameter missing, repeated,
// unknown or malformed, a PUT without a signature.
Result<FileTarget> read_file_target(std::string_view method, std::string_view target);

// Whether `target`'s signature is that of its claimed grant under `secret`, compared in
// constant time. Expiry is the caller's to check, against its clock.
bool signature_holds(const FileTarget& target, std::string_view secret);

}  // namespace opbase::file
