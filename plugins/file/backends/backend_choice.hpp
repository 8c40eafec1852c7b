// The backend files.backend names: the S3-compatible store of files.s3.*, or the local folder
// <storage.path>/files (made if missing) served on the daemon's /files/ route with URLs signed
// by the project's secret.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "backends/file_backend.hpp"
#include "local/local_folder.hpp"
#include "opbase/host.hpp"
#include "opbase/project_secret.hpp"
#include "opbase/status.hpp"
#include "settings.hpp"

namespace opbase::file {

struct ChosenBackend {
  std::unique_ptr<LocalFolder> folder;  // the local backend's; null on s3
  std::unique_ptr<FileBackend> backend;
};

Result<ChosenBackend> choose_backend(const Host& host, const FileSettings& settings,
                                     ProjectSecret& secrets,
                                     std::function<Result<std::string>()> base_url);

}  // namespace opbase::file
