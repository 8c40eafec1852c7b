// The providers the ai plugin starts with (docs/api.md#ai-text-operations): the built-in offline
// one, the OpenAI-compatible model provider of ai.openai.*, and a project's own model provider
// where it sets any projects.<id>.ai.openai.* key, routed by the ai.provider.* keys
// (provider_router.hpp). Built once at init from the configuration and the data folder.
// Thread-safety: the router is immutable once built; see provider_router.hpp.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "opbase/host.hpp"
#include "opbase/status.hpp"
#include "provider/offline_provider.hpp"
#include "provider/provider_router.hpp"
#include "settings.hpp"

namespace opbase::ai {

struct ProviderSet {
  std::shared_ptr<const OfflineProvider> offline;  // the plugin stops its translators at shutdown
  std::unique_ptr<ProviderRouter> router;
};

// Loads the offline provider from settings.data_dir and the prompts from its prompts/ folder, and
// routes the projects given. A bad key refuses with its full name (projects.<id>.ai.openai...).
Result<ProviderSet> build_provider_set(const Host& host, const AiSettings& settings,
                                       const std::vector<std::string>& projects);

}  // namespace opbase::ai
