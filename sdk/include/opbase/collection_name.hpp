// Collection names (docs/api.md#collections): ASCII lowercase letters, digits and underscores,
// starting with a letter or an underscore, at most 64 characters. Used by every collection op and
// by the statement parser, and by the host for datastore.indexes. Pure function; thread-safe.
#pragma once

#include <cstddef>
#include <string_view>

#include "opbase/status.hpp"

namespace opbase::collection {

inline constexpr std::size_t kMaxCollectionNameLength = 64;

// Ok, or VALIDATION_ERROR whose message names the rule broken, with details
// {"collection": the name (cut to its first 100 characters), "rule": one of "non_empty",
// "first_character", "characters", "max_length"}.
Status check_collection_name(std::string_view name);

}  // namespace opbase::collection
