// A caller's access under a collection's rules (see rules/caller_access.hpp).
#include "rules/caller_access.hpp"

#include <algorithm>

#include "ops/sharing_fields.hpp"

namespace opbase::collection {
namespace {

bool has_role(const Rule& rule, const Caller& caller) {
  return std::any_of(rule.roles.begin(), rule.roles.end(), [&](const std::string& role) {
    return std::find(caller.roles.begin(), caller.roles.end(), role) != caller.roles.end();
  });
}

// Entries that open every document of the collection to the caller.
bool grants_all(const Rule& rule, const Caller& caller) {
  return rule.anyone || (caller.signed_in() && (rule.users || has_role(rule, caller)));
}

}  // namespace

Caller Caller::of(const Request& request, bool with_roles) {
  Caller caller;
  if (!request.signed_in()) return caller;
  caller.user = std::string(request.user_id);
  if (!with_roles) return caller;
  const nlohmann::json& claims = request.user_claims();
  const auto roles = claims.is_object() ? claims.find("roles") : claims.end();
  if (roles != claims.end() && roles->is_array()) {
    for (const auto& role : *roles) {
      if (role.is_string()) caller.roles.push_back(role.get<std::string>());
    }
  }
  return caller;
}

std::vector<std::string> Caller::principals() const {
  std::vector<std::string> out = {user};
  for (const std::string& role : roles) out.push_back("role:" + role);
  return out;
}

std::optional<store::Scope> scope_for(const Rule& rule, Action action, const Caller& caller) {
  if (grants_all(rule, caller)) return store::Scope::everyone();
  if (!caller.signed_in() || !(rule.owner || rule.shared)) return std::nullopt;
  if (!rule.shared) return store::Scope::user(caller.user);
  return store::Scope::shared(rule.owner ? std::optional<std::string>(caller.user) : std::nullopt,
                              caller.principals(),
                              action == Action::kRead ? lists_for_reading() : lists_for_writing());
}

bool needs_roles(const Rule& rule) { return !rule.roles.empty() || rule.shared; }

bool may_create(const Rule& rule, const Caller& caller) { return grants_all(rule, caller); }

}  // namespace opbase::collection
