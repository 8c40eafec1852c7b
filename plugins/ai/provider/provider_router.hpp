// ProviderRouter: which provider answers an op for a project (docs/configuration.md#ai). Read once
// at start from the configuration, most specific key first:
//   projects.<id>.ai.provider.<verb>   one op of one project
//   projects.<id>.ai.provider          every op of one project
//   ai.provider.<verb>                 one op of every project
//   ai.provider                        every op (default "offline")
// A value names a provider the plugin built at start ("offline", "openai"); a name no provider
// answers to stops the plugin's start with a message naming the key. A project may have
// providers of its own under the same names (its own model server and key): those answer for
// it.
//
// Thread-safety: immutable after build(); choose() from any thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/status.hpp"
#include "provider/provider.hpp"

namespace opbase::ai {

class ProviderRouter {
 public:
  using ConfigGet = std::function<std::optional<std::string>(std::string_view key)>;
  using Providers = std::map<std::string, std::shared_ptr<const Provider>, std::less<>>;

  // `providers` by name; `projects` every project id of the daemon; `own` by project id, the
  // providers a project has of its own, each replacing the one of its name for that project.
  static Result<ProviderRouter> build(
      const Providers& providers, const std::vector<std::string>& projects, const ConfigGet& get,
      const std::map<std::string, Providers, std::less<>>& own = {});

  // The provider of `kind` for `project` (a project unknown at start gets the defaults).
  const Provider& choose(std::string_view project, TaskKind kind) const;

  // The provider called `name` for `project` (its own one of that name first), or null.
  std::shared_ptr<const Provider> by_name(std::string_view project, std::string_view name) const;
  // The names a provider answers to, sorted.
  std::vector<std::string> names() const;

 private:
  using Routes = std::vector<std::shared_ptr<const Provider>>;  // by TaskKind
  Routes defaults_;
  std::map<std::string, Routes, std::less<>> by_project_;
  Providers providers_;
  std::map<std::string, Providers, std::less<>> own_;
};

}  // namespace opbase::ai
