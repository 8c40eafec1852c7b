// A collection's rules (docs/api.md#who-may-read-and-change-a-document): for each action, who
// may take it. An entry is `owner` (the document's creator), `users` (any signed-in user),
// `anyone` (also a caller without a token), `role:<name>` (a role in the caller's token) or
// `shared` (documents whose sharing lists name the caller or one of their roles). An empty rule
// leaves the action to administrators. Pure values and functions; thread-safe.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/status.hpp"

namespace opbase::collection {

enum class Action { kRead, kCreate, kUpdate, kDelete };
inline constexpr std::array<Action, 4> kActions = {Action::kRead, Action::kCreate, Action::kUpdate,
                                                   Action::kDelete};
std::string_view action_name(Action action);  // "read", "create", "update", "delete"

// Entries per rule at most.
inline constexpr std::size_t kMaxRuleEntries = 32;

struct Rule {
  bool owner = false;
  bool users = false;
  bool anyone = false;
  bool shared = false;
  std::vector<std::string> roles;  // without the "role:" prefix, in the order given

  // The rule's entries, as rules.get answers them.
  nlohmann::json to_json() const;
  bool operator==(const Rule&) const = default;
};

struct Rules {
  Rule read;
  Rule create;
  Rule update;
  Rule remove;  // the `delete` action

  const Rule& of(Action action) const;
  Rule& of(Action action);
  // {"read": [...], "create": [...], "update": [...], "delete": [...]}
  nlohmann::json to_json() const;

  // A collection's rules when none are set: read, update and delete by the owner, create by
  // signed-in users (and, for the collections `anonymous_insert` lists, by anyone with a
  // captcha: docs/api.md#anonymous-insert).
  static Rules defaults(bool anonymous_insert);
};

// One action's rule from its JSON (an array of entries). VALIDATION_ERROR with details.field
// "rules.<action>" (and details.index for one bad entry) when it is not an array of known
// entries, holds too many, or names `owner` or `shared` for `create` (a new document has no
// owner or sharing lists yet to test). Repeated entries are kept once.
Result<Rule> parse_rule(const nlohmann::json& entries, Action action);

// A role name as the auth plugin allows it (docs/api.md#user-administration): 1 to 32 bytes of
// `a-z`, `0-9`, `_` and `-`.
bool valid_role_name(std::string_view name);

}  // namespace opbase::collection
