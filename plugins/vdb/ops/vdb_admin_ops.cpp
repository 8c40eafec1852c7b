// The administrators' list of vector collections (see vdb_admin_ops.hpp).
#include "ops/vdb_admin_ops.hpp"

#include <string>

#include "opbase/admin_paging.hpp"
#include "opbase/field_error.hpp"

namespace opbase::vdb {
namespace {

using nlohmann::json;

constexpr size_t kMaxUserKeyBytes = 64;

}  // namespace

Result<Reply> VdbAdminOps::list(const Request& request) const {
  std::string user;
  if (const auto owner = request.body.find("_userkey");
      owner != request.body.end() && !owner->is_null()) {
    if (!owner->is_string() || owner->get_ref<const std::string&>().empty() ||
        owner->get_ref<const std::string&>().size() > kMaxUserKeyBytes) {
      return field_error("_userkey", "_userkey must be a user's _userkey", {{"reason", "type"}});
    }
    user = owner->get<std::string>();
  }
  auto paging = AdminPaging::from(request.body);
  if (!paging) return paging.status();
  auto page = catalog_.page(request.project_id, user, paging->limit, paging->offset);
  if (!page) return page.status();
  json out = json::array();
  for (const CollectionInfo& info : page->collections) {
    const auto held = indexes_.find(request.project_id, info.user, info.name);
    out.push_back({{"_userkey", info.user},
                   {"name", info.name},
                   {"dimensions", info.dimensions},
                   {"model_version", info.model_version ? json(*info.model_version) : json()},
                   {"_created_at", info.created_at},
                   {"records", held ? held->index.size() : 0}});
  }
  return Reply(std::move(out)).with_meta({{"total", page->total}});
}

}  // namespace opbase::vdb
