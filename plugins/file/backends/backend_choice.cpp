// The backend files.backend names (see backend_choice.hpp).
#include "backends/backend_choice.hpp"

#include <utility>

#include "backends/local_backend.hpp"
#include "backends/s3_backend.hpp"

namespace opbase::file {

Result<ChosenBackend> choose_backend(const Host& host, const FileSettings& settings,
                                     ProjectSecret& secrets,
                                     std::function<Result<std::string>()> base_url) {
  ChosenBackend chosen;
  if (settings.backend == FileSettings::Backend::kS3) {
    chosen.backend =
        std::make_unique<S3Backend>(settings.s3, [&host] { return host.now_ms() / 1000; });
    return chosen;
  }
  chosen.folder = std::make_unique<LocalFolder>(host.config_or("storage.path", "data") + "/files");
  if (Status prepared = chosen.folder->prepare(); !prepared) return prepared;
  chosen.backend = std::make_unique<LocalBackend>(*chosen.folder, secrets, std::move(base_url));
  return chosen;
}

}  // namespace opbase::file
