// ProviderChoice: which provider answers a project's AI ops, with the project's administrators'
// choice (ai.settings.update {"data": {"provider": "openai"}}) over the configuration's routes
// (provider_router.hpp). The choice is kept in the project's store (StoredSettings, `_key`
// "settings_ai"); null goes back to the configuration's routes. A provider's address and key
// stay in the configuration: they are secrets of the deployment.
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "opbase/document_store.hpp"
#include "opbase/status.hpp"
#include "opbase/stored_settings.hpp"
#include "provider/provider_router.hpp"

namespace opbase::ai {

class ProviderChoice {
 public:
  ProviderChoice(const DocumentStore& store, const ProviderRouter& router);

  Result<const Provider*> choose(std::string_view project, TaskKind kind, int64_t now_ms) const;

  // {"settings": {"provider": name or null}, "changed": [...], "providers": [names]}.
  Result<nlohmann::json> admin_view(std::string_view project, int64_t now_ms) const;
  // Applies an ai.settings.update's `data`; answers the view after it.
  Result<nlohmann::json> change(std::string_view project, const nlohmann::json& data,
                                int64_t now_ms) const;

 private:
  nlohmann::json view_of(const StoredSettings::Snapshot& snapshot) const;

  const ProviderRouter& router_;
  StoredSettings stored_;
};

}  // namespace opbase::ai
