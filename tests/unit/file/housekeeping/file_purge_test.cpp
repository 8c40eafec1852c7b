// The file plugin's background purge (housekeeping/file_purge.hpp) on the reference store, with
// the real UsageLedger and a backend that records what it is asked to remove: a pending upload
// older than pending_ttl_s is moved out (no longer found, its bytes removed, its bytes and its
// file given back to the quota) while one exactly that old, a younger one, a ready one and a
// failed one stay; an archived record (what file.delete leaves when removing its bytes failed)
// has its bytes removed and is then deleted and purged, its quota untouched (file.delete gave it
// back); when the backend fails the record stays archived and the next round finishes it; one
// record whose bytes cannot be removed does not hold back the others; run() counts what it did.
#include "housekeeping/file_purge.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "opbase/hex.hpp"
#include "opbase/iso_time.hpp"
#include "opbase/store_access.hpp"
#include "records/file_record.hpp"
#include "store_backed_host.hpp"

namespace opbase::file {
namespace {

using nlohmann::json;

constexpr std::string_view kProject = "p1";
constexpr char kAda[] = "ada";
constexpr int64_t kTtlS = 3600;
// How long an upload URL works: a failed upload's bytes are removed once more after it.
constexpr int64_t kUrlTtlS = 900;
// 2026-11-28T12:00:00Z.
constexpr int64_t kNow = 1'795'867'200'000;
constexpr UsageLimits kNoLimits{0, 0};

// A backend that keeps no bytes: it records the files it is asked to remove, and fails to remove
// the ones it is told to.
class RecordingBackend final : public FileBackend {
 public:
  Result<UploadTicket> upload_ticket(const FileRef&, std::string_view, int64_t,
                                     int64_t) const override {
    return Status::internal("not used by the purge");
  }
  Result<std::string> download_url(const FileRef&, int64_t, int64_t) const override {
    return Status::internal("not used by the purge");
  }
  Result<std::optional<StoredBytes>> stored(const FileRef&) const override {
    return Status::internal("not used by the purge");
  }
  Status remove(const FileRef& file) const override {
    std::lock_guard lock(mutex_);
    if (failing_.count(file.key) > 0) return Status::internal("the disk is gone: " + file.key);
    removed_.push_back(file);
    return Status::ok();
  }

  void fail_for(std::string key) {
    std::lock_guard lock(mutex_);
    failing_.insert(std::move(key));
  }
  void heal() {
    std::lock_guard lock(mutex_);
    failing_.clear();
  }
  std::vector<std::string> removed_keys() const {
    std::lock_guard lock(mutex_);
    std::vector<std::string> keys;
    for (const FileRef& file : removed_) keys.push_back(file.key);
    return keys;
  }
  std::vector<FileRef> removed() const {
    std::lock_guard lock(mutex_);
    return removed_;
  }

 private:
  mutable std::mutex mutex_;
  std::set<std::string> failing_;
  mutable std::vector<FileRef> removed_;
};

class FilePurgeTest : public ::testing::Test {
 protected:
  void SetUp() override { env_.fake().set_now_ms(kNow); }

  // A record as file.presign_upload keeps it, made `age_ms` ago, in `state`, counted in the
  // ledger as presign counts it. Its key ends in `tag`.
  std::string add_record(std::string_view tag, int64_t age_ms, int64_t size,
                         std::string_view state = "pending") {
    const std::string key = time_hex(kNow - age_ms) + "000000000000000000" + std::string(tag);
    NewFile file;
    file.name = "notes-" + std::string(tag) + ".txt";
    file.content_type = "text/plain";
    file.size = size;
    json record = pending_record(file, key, kAda, iso_time(kNow - age_ms), std::string(64, 'f'));
    record["state"] = state;
    if (state == "failed") record["bytes_rechecked"] = false;  // as report_upload_failure sets
    const Status inserted = store_.insert(kProject, {std::string(kFilesCollection), {record}});
    EXPECT_TRUE(inserted.is_ok()) << inserted.to_string();
    EXPECT_TRUE(ledger_.charge(kProject, kAda, size, kNoLimits).is_ok());
    return key;
  }
  // What file.delete does before removing the bytes: the record archived, its quota given back.
  void delete_leaving_bytes(const std::string& key, int64_t size) {
    store::StateRequest gone{std::string(kFilesCollection),
                             store::Scope::everyone(),
                             match_of({{"_key", key}}),
                             store::State::kActive,
                             store::State::kArchived,
                             "delete",
                             env_.now_ms()};
    auto moved = store_.change_state(kProject, gone);
    ASSERT_TRUE(moved.is_ok()) << moved.status().to_string();
    ASSERT_EQ(moved->keys.size(), 1u);
    ledger_.release(kProject, kAda, size, 1);
  }

  bool is_active(const std::string& key) {
    auto found = find_by_key(store_, kProject, kFilesCollection, key);
    EXPECT_TRUE(found.is_ok());
    return found.is_ok() && found->has_value();
  }
  std::vector<std::string> keys_in(store::State state) {
    std::vector<std::string> keys;
    for (const json& record : env_.documents(kProject, kFilesCollection, state)) {
      keys.push_back(record.value("_key", ""));
    }
    std::sort(keys.begin(), keys.end());
    return keys;
  }
  json usage() {
    const std::vector<json> counts = env_.documents(kProject, "file_usage");
    return counts.size() == 1 ? counts.front() : json();
  }
  Result<FilePurge::Purged> run() { return purge_.run(kProject, env_.now_ms()); }
  // A round that must succeed: its counts, or -1 for each when it failed.
  FilePurge::Purged run_ok() {
    auto purged = run();
    EXPECT_TRUE(purged.is_ok()) << purged.status().to_string();
    return purged.is_ok() ? *purged : FilePurge::Purged{-1, -1};
  }

  opbase::test::StoreBackedHost env_{"file"};
  DocumentStore store_{env_.host()};
  UsageLedger ledger_{store_};
  RecordingBackend backend_;
  FilePurge purge_{store_, backend_, ledger_, kTtlS, kUrlTtlS};
};

TEST_F(FilePurgeTest, APendingUploadOlderThanItsTtlIsMovedOutAndGivenBackToTheQuota) {
  const std::string stale = add_record("01", kTtlS * 1000 + 1, 100);
  ASSERT_EQ(usage()["files"], 1);
  auto purged = run();
  ASSERT_TRUE(purged.is_ok()) << purged.status().to_string();
  EXPECT_EQ(purged->stale_uploads, 1);
  EXPECT_EQ(purged->deleted_files, 1);  // moved on to deleted in the same round
  EXPECT_FALSE(is_active(stale));
  EXPECT_TRUE(keys_in(store::State::kArchived).empty());
  EXPECT_TRUE(keys_in(store::State::kDeleted).empty());  // and purged for good
  ASSERT_EQ(backend_.removed().size(), 1u);
  const FileRef removed = backend_.removed().front();
  EXPECT_EQ(removed.project, kProject);
  EXPECT_EQ(removed.key, stale);
  EXPECT_EQ(removed.size, 100);
  EXPECT_EQ(usage()["bytes"], 0);
  EXPECT_EQ(usage()["files"], 0);
}

TEST_F(FilePurgeTest, YoungPendingReadyAndFailedRecordsStay) {
  const std::string stale = add_record("01", kTtlS * 1000 + 1, 100);
  const std::string exactly_ttl = add_record("02", kTtlS * 1000, 20);
  const std::string young = add_record("03", 60'000, 30);
  const std::string ready = add_record("04", 30 * kTtlS * 1000, 40, "ready");
  const std::string failed = add_record("05", 30 * kTtlS * 1000, 50, "failed");
  auto purged = run();
  ASSERT_TRUE(purged.is_ok()) << purged.status().to_string();
  EXPECT_EQ(purged->stale_uploads, 1);
  EXPECT_EQ(purged->deleted_files, 1);
  EXPECT_FALSE(is_active(stale));
  for (const std::string& kept : {exactly_ttl, young, ready, failed}) {
    EXPECT_TRUE(is_active(kept)) << kept;
  }
  // The failed record stays; its bytes are removed once more, as its upload URL is long dead.
  EXPECT_EQ(backend_.removed_keys(), (std::vector<std::string>{stale, failed}));
  EXPECT_EQ(usage()["bytes"], 20 + 30 + 40 + 50);
  EXPECT_EQ(usage()["files"], 4);
}

TEST_F(FilePurgeTest, ARecordFinalizedBeforeTheRoundIsNoLongerStale) {
  const std::string key = add_record("01", kTtlS * 1000 + 1, 100);
  auto ready = update_where(store_, kProject, kFilesCollection, {{"_key", key}},
                            set_fields({{"state", "ready"}}));
  ASSERT_TRUE(ready.is_ok());
  auto purged = run();
  ASSERT_TRUE(purged.is_ok());
  EXPECT_EQ(purged->stale_uploads, 0);
  EXPECT_TRUE(is_active(key));
  EXPECT_EQ(usage()["files"], 1);
}

TEST_F(FilePurgeTest, AStaleUploadIsDroppedOnceAsTimeGoesOn) {
  const std::string key = add_record("01", 0, 100);
  EXPECT_EQ(run_ok().stale_uploads, 0);
  env_.fake().advance_ms(kTtlS * 1000);
  EXPECT_EQ(run_ok().stale_uploads, 0);
  env_.fake().advance_ms(1);
  EXPECT_EQ(run_ok().stale_uploads, 1);
  EXPECT_EQ(run_ok().stale_uploads, 0);
  EXPECT_FALSE(is_active(key));
  EXPECT_EQ(usage()["files"], 0);  // given back once
  EXPECT_EQ(usage()["bytes"], 0);
}

TEST_F(FilePurgeTest, AnArchivedRecordHasItsBytesRemovedThenIsDeletedAndPurged) {
  const std::string deleted = add_record("01", 60'000, 70, "ready");
  const std::string kept = add_record("02", 60'000, 30, "ready");
  delete_leaving_bytes(deleted, 70);
  ASSERT_EQ(keys_in(store::State::kArchived), std::vector<std::string>{deleted});
  auto purged = run();
  ASSERT_TRUE(purged.is_ok()) << purged.status().to_string();
  EXPECT_EQ(purged->stale_uploads, 0);
  EXPECT_EQ(purged->deleted_files, 1);
  EXPECT_EQ(backend_.removed_keys(), std::vector<std::string>{deleted});
  EXPECT_EQ(backend_.removed().front().name, "notes-01.txt");
  EXPECT_TRUE(keys_in(store::State::kArchived).empty());
  EXPECT_TRUE(keys_in(store::State::kDeleted).empty());
  EXPECT_TRUE(is_active(kept));
  EXPECT_EQ(usage()["bytes"], 30);  // file.delete gave its place back; the purge gives none
  EXPECT_EQ(usage()["files"], 1);
  auto again = run();
  ASSERT_TRUE(again.is_ok());
  EXPECT_EQ(again->deleted_files, 0);
  EXPECT_EQ(backend_.removed().size(), 1u);
}

TEST_F(FilePurgeTest, WhenTheBackendFailsTheRecordStaysArchivedForTheNextRound) {
  const std::string deleted = add_record("01", 60'000, 70, "ready");
  delete_leaving_bytes(deleted, 70);
  backend_.fail_for(deleted);
  auto failed = run();
  EXPECT_FALSE(failed.is_ok() && failed->deleted_files > 0);  // nothing counted as removed
  EXPECT_EQ(keys_in(store::State::kArchived), std::vector<std::string>{deleted});
  EXPECT_TRUE(keys_in(store::State::kDeleted).empty());
  EXPECT_FALSE(is_active(deleted));
  backend_.heal();
  auto purged = run();
  ASSERT_TRUE(purged.is_ok()) << purged.status().to_string();
  EXPECT_EQ(purged->deleted_files, 1);
  EXPECT_EQ(backend_.removed_keys(), std::vector<std::string>{deleted});
  EXPECT_TRUE(keys_in(store::State::kArchived).empty());
  EXPECT_TRUE(keys_in(store::State::kDeleted).empty());
  EXPECT_EQ(usage()["files"], 0);  // given back once, by file.delete
}

TEST_F(FilePurgeTest, AStaleUploadWhoseBytesCannotBeRemovedStaysArchivedWithItsQuotaGivenBack) {
  const std::string stale = add_record("01", kTtlS * 1000 + 1, 100);
  backend_.fail_for(stale);
  (void)run();
  EXPECT_FALSE(is_active(stale));
  EXPECT_EQ(keys_in(store::State::kArchived), std::vector<std::string>{stale});
  EXPECT_EQ(usage()["files"], 0);
  backend_.heal();
  auto purged = run();
  ASSERT_TRUE(purged.is_ok()) << purged.status().to_string();
  EXPECT_EQ(purged->stale_uploads, 0);  // already dropped
  EXPECT_EQ(purged->deleted_files, 1);
  EXPECT_TRUE(keys_in(store::State::kArchived).empty());
  EXPECT_EQ(usage()["files"], 0);  // not given back twice
  EXPECT_EQ(usage()["bytes"], 0);
}

// One file the backend keeps refusing to remove (an object store's AccessDenied, say) must not
// hold back the project's other removals: they finish, the deleted records are purged, and the
// refusal is reported for the log.
TEST_F(FilePurgeTest, OneRecordWhoseBytesCannotBeRemovedDoesNotHoldBackTheOthers) {
  const std::string older = add_record("01", 120'000, 10, "ready");
  const std::string stuck = add_record("02", 60'000, 20, "ready");
  const std::string newer = add_record("03", 30'000, 30, "ready");
  delete_leaving_bytes(older, 10);
  delete_leaving_bytes(stuck, 20);
  delete_leaving_bytes(newer, 30);
  backend_.fail_for(stuck);
  (void)run();
  EXPECT_EQ(keys_in(store::State::kArchived), std::vector<std::string>{stuck});
  std::vector<std::string> removed = backend_.removed_keys();
  std::sort(removed.begin(), removed.end());
  EXPECT_EQ(removed, (std::vector<std::string>{older, newer}));
  EXPECT_TRUE(keys_in(store::State::kDeleted).empty());
}

// An object store cannot revoke a presigned upload URL: bytes a client sends after its failure
// was reported are removed once the URL has expired, once.
TEST_F(FilePurgeTest, AFailedUploadsBytesAreRemovedOnceMoreAfterItsUrlExpired) {
  const std::string young = add_record("01", kUrlTtlS * 1000 - 1000, 10, "failed");
  const std::string old = add_record("02", kUrlTtlS * 1000 + 1000, 20, "failed");
  (void)run_ok();
  EXPECT_EQ(backend_.removed_keys(), std::vector<std::string>{old});
  EXPECT_TRUE(is_active(old));  // the record stays, for its owner to see and delete
  (void)run_ok();
  EXPECT_EQ(backend_.removed_keys().size(), 1u) << "removed once only";
  env_.fake().advance_ms(2000);
  (void)run_ok();
  EXPECT_EQ(backend_.removed_keys(), (std::vector<std::string>{old, young}));
}

}  // namespace
}  // namespace opbase::file
