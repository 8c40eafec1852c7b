#include "backends/local_backend.hpp"

#include "urls/signed_url.hpp"

namespace opbase::file {

Result<std::string> LocalBackend::signed_url(const FileRef& file, UrlPurpose purpose,
                                             std::string_view nonce, int64_t expires_s) const {
  auto base = base_url_();
  if (!base) return base;
  auto secret = secrets_.of(file.project);
  if (!secret) return secret;
  const UrlGrant grant{purpose, file.project, file.key, expires_s, std::string(nonce)};
  return *base + signed_target(grant, *secret);
}

Result<UploadTicket> LocalBackend::upload_ticket(const FileRef& file, std::string_view nonce,
                                                 int64_t /*now_s*/, int64_t expires_s) const {
  auto url = signed_url(file, UrlPurpose::kUpload, nonce, expires_s);
  if (!url) return url.status();
  return UploadTicket{std::move(*url), {{"Content-Type", file.content_type}}};
}

Result<std::string> LocalBackend::download_url(const FileRef& file, int64_t /*now_s*/,
                                               int64_t expires_s) const {
  return signed_url(file, UrlPurpose::kDownload, "", expires_s);
}

Result<std::optional<StoredBytes>> LocalBackend::stored(const FileRef& file) const {
  auto size = folder_.size_of(file.project, file.key);
  if (!size) return size.status();
  if (!*size) return std::optional<StoredBytes>();
  return std::optional<StoredBytes>(StoredBytes{**size, std::nullopt});
}

Status LocalBackend::remove(const FileRef& file) const {
  return folder_.remove(file.project, file.key);
}

}  // namespace opbase::file
