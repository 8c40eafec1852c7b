#include "records/record_store.hpp"

#include "opbase/store_access.hpp"
#include "records/record_document.hpp"

namespace opbase::vdb {

using nlohmann::json;

namespace {

query::Condition condition(std::string path, query::Op op, json value) {
  query::Condition c;
  c.path.text = path;
  c.path.segments = {std::move(path)};
  c.op = op;
  c.value = std::move(value);
  return c;
}

}  // namespace

Status RecordStore::insert(std::string_view project, const std::vector<json>& documents) const {
  return store_.insert(project, {std::string(kRecordsCollection), documents});
}

Result<std::vector<json>> RecordStore::find_keys(std::string_view project, std::string_view user,
                                                 std::string_view collection,
                                                 const std::vector<std::string>& keys) const {
  if (keys.empty()) return std::vector<json>();
  store::FindRequest find;
  find.collection = std::string(kRecordsCollection);
  find.scope = store::Scope::user(std::string(user));
  find.match = {condition("collection", query::Op::kEq, collection),
                condition("_key", query::Op::kIn, keys)};
  find.limit = static_cast<int64_t>(keys.size());
  auto found = store_.find(project, find);
  if (!found) return found.status();
  return std::move(found->documents);
}

Result<std::vector<std::string>> RecordStore::remove(std::string_view project,
                                                     std::string_view user,
                                                     std::string_view collection,
                                                     query::Match match, int64_t now_ms) const {
  match.push_back(condition("collection", query::Op::kEq, collection));
  // First the time other daemons read the delete by, then the move out of sight: a crash
  // between the two leaves the records active with a new time, which changes nothing.
  store::UpdateRequest stamp;
  stamp.collection = std::string(kRecordsCollection);
  stamp.scope = store::Scope::user(std::string(user));
  stamp.steps.push_back({match, set_fields({{"changed_ms", now_ms}})});
  auto stamped = store_.update(project, stamp);
  if (!stamped) return stamped.status();
  if (stamped->documents.empty()) return std::vector<std::string>();
  std::vector<std::string> keys;
  for (const json& doc : stamped->documents) keys.push_back(doc.value("_key", ""));
  store::StateRequest move;
  move.collection = std::string(kRecordsCollection);
  move.scope = store::Scope::user(std::string(user));
  move.match = {condition("_key", query::Op::kIn, keys)};
  move.from = store::State::kActive;
  move.to = store::State::kDeleted;
  move.ref = "vdb_delete";
  move.at_ms = now_ms;
  auto moved = store_.change_state(project, move);
  if (!moved) return moved.status();
  return std::move(moved->keys);
}

store::FindRequest RecordStore::page_request(const Page& page) {
  store::FindRequest find;
  find.collection = std::string(kRecordsCollection);
  find.scope = store::Scope::everyone();
  find.state = page.state;
  if (!page.after_key.empty()) {
    find.match.push_back(condition("_key", query::Op::kGt, page.after_key));
  }
  if (page.upto_ms > 0) {
    find.match.push_back(condition("changed_ms", query::Op::kGte, page.from_ms));
    find.match.push_back(condition("changed_ms", query::Op::kLt, page.upto_ms));
  }
  find.sort = {{{"_key", {"_key"}}, false}};
  find.limit = page.limit;
  return find;
}

Result<std::vector<json>> RecordStore::page(std::string_view project, const Page& page) const {
  auto found = store_.find(project, page_request(page));
  if (!found) return found.status();
  return std::move(found->documents);
}

Status RecordStore::purge_deleted(std::string_view project, int64_t now_ms) const {
  auto purged = store_.purge(project, {store::State::kDeleted, now_ms - kDeletedRetentionMs});
  return purged ? Status::ok() : purged.status();
}

}  // namespace opbase::vdb
