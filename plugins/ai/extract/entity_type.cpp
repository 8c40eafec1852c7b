#include "extract/entity_type.hpp"

#include <array>
#include <string>
#include <utility>

namespace opbase::ai {

namespace {

// Canonical names first; synonyms after. Lookups compare lower-cased names.
constexpr std::array<std::pair<std::string_view, EntityType>, 30> kNames = {{
    {"email", EntityType::kEmail},
    {"url", EntityType::kUrl},
    {"phone", EntityType::kPhone},
    {"date", EntityType::kDate},
    {"money", EntityType::kMoney},
    {"person", EntityType::kPerson},
    {"location", EntityType::kLocation},
    {"organization", EntityType::kOrganization},
    {"emails", EntityType::kEmail},
    {"urls", EntityType::kUrl},
    {"links", EntityType::kUrl},
    {"phones", EntityType::kPhone},
    {"phone_number", EntityType::kPhone},
    {"phone_numbers", EntityType::kPhone},
    {"dates", EntityType::kDate},
    {"amounts", EntityType::kMoney},
    {"currency", EntityType::kMoney},
    {"people", EntityType::kPerson},
    {"persons", EntityType::kPerson},
    {"names", EntityType::kPerson},
    {"locations", EntityType::kLocation},
    {"places", EntityType::kLocation},
    {"organizations", EntityType::kOrganization},
    {"organisation", EntityType::kOrganization},
    {"organisations", EntityType::kOrganization},
    {"orgs", EntityType::kOrganization},
    {"companies", EntityType::kOrganization},
    {"e-mail", EntityType::kEmail},
    {"e-mails", EntityType::kEmail},
    {"org", EntityType::kOrganization},
}};
constexpr size_t kCanonicalCount = 8;

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

}  // namespace

std::optional<EntityType> entity_type_from_name(std::string_view name) {
  std::string lower(trim(name));
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  for (const auto& [known, type] : kNames) {
    if (known == lower) return type;
  }
  return std::nullopt;
}

std::string_view canonical_name(EntityType type) {
  for (size_t i = 0; i < kCanonicalCount; ++i) {
    if (kNames[i].second == type) return kNames[i].first;
  }
  return "";
}

const std::vector<std::string_view>& canonical_entity_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> out;
    for (size_t i = 0; i < kCanonicalCount; ++i) out.push_back(kNames[i].first);
    return out;
  }();
  return names;
}

}  // namespace opbase::ai
