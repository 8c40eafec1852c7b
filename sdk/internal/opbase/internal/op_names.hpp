// The rules of op and service names, shared by the daemon's registry and the SDK's fake host:
// "<area>.<verb>" or "<area>.<group>.<verb>" ("webhooks.endpoint.create") in lowercase letters,
// digits and '_'; the alias areas the API defines
// (docs/api.md#aliases: db.* for collection.*, the baseai.* names for ai.*).
// Pure constexpr functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace opbase::names {

struct AreaAlias {
  std::string_view area;
  std::string_view alias_area;
};
inline constexpr AreaAlias kAreaAliases[] = {{"collection", "db"}, {"ai", "baseai"}};

// Names whose verb changes under the alias area; other verbs keep their name.
struct NameAlias {
  std::string_view canonical;
  std::string_view alias;
};
inline constexpr NameAlias kNameAliases[] = {
    {"ai.generate", "baseai.create"},
    {"ai.classify", "baseai.categorize"},
    {"ai.sentiment", "baseai.analyze_sentiment"},
    {"ai.extract", "baseai.extract_entities"},
};

constexpr bool valid_verb(std::string_view verb) {
  if (verb.empty() || verb.size() > 64) return false;
  for (char c : verb) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

// A plugin's name is its area: 1-32 characters, starting with a letter.
constexpr bool valid_area(std::string_view area) {
  return !area.empty() && area.size() <= 32 && area[0] >= 'a' && area[0] <= 'z' && valid_verb(area);
}

// What follows the area: a verb, or a group and a verb.
constexpr bool valid_verb_path(std::string_view rest) {
  const auto dot = rest.find('.');
  if (dot == std::string_view::npos) return valid_verb(rest);
  return valid_verb(rest.substr(0, dot)) && valid_verb(rest.substr(dot + 1));
}

constexpr bool valid_name(std::string_view name) {
  const auto dot = name.find('.');
  return dot != std::string_view::npos && valid_area(name.substr(0, dot)) &&
         valid_verb_path(name.substr(dot + 1));
}

// The alias area owned by `area` ("db" for "collection"), or "" when none.
constexpr std::string_view alias_area_of(std::string_view area) {
  for (const auto& a : kAreaAliases) {
    if (a.area == area) return a.alias_area;
  }
  return {};
}

// The area that owns `alias_area` ("collection" for "db"), or "" when it is no alias area.
constexpr std::string_view owner_of_alias_area(std::string_view alias_area) {
  for (const auto& a : kAreaAliases) {
    if (a.alias_area == alias_area) return a.area;
  }
  return {};
}

// True when plugin `plugin` may register `name`: its own area or the alias area it owns.
constexpr bool name_belongs_to(std::string_view plugin, std::string_view name) {
  const auto dot = name.find('.');
  if (dot == std::string_view::npos) return false;
  const std::string_view area = name.substr(0, dot);
  return area == plugin || (!alias_area_of(plugin).empty() && area == alias_area_of(plugin));
}

// The alias a canonical op name is also reachable under ("db.find" for "collection.find"),
// or "" when none.
inline std::string alias_of(std::string_view canonical) {
  for (const auto& n : kNameAliases) {
    if (n.canonical == canonical) return std::string(n.alias);
  }
  const auto dot = canonical.find('.');
  if (dot == std::string_view::npos) return {};
  const std::string_view alias_area = alias_area_of(canonical.substr(0, dot));
  if (alias_area.empty()) return {};
  return std::string(alias_area) + std::string(canonical.substr(dot));
}

}  // namespace opbase::names
