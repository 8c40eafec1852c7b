// AdminPaging: the `limit` and `offset` of the administrators' list ops (auth.user.list,
// file.admin.list, file.usage.list, ...), read alike everywhere: `limit` 1 to 500 (default 50),
// `offset` from 0 (default 0); anything else is VALIDATION_ERROR with details.field and
// details.reason "range". Their answers carry `meta.total`.
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "opbase/status.hpp"

namespace opbase {

struct AdminPaging {
  static constexpr int64_t kDefaultLimit = 50;
  static constexpr int64_t kMaxLimit = 500;
  static constexpr int64_t kMaxOffset = int64_t{1} << 40;

  int64_t limit = kDefaultLimit;
  int64_t offset = 0;

  static Result<AdminPaging> from(const nlohmann::json& body);
};

}  // namespace opbase
