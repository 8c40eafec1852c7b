// The auth settings of each project (docs/api.md#auth-settings): the configuration's values
// (auth.* in conf/), with those the project's administrators changed (auth.settings.update) kept
// in its store over them (StoredSettings, `_key` "auth" of collection `settings`). Every daemon
// of the project sees a change within storage.settings_reload_s, the one that made it at once.
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string_view>

#include "opbase/document_store.hpp"
#include "opbase/status.hpp"
#include "opbase/stored_settings.hpp"
#include "settings.hpp"

namespace opbase::auth {

class ProjectSettings {
 public:
  ProjectSettings(const DocumentStore& store, const AuthSettings& configured);

  Result<std::shared_ptr<const AuthSettings>> of(std::string_view project, int64_t now_ms) const;

  // The administrators' view: {"settings": {...}, "changed": [names]} (auth.settings.get).
  Result<nlohmann::json> admin_view(std::string_view project, int64_t now_ms) const;

  // Applies an auth.settings.update's `data` and answers the administrators' view after it.
  Result<nlohmann::json> change(std::string_view project, const nlohmann::json& data,
                                int64_t now_ms) const;

  // The data of auth.settings.
  static nlohmann::json to_answer(const AuthSettings& settings);

 private:
  AuthSettings configured_;  // also the longest token lifetimes allowed
  StoredSettings stored_;
};

}  // namespace opbase::auth
