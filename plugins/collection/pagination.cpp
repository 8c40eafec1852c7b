// Pagination metadata, exactly as DECISIONS 37 defines each field.
#include "pagination.hpp"

namespace opbase::collection {

nlohmann::json pagination(int64_t limit, int64_t offset, int64_t size, int64_t count) {
  const int64_t page = offset / limit + 1;
  const bool has_next = offset + count < size;
  const bool has_prev = offset > 0;
  return {{"page", page},
          {"per_page", limit},
          {"total_pages", (size + limit - 1) / limit},
          {"size", size},
          {"count", count},
          {"has_next", has_next},
          {"next_page", has_next ? nlohmann::json(page + 1) : nlohmann::json(nullptr)},
          {"has_prev", has_prev},
          {"prev_page", has_prev ? nlohmann::json(page - 1) : nlohmann::json(nullptr)},
          {"page_showing_start", count > 0 ? offset + 1 : 0},
          {"page_showing_end", offset + count}};
}

}  // namespace opbase::collection
