// Collection rules as values (see rules/collection_rules.hpp).
#include "rules/collection_rules.hpp"

#include <algorithm>

#include "opbase/field_error.hpp"

namespace opbase::collection {
namespace {

using nlohmann::json;

constexpr std::string_view kRolePrefix = "role:";

}  // namespace

std::string_view action_name(Action action) {
  switch (action) {
    case Action::kRead:
      return "read";
    case Action::kCreate:
      return "create";
    case Action::kUpdate:
      return "update";
    case Action::kDelete:
      return "delete";
  }
  return "read";
}

bool valid_role_name(std::string_view name) {
  if (name.empty() || name.size() > 32) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

json Rule::to_json() const {
  json out = json::array();
  if (owner) out.push_back("owner");
  if (users) out.push_back("users");
  if (anyone) out.push_back("anyone");
  if (shared) out.push_back("shared");
  for (const std::string& role : roles) out.push_back(std::string(kRolePrefix) + role);
  return out;
}

const Rule& Rules::of(Action action) const {
  switch (action) {
    case Action::kRead:
      return read;
    case Action::kCreate:
      return create;
    case Action::kUpdate:
      return update;
    case Action::kDelete:
      return remove;
  }
  return read;
}

Rule& Rules::of(Action action) {
  return const_cast<Rule&>(static_cast<const Rules&>(*this).of(action));
}

json Rules::to_json() const {
  json out = json::object();
  for (Action action : kActions) out[std::string(action_name(action))] = of(action).to_json();
  return out;
}

Rules Rules::defaults(bool anonymous_insert) {
  Rules rules;
  rules.read.owner = true;
  rules.update.owner = true;
  rules.remove.owner = true;
  rules.create.users = true;
  rules.create.anyone = anonymous_insert;
  return rules;
}

Result<Rule> parse_rule(const json& entries, Action action) {
  const std::string field = "rules." + std::string(action_name(action));
  if (!entries.is_array()) {
    return field_error(field, field +
                                  " must be an array of entries (owner, users, anyone, "
                                  "shared, role:<name>)");
  }
  if (entries.size() > kMaxRuleEntries) {
    return field_error(field,
                       field + " holds more than " + std::to_string(kMaxRuleEntries) + " entries",
                       {{"max", kMaxRuleEntries}});
  }
  Rule rule;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const json& entry = entries[i];
    const auto bad = [&](const std::string& why) {
      return field_error(field, field + "[" + std::to_string(i) + "] " + why, {{"index", i}});
    };
    if (!entry.is_string()) return bad("must be a string");
    const std::string& text = entry.get_ref<const std::string&>();
    const bool creating = action == Action::kCreate;
    if (text == "owner" || text == "shared") {
      if (creating) return bad("'" + text + "' cannot grant create: a new document has none yet");
      (text == "owner" ? rule.owner : rule.shared) = true;
    } else if (text == "users") {
      rule.users = true;
    } else if (text == "anyone") {
      rule.anyone = true;
    } else if (text.starts_with(kRolePrefix)) {
      const std::string role = text.substr(kRolePrefix.size());
      if (!valid_role_name(role)) {
        return bad("names no valid role: 1 to 32 characters of a-z, 0-9, '_' and '-'");
      }
      if (std::find(rule.roles.begin(), rule.roles.end(), role) == rule.roles.end()) {
        rule.roles.push_back(role);
      }
    } else {
      return bad("is not an entry: use owner, users, anyone, shared or role:<name>");
    }
  }
  return rule;
}

}  // namespace opbase::collection
