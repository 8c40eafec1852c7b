// Pagination metadata, exactly as docs/api.md#pagination defines each field.
#include "ops/pagination.hpp"

namespace opbase::collection {

// Built key by key: on the hot path of every find, and nlohmann's initializer lists build a
// temporary value per element first.
nlohmann::json pagination(int64_t limit, int64_t offset, int64_t size, int64_t count) {
  const int64_t page = offset / limit + 1;
  const bool has_next = offset + count < size;
  const bool has_prev = offset > 0;
  nlohmann::json out = nlohmann::json::object();
  out["page"] = page;
  out["per_page"] = limit;
  out["total_pages"] = (size + limit - 1) / limit;
  out["size"] = size;
  out["count"] = count;
  out["has_next"] = has_next;
  out["next_page"] = has_next ? nlohmann::json(page + 1) : nlohmann::json(nullptr);
  out["has_prev"] = has_prev;
  out["prev_page"] = has_prev ? nlohmann::json(page - 1) : nlohmann::json(nullptr);
  out["page_showing_start"] = count > 0 ? offset + 1 : 0;
  out["page_showing_end"] = offset + count;
  return out;
}

}  // namespace opbase::collection
