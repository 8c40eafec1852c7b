#include "provider/provider_router.hpp"

#include "ops/op_table.hpp"

namespace opbase::ai {
namespace {

using Providers = ProviderRouter::Providers;

Result<std::shared_ptr<const Provider>> named(const Providers& providers, const std::string& key,
                                              const std::string& name) {
  const auto found = providers.find(name);
  if (found != providers.end()) return found->second;
  std::string known;
  for (const auto& [n, p] : providers) known += (known.empty() ? "" : ", ") + n;
  return Status::validation(key + " = '" + name + "' names no provider (this daemon has: " + known +
                            ")");
}

size_t index_of(TaskKind kind) { return static_cast<size_t>(kind); }

}  // namespace

Result<ProviderRouter> ProviderRouter::build(
    const Providers& providers, const std::vector<std::string>& projects, const ConfigGet& get,
    const std::map<std::string, Providers, std::less<>>& own) {
  ProviderRouter router;
  router.providers_ = providers;
  router.own_ = own;
  // For each op: the first key that is set, among `prefix`.provider.<verb> and `prefix`.provider,
  // named among `among`; where none is set, the op's route in `fallback`.
  auto routes_for = [&](const std::string& prefix, const Providers& among,
                        const Routes* fallback) -> Result<Routes> {
    Routes routes(std::size(kOps));
    const std::optional<std::string> whole = get(prefix + "provider");
    for (const OpRow& row : kOps) {
      const std::string op_key = prefix + "provider." + std::string(row.verb);
      std::optional<std::string> name = get(op_key);
      std::string key = op_key;
      if (!name && whole) {
        name = whole;
        key = prefix + "provider";
      }
      if (!name) {
        routes[index_of(row.kind)] = fallback ? (*fallback)[index_of(row.kind)] : nullptr;
        continue;
      }
      auto provider = named(among, key, *name);
      if (!provider) return provider.status();
      routes[index_of(row.kind)] = *provider;
    }
    return routes;
  };

  auto offline = named(providers, "ai.provider", "offline");
  if (!offline) return offline.status();
  Routes builtin(std::size(kOps), *offline);
  auto defaults = routes_for("ai.", providers, &builtin);
  if (!defaults) return defaults.status();
  router.defaults_ = std::move(*defaults);
  for (const std::string& project : projects) {
    const auto own_found = own.find(project);
    if (own_found == own.end()) {
      auto routes = routes_for("projects." + project + ".ai.", providers, &router.defaults_);
      if (!routes) return routes.status();
      router.by_project_.emplace(project, std::move(*routes));
      continue;
    }
    // The project's own providers replace those of their names, also where the daemon-wide keys
    // chose the provider.
    Providers mine = own_found->second;
    mine.insert(providers.begin(), providers.end());  // keeps the project's where both have one
    auto inherited = routes_for("ai.", mine, &builtin);
    if (!inherited) return inherited.status();
    auto routes = routes_for("projects." + project + ".ai.", mine, &*inherited);
    if (!routes) return routes.status();
    router.by_project_.emplace(project, std::move(*routes));
  }
  return router;
}

const Provider& ProviderRouter::choose(std::string_view project, TaskKind kind) const {
  const auto found = by_project_.find(project);
  const Routes& routes = found == by_project_.end() ? defaults_ : found->second;
  return *routes[index_of(kind)];
}

std::shared_ptr<const Provider> ProviderRouter::by_name(std::string_view project,
                                                        std::string_view name) const {
  if (const auto mine = own_.find(project); mine != own_.end()) {
    if (const auto found = mine->second.find(name); found != mine->second.end()) {
      return found->second;
    }
  }
  const auto found = providers_.find(name);
  return found == providers_.end() ? nullptr : found->second;
}

std::vector<std::string> ProviderRouter::names() const {
  std::vector<std::string> out;
  for (const auto& [name, provider] : providers_) out.push_back(name);
  return out;  // a std::map's order
}

}  // namespace opbase::ai
