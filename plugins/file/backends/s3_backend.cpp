// S3Backend (s3_backend.hpp): records mapped to object keys, presigned URLs made with
// sigv4.hpp, the store asked through S3Client.
#include "backends/s3_backend.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "downloads/content_disposition.hpp"
#include "opbase/base64.hpp"

namespace opbase::file {
namespace {

S3Credentials credentials_of(const S3Settings& settings) {
  return {settings.access_key, settings.secret_key, settings.region};
}

S3Location location_of(const S3Settings& settings) {
  return {settings.endpoint, settings.bucket, settings.path_style};
}

// The 32 bytes of a SHA-256 given as 64 lowercase hex digits (requests/file_fields.hpp checks
// a declared one so); nullopt for anything else.
std::optional<std::string> digest_bytes(std::string_view hex) {
  auto nibble = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  if (hex.size() != 64) return std::nullopt;
  std::string bytes;
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int high = nibble(hex[i]);
    const int low = nibble(hex[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    bytes += static_cast<char>(high << 4 | low);
  }
  return bytes;
}

}  // namespace

S3Backend::S3Backend(const S3Settings& settings, UnixClock now_s)
    : credentials_(credentials_of(settings)),
      location_(location_of(settings)),
      prefix_(settings.prefix),
      client_(credentials_, location_, std::move(now_s)) {}

std::string S3Backend::object_key(const FileRef& file) const {
  return prefix_ + file.project + "/" + file.key;
}

Result<std::string> S3Backend::presign(UrlToPresign request, int64_t now_s,
                                       int64_t expires_s) const {
  request.now_unix_s = now_s;
  request.expires_s = expires_s - now_s;
  Result<PresignedUrl> url = presign_url(credentials_, location_, request);
  if (!url) {
    return Status::internal("could not presign S3 " + request.method + " of '" + request.key +
                            "': " + url.status().message());
  }
  return std::move(url->url);
}

Result<UploadTicket> S3Backend::upload_ticket(const FileRef& file, std::string_view /*nonce*/,
                                              int64_t now_s, int64_t expires_s) const {
  UploadTicket ticket;
  ticket.headers["Content-Type"] = file.content_type;
  ticket.headers["Content-Length"] = std::to_string(file.size);
  if (file.sha256) {
    const std::optional<std::string> digest = digest_bytes(*file.sha256);
    if (!digest) {
      return Status::internal("the sha256 of file '" + file.key +
                              "' is not 64 lowercase hex digits");
    }
    ticket.headers["x-amz-checksum-sha256"] = base64_encode(*digest);
  }
  UrlToPresign request;
  request.method = "PUT";
  request.key = object_key(file);
  for (const auto& [name, value] : ticket.headers.items()) {
    request.headers.emplace_back(name, value.get<std::string>());
  }
  Result<std::string> url = presign(std::move(request), now_s, expires_s);
  if (!url) return url.status();
  ticket.url = std::move(*url);
  return ticket;
}

Result<std::string> S3Backend::download_url(const FileRef& file, int64_t now_s,
                                            int64_t expires_s) const {
  UrlToPresign request;
  request.method = "GET";
  request.key = object_key(file);
  request.query = {
      {"response-content-disposition", content_disposition(file.name, file.content_type)},
      {"response-content-type", file.content_type}};
  return presign(std::move(request), now_s, expires_s);
}

Result<std::optional<StoredBytes>> S3Backend::stored(const FileRef& file) const {
  Result<std::optional<ObjectHead>> head = client_.head_object(object_key(file));
  if (!head) return head.status();
  if (!*head) return std::optional<StoredBytes>();
  return std::optional<StoredBytes>(StoredBytes{(*head)->size, (*head)->sha256});
}

Status S3Backend::remove(const FileRef& file) const {
  return client_.delete_object(object_key(file));
}

}  // namespace opbase::file
