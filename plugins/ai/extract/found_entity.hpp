// FoundEntity: one entity a scanner found, before it is written into the answer. Offsets are
// bytes into the request text here; the extractor turns them into code points at the end.
//
// Thread-safety: a plain value.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>

#include "extract/entity_type.hpp"

namespace opbase::ai::extract {

struct FoundEntity {
  EntityType type = EntityType::kEmail;
  size_t begin = 0;  // bytes, inclusive
  size_t end = 0;    // bytes, exclusive
  double confidence = 0.0;
  // The type's own fields ("value", "domain", "name", ...).
  nlohmann::json fields = nlohmann::json::object();
};

}  // namespace opbase::ai::extract
