// The providers the ai plugin starts with (see provider_set.hpp).
#include "provider/provider_set.hpp"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "openai/openai_provider.hpp"
#include "openai/prompt_library.hpp"

namespace opbase::ai {
namespace {

// The model provider of ai.openai.* (project empty), or of a project that sets any
// projects.<id>.ai.openai.* key (each key it does not set is the daemon-wide one); null for a
// project without such keys.
Result<std::shared_ptr<const Provider>> openai_provider(
    const Host& host, const std::string& project,
    const std::shared_ptr<const PromptLibrary>& prompts) {
  const std::string own_prefix = project.empty() ? "" : "projects." + project + ".ai.openai.";
  bool has_own = false;
  std::map<std::string, std::string, std::less<>> read_from;  // key -> the full key that held it
  auto settings = from_config([&](std::string_view key) {
    for (const std::string& prefix : {own_prefix, std::string("ai.openai.")}) {
      if (prefix.empty()) continue;
      if (auto value = host.config(prefix + std::string(key))) {
        has_own = has_own || prefix == own_prefix;
        read_from[std::string(key)] = prefix + std::string(key);
        return value;
      }
    }
    return std::optional<std::string>();
  });
  if (!settings) {  // the message starts with the short key: name the full one
    const std::string key = settings.status().details().value("key", "");
    const auto full = read_from.find(key);
    if (full == read_from.end()) return settings.status();
    return Status(settings.status().code(),
                  full->second + settings.status().message().substr(key.size()),
                  {{"key", full->second}});
  }
  if (!project.empty() && !has_own) return std::shared_ptr<const Provider>();
  return std::shared_ptr<const Provider>(std::make_shared<OpenAiProvider>(
      std::move(*settings), prompts, [&host](std::string_view line) { host.info(line); }));
}

}  // namespace

Result<ProviderSet> build_provider_set(const Host& host, const AiSettings& settings,
                                       const std::vector<std::string>& projects) {
  ProviderSet set;
  ProviderRouter::Providers providers;
  auto offline = OfflineProvider::load(settings.data_dir, settings.dimensions);
  if (!offline) return offline.status();
  set.offline = *offline;
  providers.emplace("offline", std::move(*offline));
  auto prompts = PromptLibrary::load((settings.data_dir / "prompts").string());
  if (!prompts) return prompts.status();
  auto openai = openai_provider(host, "", *prompts);
  if (!openai) return openai.status();
  providers.emplace("openai", std::move(*openai));
  std::map<std::string, ProviderRouter::Providers, std::less<>> own;
  for (const std::string& id : projects) {
    auto project_openai = openai_provider(host, id, *prompts);
    if (!project_openai) return project_openai.status();
    if (*project_openai) own[id].emplace("openai", std::move(*project_openai));
  }
  auto config = [&host](std::string_view key) { return host.config(key); };
  auto router = ProviderRouter::build(providers, projects, config, own);
  if (!router) return router.status();
  set.router = std::make_unique<ProviderRouter>(std::move(*router));
  return set;
}

}  // namespace opbase::ai
