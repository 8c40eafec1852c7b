#include "opbase/admin_paging.hpp"

#include <string>
#include <string_view>

#include "opbase/field_error.hpp"

namespace opbase {
namespace {

// An integer parameter within [min, max], `fallback` when absent or null.
Result<int64_t> integer_in(const nlohmann::json& body, std::string_view field, int64_t fallback,
                           int64_t min, int64_t max) {
  const auto found = body.find(field);
  if (found == body.end() || found->is_null()) return fallback;
  if (!found->is_number_integer() || found->get<int64_t>() < min || found->get<int64_t>() > max) {
    return field_error(field,
                       std::string(field) + " must be an integer from " + std::to_string(min) +
                           " to " + std::to_string(max),
                       {{"reason", "range"}});
  }
  return found->get<int64_t>();
}

}  // namespace

Result<AdminPaging> AdminPaging::from(const nlohmann::json& body) {
  auto limit = integer_in(body, "limit", kDefaultLimit, 1, kMaxLimit);
  if (!limit) return limit.status();
  auto offset = integer_in(body, "offset", 0, 0, kMaxOffset);
  if (!offset) return offset.status();
  return AdminPaging{*limit, *offset};
}

}  // namespace opbase
