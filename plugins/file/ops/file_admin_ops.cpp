// The administrators' file lists (see file_admin_ops.hpp).
#include "ops/file_admin_ops.hpp"

#include <string>

#include "opbase/admin_paging.hpp"
#include "opbase/field_error.hpp"
#include "opbase/store_access.hpp"
#include "records/file_record.hpp"

namespace opbase::file {
namespace {

using nlohmann::json;

constexpr size_t kMaxUserKeyBytes = 64;

Status refused(std::string_view field, std::string message) {
  return field_error(field, std::string(field) + " " + std::move(message), {{"reason", "type"}});
}

// file.admin.list's match: `_userkey` (one owner) and `state`, each optional.
Result<json> list_match(const json& body) {
  json match = json::object();
  if (const auto owner = body.find("_userkey"); owner != body.end() && !owner->is_null()) {
    if (!owner->is_string() || owner->get_ref<const std::string&>().empty() ||
        owner->get_ref<const std::string&>().size() > kMaxUserKeyBytes) {
      return refused("_userkey", "must be a user's _userkey");
    }
    match["_userkey"] = *owner;
  }
  if (const auto state = body.find("state"); state != body.end() && !state->is_null()) {
    if (*state != "pending" && *state != "ready" && *state != "failed") {
      return refused("state", "must be pending, ready or failed");
    }
    match["state"] = *state;
  }
  return match;
}

store::FindRequest page_of(std::string collection, json match, const AdminPaging& paging) {
  store::FindRequest find;
  find.collection = std::move(collection);
  find.scope = store::Scope::everyone();
  find.match = match_of(match);
  find.limit = paging.limit;
  find.offset = paging.offset;
  find.with_total = true;
  return find;
}

}  // namespace

Result<Reply> FileAdminOps::list(const Request& request) const {
  auto match = list_match(request.body);
  if (!match) return match.status();
  auto paging = AdminPaging::from(request.body);
  if (!paging) return paging.status();
  store::FindRequest find = page_of("files", std::move(*match), *paging);
  find.sort = {{{"_created_at", {"_created_at"}}, /*descending=*/true}};
  auto page = store_.find(request.project_id, find);
  if (!page) return page.status();
  json files = json::array();
  for (const json& stored : page->documents) files.push_back(client_record(stored));
  return Reply(std::move(files)).with_meta({{"total", page->total}});
}

Result<Reply> FileAdminOps::usage(const Request& request) const {
  auto paging = AdminPaging::from(request.body);
  if (!paging) return paging.status();
  store::FindRequest find = page_of("file_usage", json::object(), *paging);
  find.sort = {{{"bytes", {"bytes"}}, /*descending=*/true}};
  auto page = store_.find(request.project_id, find);
  if (!page) return page.status();
  json users = json::array();
  for (const json& doc : page->documents) {
    users.push_back({{"_userkey", doc.value("_userkey", json())},
                     {"bytes", doc.value("bytes", int64_t{0})},
                     {"files", doc.value("files", int64_t{0})}});
  }
  return Reply(std::move(users)).with_meta({{"total", page->total}});
}

}  // namespace opbase::file
