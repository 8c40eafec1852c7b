// The rules of every collection (see rules/rule_book.hpp).
#include "rules/rule_book.hpp"

#include <algorithm>

#include "opbase/field_error.hpp"

namespace opbase::collection {
namespace {

using nlohmann::json;

// Stored values are the administrators' own, checked when set; one a later version would refuse
// falls back to the default rule instead of refusing every request on the collection.
Rules rules_from(const json& values, const Rules& defaults) {
  Rules rules = defaults;
  for (Action action : kActions) {
    const auto it = values.find(std::string(action_name(action)));
    if (it == values.end()) continue;
    if (auto rule = parse_rule(*it, action)) rules.of(action) = std::move(*rule);
  }
  return rules;
}

}  // namespace

RuleBook::RuleBook(const DocumentStore& store, std::set<std::string> anonymous_insert)
    : store_(store), anonymous_insert_(std::move(anonymous_insert)) {}

std::shared_ptr<const StoredSettings> RuleBook::settings_of(std::string_view collection) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(collection);
  if (it != entries_.end()) return it->second.settings;
  if (entries_.size() >= kCachedCollections) entries_.clear();
  const Rules defaults = Rules::defaults(anonymous_insert_.count(std::string(collection)) != 0);
  auto made = std::make_shared<const StoredSettings>(store_, "rules_" + std::string(collection),
                                                     defaults.to_json(), std::nullopt,
                                                     std::string(kRulesCollection));
  entries_.emplace(std::string(collection), Entry{made, {}});
  return made;
}

Result<Rules> RuleBook::of(std::string_view project, std::string_view collection,
                           int64_t now_ms) const {
  const auto settings = settings_of(collection);
  auto snapshot = settings->of(project, now_ms);
  if (!snapshot) return snapshot.status();
  {
    std::lock_guard lock(mutex_);
    const auto it = entries_.find(collection);
    if (it != entries_.end()) {
      const auto parsed = it->second.parsed.find(project);
      if (parsed != it->second.parsed.end() && parsed->second.first == *snapshot) {
        return parsed->second.second;
      }
    }
  }
  Rules rules = rules_from((*snapshot)->values, rules_from(settings->configured(), Rules{}));
  std::lock_guard lock(mutex_);
  if (const auto it = entries_.find(collection); it != entries_.end()) {
    it->second.parsed[std::string(project)] = {*snapshot, rules};
  }
  return rules;
}

Result<Rules> RuleBook::change(std::string_view project, std::string_view collection,
                               const json& changes, int64_t now_ms) const {
  if (!changes.is_object() || changes.empty()) {
    return field_error("rules", "rules must be an object of read, create, update and delete");
  }
  json normalized = json::object();  // each rule as rules.get shows it: stored that way
  for (const auto& item : changes.items()) {
    // Copies, not a structured binding: clang 14 cannot capture those.
    const std::string name = item.key();
    const json& entries = item.value();
    const auto action = std::find_if(kActions.begin(), kActions.end(),
                                     [&](Action a) { return action_name(a) == name; });
    if (action == kActions.end()) {
      return field_error("rules." + name, "'" + name +
                                              "' is not an action: use read, create, update or "
                                              "delete");
    }
    normalized[name] = nullptr;  // back to the default
    if (entries.is_null()) continue;
    auto rule = parse_rule(entries, *action);
    if (!rule) return rule.status();
    normalized[name] = rule->to_json();
  }
  const auto settings = settings_of(collection);
  auto snapshot =
      settings->change(project, normalized, now_ms, [](const json&) { return Status::ok(); });
  if (!snapshot) return snapshot.status();
  return rules_from((*snapshot)->values, rules_from(settings->configured(), Rules{}));
}

}  // namespace opbase::collection
