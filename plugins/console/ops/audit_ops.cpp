// console.audit.list (see audit_ops.hpp).
#include "ops/audit_ops.hpp"

#include <utility>

#include "opbase/admin_paging.hpp"
#include "opbase/host_services.hpp"

namespace opbase::console {

Result<Reply> audit_list(const Host& host, const Request& request) {
  auto paging = AdminPaging::from(request.body);
  if (!paging) return paging.status();
  auto page = list_audit(host, request.project_id, paging->limit, paging->offset);
  if (!page) return page.status();
  return Reply(std::move(page->entries)).with_meta({{"total", page->total}});
}

}  // namespace opbase::console
