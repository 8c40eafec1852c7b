// The auth settings of each project (docs/api.md#auth-settings): kept in the project's store
// (collection `settings`, `_key` = "auth") so every daemon of the project responds alike and a
// future console can change them; written from the configuration's seed (auth.* in conf/) the
// first time a project is used. Cached per project for a minute.
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "auth_config.hpp"
#include "opbase/document_store.hpp"
#include "opbase/status.hpp"

namespace opbase::auth {

class ProjectSettings {
 public:
  ProjectSettings(const DocumentStore& store, SettingsSeed seed)
      : store_(store), seed_(std::move(seed)) {}

  Result<std::shared_ptr<const SettingsSeed>> of(std::string_view project, int64_t now_ms) const;

  // The data of auth.settings.
  static nlohmann::json to_answer(const SettingsSeed& settings);

 private:
  struct Cached {
    std::shared_ptr<const SettingsSeed> settings;
    int64_t loaded_ms = 0;
  };
  Result<std::shared_ptr<const SettingsSeed>> load(std::string_view project, int64_t now_ms) const;

  const DocumentStore& store_;
  SettingsSeed seed_;
  mutable std::mutex mutex_;  // guards cache_
  mutable std::map<std::string, Cached, std::less<>> cache_;
};

}  // namespace opbase::auth
