// meta.pagination of collection.find (docs/api.md#pagination). Pure function.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

namespace opbase::collection {

// `limit` >= 1 and `offset` >= 0 as requested, `size` the number of matching documents, `count`
// the number returned.
nlohmann::json pagination(int64_t limit, int64_t offset, int64_t size, int64_t count);

}  // namespace opbase::collection
