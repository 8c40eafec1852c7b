// LocalBackend (files.backend = local, the default): bytes in a LocalFolder, uploaded and
// downloaded through the daemon's /files/ route with URLs signed by the project's URL secret
// (urls/signed_url.hpp). The route (routes/file_route.hpp) writes and serves the bytes; this
// class hands out the URLs and answers for what is stored.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <functional>
#include <string>

#include "backends/file_backend.hpp"
#include "local/local_folder.hpp"
#include "opbase/project_secret.hpp"
#include "urls/signed_url.hpp"

namespace opbase::file {

class LocalBackend final : public FileBackend {
 public:
  // `base_url`: where clients reach the daemon ("http://127.0.0.1:8080", no trailing '/'),
  // asked at each call because the daemon knows its port only once it listens.
  LocalBackend(const LocalFolder& folder, ProjectSecret& secrets,
               std::function<Result<std::string>()> base_url)
      : folder_(folder), secrets_(secrets), base_url_(std::move(base_url)) {}

  Result<UploadTicket> upload_ticket(const FileRef& file, std::string_view nonce, int64_t now_s,
                                     int64_t expires_s) const override;
  Result<std::string> download_url(const FileRef& file, int64_t now_s,
                                   int64_t expires_s) const override;
  Result<std::optional<StoredBytes>> stored(const FileRef& file) const override;
  Status remove(const FileRef& file) const override;

 private:
  Result<std::string> signed_url(const FileRef& file, UrlPurpose purpose, std::string_view nonce,
                                 int64_t expires_s) const;

  const LocalFolder& folder_;
  ProjectSecret& secrets_;
  std::function<Result<std::string>()> base_url_;
};

}  // namespace opbase::file
