#include "audit/audit_trail.hpp"

#include <algorithm>
#include <array>

#include "audit/param_redaction.hpp"
#include "opbase/crypto.hpp"
#include "opbase/hex.hpp"
#include "opbase/iso_time.hpp"

namespace opbase::host {
namespace {

using nlohmann::json;

constexpr std::string_view kNamespace = "host.audit";
constexpr std::string_view kCollection = "audit";
constexpr size_t kMaxParamsBytes = 4096;
constexpr std::array<std::string_view, 6> kReadVerbs = {"list", "get",     "count",
                                                        "find", "explain", "usage"};

std::string new_entry_key(int64_t now_ms) { return time_hex(now_ms) + random_hex(10); }

}  // namespace

bool AuditTrail::records(std::string_view op) {
  const std::string_view verb = op.substr(op.rfind('.') + 1);
  return std::find(kReadVerbs.begin(), kReadVerbs.end(), verb) == kReadVerbs.end();
}

json audited_params(std::string_view body) {
  json params = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!params.is_object()) return json::object();
  params.erase("op");
  redact_params(params);
  const std::string text = params.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > kMaxParamsBytes) return {{"truncated", true}, {"bytes", text.size()}};
  return params;
}

Status AuditTrail::record(const AuditEntry& entry) const {
  ProjectStore* store = stores_.of(entry.project);
  if (store == nullptr) return Status::internal("no store for project " + entry.project);
  const int64_t now = now_ms_();
  const json actor = entry.user.empty() ? json{{"admin_key", true}} : json{{"user", entry.user}};
  json doc = {{"_key", new_entry_key(now)},
              {"_userkey", nullptr},
              {"_created_at", iso_time(now)},
              {"at", iso_time(now)},
              {"op", entry.op},
              {"actor", actor},
              {"request_id", entry.request_id},
              {"client_address", entry.client_address},
              {"params", audited_params(entry.body)}};
  return store->insert(kNamespace, {std::string(kCollection), {std::move(doc)}});
}

Result<json> AuditTrail::list(std::string_view project, int64_t limit, int64_t offset) const {
  ProjectStore* store = stores_.of(project);
  if (store == nullptr) return Status::internal("no store for project " + std::string(project));
  store::FindRequest find;
  find.collection = kCollection;
  find.scope = store::Scope::everyone();
  find.limit = limit;
  find.offset = offset;
  find.with_total = true;
  auto page = store->find_documents(kNamespace, find);
  if (!page) return page.status();
  json entries = json::array();
  for (json& doc : page->documents) {
    doc.erase("_userkey");
    doc.erase("_created_at");
    entries.push_back(std::move(doc));
  }
  return json{{"entries", std::move(entries)}, {"total", page->total}};
}

}  // namespace opbase::host
