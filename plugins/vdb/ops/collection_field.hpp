// The "collection" of a vdb op's body: a collection name of the datastore's rules
// (docs/api.md#collections), in a namespace of its own apart from document collections.
// Thread-safety: a pure function.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "opbase/status.hpp"

namespace opbase::vdb {

// The name; VALIDATION_ERROR with details.field "collection" (and the name rule broken) when it
// is missing, not a string or not a valid name.
Result<std::string> read_collection_field(const nlohmann::json& body);

}  // namespace opbase::vdb
