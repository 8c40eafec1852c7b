// What a collection's rules let one caller do (docs/api.md#who-may-read-and-change-a-document):
// for read, update and delete the store scope of the documents they reach; for create, whether
// they may. Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "opbase/op.hpp"
#include "opbase/store.hpp"
#include "rules/collection_rules.hpp"

namespace opbase::collection {

// Who is asking: the signed-in user (none without a token) and the roles of their token.
struct Caller {
  std::string user;
  std::vector<std::string> roles;

  // `with_roles`: read the token's roles too (a JSON parse of its claims), which only rules
  // naming a role or `shared` need (needs_roles).
  static Caller of(const Request& request, bool with_roles);
  bool signed_in() const { return !user.empty(); }
  // The names the sharing lists may hold for this caller: the user key and each "role:<name>".
  std::vector<std::string> principals() const;
};

// The documents `rule` lets the caller act on: every document (anyone, users, a role they have),
// else their own (owner) and those whose lists name them (shared: `_readers` or `_writers` to
// read, `_writers` to change); nullopt when it grants them none.
std::optional<store::Scope> scope_for(const Rule& rule, Action action, const Caller& caller);

// Whether deciding `rule` needs the caller's roles: it names one, or lets shared lists decide.
bool needs_roles(const Rule& rule);

// Whether the create rule lets the caller insert (a caller without a token needs `anyone`, and
// then a captcha).
bool may_create(const Rule& rule, const Caller& caller);

}  // namespace opbase::collection
