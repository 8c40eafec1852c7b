// EntityType: the kinds of entity ai.extract finds, and the names callers may use for them in
// options.entity_types. Each kind has one canonical name ("person") and a few accepted
// synonyms ("people", "names"); the op layer refuses any other name with INVALID_OPTIONS and
// lists the canonical names in its message.
//
// Thread-safety: pure functions over constant tables.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace opbase::ai {

enum class EntityType {
  kEmail,
  kUrl,
  kPhone,
  kDate,
  kMoney,
  kPerson,
  kLocation,
  kOrganization,
};

// The type a caller's name means, ignoring case and surrounding spaces: "Emails", "links",
// "phone_numbers", "Organisations". nullopt for a name that means nothing here.
std::optional<EntityType> entity_type_from_name(std::string_view name);

// "email", "url", "phone", ...: the canonical name of a type.
std::string_view canonical_name(EntityType type);

// Every canonical name, in a stable order (for error messages).
const std::vector<std::string_view>& canonical_entity_names();

}  // namespace opbase::ai
