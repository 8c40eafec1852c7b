#include "housekeeping/file_purge.hpp"

#include "opbase/iso_time.hpp"
#include "opbase/store_access.hpp"
#include "records/file_record.hpp"

namespace opbase::file {
namespace {

using nlohmann::json;

// Records handled per round; more wait for the next one.
constexpr int64_t kBatch = 1000;

}  // namespace

Result<FilePurge::Purged> FilePurge::run(std::string_view project, int64_t now_ms) const {
  Purged purged;
  auto stale = drop_stale_uploads(project, now_ms);
  if (!stale) return stale.status();
  purged.stale_uploads = *stale;
  if (Status finished = finish_removals(project, now_ms, purged); !finished) return finished;
  if (Status rechecked = recheck_failed_uploads(project, now_ms, purged); !rechecked) {
    return rechecked;
  }
  return purged;
}

Result<int64_t> FilePurge::drop_stale_uploads(std::string_view project, int64_t now_ms) const {
  store::FindRequest find;
  find.collection = kFilesCollection;
  find.match = match_of(
      {{"state", "pending"}, {"_created_at:$lt", iso_time(now_ms - pending_ttl_s_ * 1000)}});
  find.limit = kBatch;
  auto stale = store_.find(project, find);
  if (!stale) return stale.status();
  int64_t dropped = 0;
  for (const json& record : stale->documents) {
    const std::string key = record.value("_key", "");
    store::StateRequest gone{std::string(kFilesCollection),
                             {},
                             match_of({{"_key", key}, {"state", "pending"}}),
                             store::State::kActive,
                             store::State::kArchived,
                             "stale",
                             now_ms};
    auto moved = store_.change_state(project, gone);
    if (!moved) return moved.status();
    if (moved->keys.empty()) continue;  // finalized or deleted in between
    ledger_.release(project, record.value("_userkey", ""), record.value("size", int64_t{0}), 1);
    ++dropped;
  }
  return dropped;
}

Status FilePurge::finish_removals(std::string_view project, int64_t now_ms, Purged& purged) const {
  store::FindRequest find;
  find.collection = kFilesCollection;
  find.state = store::State::kArchived;
  find.match = match_of(json::object());
  find.limit = kBatch;
  auto leaving = store_.find(project, find);
  if (!leaving) return leaving.status();
  for (const json& record : leaving->documents) {
    // One the backend refuses must not hold back the others: it waits for the next round.
    if (Status done = finish_removal(store_, backend_, project, record, now_ms); !done) {
      if (purged.removal_failure) purged.removal_failure = done;
      continue;
    }
    ++purged.deleted_files;
  }
  auto removed = store_.purge(project, {store::State::kDeleted, now_ms + 1});
  return removed ? Status::ok() : removed.status();
}

// A failed record has `bytes_rechecked` false from file.report_upload_failure on; its upload URL
// was made with the record, so it is dead `upload_url_ttl_s` after `_created_at`.
Status FilePurge::recheck_failed_uploads(std::string_view project, int64_t now_ms,
                                         Purged& purged) const {
  store::FindRequest find;
  find.collection = kFilesCollection;
  find.match = match_of({{"state", "failed"},
                         {"bytes_rechecked", false},
                         {"_created_at:$lt", iso_time(now_ms - upload_url_ttl_s_ * 1000)}});
  find.limit = kBatch;
  auto failed = store_.find(project, find);
  if (!failed) return failed.status();
  for (const json& record : failed->documents) {
    if (Status removed = backend_.remove(file_ref(project, record)); !removed) {
      if (purged.removal_failure) purged.removal_failure = removed;
      continue;
    }
    auto noted =
        update_where(store_, project, kFilesCollection, {{"_key", record.value("_key", "")}},
                     set_fields({{"bytes_rechecked", true}}));
    if (!noted) return noted.status();
  }
  return Status::ok();
}

Status finish_removal(const DocumentStore& store, const FileBackend& backend,
                      std::string_view project, const json& record, int64_t now_ms) {
  if (Status removed = backend.remove(file_ref(project, record)); !removed) return removed;
  store::StateRequest gone{std::string(kFilesCollection),
                           {},
                           match_of({{"_key", record.value("_key", "")}}),
                           store::State::kArchived,
                           store::State::kDeleted,
                           "removed",
                           now_ms};
  auto moved = store.change_state(project, gone);
  return moved ? Status::ok() : moved.status();
}

}  // namespace opbase::file
