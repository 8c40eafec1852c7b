// ProjectLimits: the file limits a project's administrators may change while the daemon runs
// (file.settings.get / file.settings.update, docs/api.md#project-settings): the largest file
// and each user's quota. Their values come from files.max_size and files.quota.* until changed;
// a change is kept in the project's store (StoredSettings, `_key` "settings_file"). The backend,
// URL lifetimes and purge timing stay the configuration's: they belong to the deployment.
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "opbase/document_store.hpp"
#include "opbase/status.hpp"
#include "opbase/stored_settings.hpp"
#include "quota/usage_ledger.hpp"
#include "settings.hpp"

namespace opbase::file {

struct FileLimits {
  int64_t max_size = 0;
  UsageLimits quota;
};

class ProjectLimits {
 public:
  ProjectLimits(const DocumentStore& store, const FileSettings& configured);

  Result<FileLimits> of(std::string_view project, int64_t now_ms) const;
  // {"settings": {...}, "changed": [names]}.
  Result<nlohmann::json> admin_view(std::string_view project, int64_t now_ms) const;
  // Applies a file.settings.update's `data`; answers the view after it.
  Result<nlohmann::json> change(std::string_view project, const nlohmann::json& data,
                                int64_t now_ms) const;

 private:
  StoredSettings stored_;
};

}  // namespace opbase::file
