// console.audit.list: the project's audit log for administrators, newest first
// (docs/operations.md#the-management-console): {limit, offset} -> the entries, meta.total.
// Thread-safety: a pure function of the host's audit log.
#pragma once

#include "opbase/sdk.hpp"

namespace opbase::console {

Result<Reply> audit_list(const Host& host, const Request& request);

}  // namespace opbase::console
