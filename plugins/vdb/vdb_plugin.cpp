// The vdb plugin (docs/api.md#vector-database): vdb.insert, vdb.search and vdb.delete (and the
// administrators' vdb.admin.list) over vector records kept in the project's store and searched
// through this daemon's in-memory indexes. At start every project's records are loaded from the
// store (the truth); one background thread then moves large collections' records into their HNSW
// graphs, reads what other daemons sharing the store wrote (vdb.refresh_ms), and purges deletes
// once other daemons had time to see them.
#include <chrono>
#include <map>
#include <memory>

#include "index/index_set.hpp"
#include "opbase/background_worker.hpp"
#include "opbase/host_services.hpp"
#include "opbase/rate_limiter.hpp"
#include "opbase/sdk.hpp"
#include "ops/vdb_admin_ops.hpp"
#include "ops/vdb_ops.hpp"
#include "records/collection_catalog.hpp"
#include "records/record_store.hpp"
#include "settings.hpp"
#include "store_feed/store_feed.hpp"

namespace opbase::vdb {
namespace {

using nlohmann::json;

// Records the indexer moves into graphs between two looks at its other duties.
constexpr size_t kIndexStep = 64;
// How long the background thread sleeps when there is nothing to index.
constexpr std::chrono::milliseconds kIdleWait{200};
// How often deleted records past their retention and idle rate buckets are purged.
constexpr int64_t kHousekeepingMs = 60'000;

class VdbPlugin final : public Plugin {
 public:
  Status init(Registrar& r) override {
    auto settings = VdbSettings::from(host());
    if (!settings) return settings.status();
    settings_ = std::move(*settings);
    store_ = std::make_unique<DocumentStore>(host());
    records_ = std::make_unique<RecordStore>(*store_);
    catalog_ = std::make_unique<CollectionCatalog>(*store_);
    indexes_ = std::make_unique<IndexSet>(settings_.index);
    feed_ = std::make_unique<StoreFeed>(*records_, *catalog_, *indexes_);
    if (Status s = load_projects(); !s) return s;

    ops_ = std::make_unique<VdbOps>(host(), settings_, *records_, *catalog_, *indexes_);
    // Inserts and searches may wait on a model server (embedding): they run on the lane.
    r.size_lane(settings_.lane_threads, settings_.lane_queue);
    r.lane_op("vdb.insert", Access::kUser, [this](const Request& q) { return ops_->insert(q); });
    r.lane_op("vdb.search", Access::kUser, [this](const Request& q) { return ops_->search(q); });
    r.op("vdb.delete", Access::kUser, [this](const Request& q) { return ops_->remove(q); });
    admin_ops_ = std::make_unique<VdbAdminOps>(*catalog_, *indexes_);
    r.op("vdb.admin.list", Access::kAdmin,
         [this](const Request& q) { return admin_ops_->list(q); });
    if (Status s = r.status(); !s) return s;
    indexer_ = std::make_unique<BackgroundWorker>("vdb-indexer", [this] { return index_round(); });
    return Status::ok();
  }

  void shutdown() override {
    if (indexer_) indexer_->stop();
  }

 private:
  Status load_projects() {
    auto projects = list_projects(host());
    if (!projects) return projects.status();
    for (const std::string& project : *projects) {
      const auto start = std::chrono::steady_clock::now();
      auto loaded = feed_->load(project, host().now_ms(), settings_.refresh_settle_ms);
      if (!loaded) {
        return Status(loaded.status().code(), "vdb: loading the records of project " + project +
                                                  ": " + loaded.status().message());
      }
      projects_.push_back(project);
      const auto seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      host().info("vdb: project " + project + ": " + std::to_string(loaded->records) +
                  " records in " + std::to_string(loaded->collections) + " collections loaded in " +
                  std::to_string(seconds) + " s" +
                  (loaded->unreadable > 0
                       ? " (" + std::to_string(loaded->unreadable) + " unreadable, skipped)"
                       : ""));
    }
    return Status::ok();
  }

  // One step of moving records into their graphs, with the refresh from the store and the
  // housekeeping when due; no pause while records wait for a graph.
  std::chrono::milliseconds index_round() {
    const size_t moved = indexes_->index_some(kIndexStep);
    const int64_t now = host().now_ms();
    if (settings_.refresh_ms > 0 && now >= next_refresh_ms_) {
      refresh_all(now);
      next_refresh_ms_ = now + settings_.refresh_ms;
    }
    if (now >= next_housekeeping_ms_) {
      housekeeping(now);
      next_housekeeping_ms_ = now + kHousekeepingMs;
    }
    publish_gauges();
    return moved == 0 ? kIdleWait : std::chrono::milliseconds(0);
  }

  void refresh_all(int64_t now) {
    for (const std::string& project : projects_) {
      auto changed = feed_->refresh(project, now, settings_.refresh_settle_ms);
      if (!changed) {
        host().warn("vdb: refreshing project " + project + ": " + changed.status().message());
      } else if (*changed > 0) {
        host().count("refreshed_records_total", static_cast<double>(*changed));
      }
    }
  }

  void housekeeping(int64_t now) {
    const RateLimiter limiter(*store_);
    for (const std::string& project : projects_) {
      Status swept = limiter.sweep_idle(project, now);
      Status purged = swept ? records_->purge_deleted(project, now) : swept;
      if (!purged) host().warn("vdb: purging project " + project + ": " + purged.message());
    }
  }

  void publish_gauges() const {
    const IndexSet::Totals totals = indexes_->totals();
    host().gauge("collections", static_cast<double>(totals.collections));
    host().gauge("records", static_cast<double>(totals.records));
    host().gauge("records_waiting_for_graph", static_cast<double>(totals.pending));
  }

  VdbSettings settings_;
  std::unique_ptr<DocumentStore> store_;
  std::unique_ptr<RecordStore> records_;
  std::unique_ptr<CollectionCatalog> catalog_;
  std::unique_ptr<IndexSet> indexes_;
  std::unique_ptr<VdbAdminOps> admin_ops_;
  std::unique_ptr<StoreFeed> feed_;
  std::unique_ptr<VdbOps> ops_;
  std::vector<std::string> projects_;
  int64_t next_refresh_ms_ = 0;                // the indexer's own
  int64_t next_housekeeping_ms_ = 0;           // the indexer's own
  std::unique_ptr<BackgroundWorker> indexer_;  // last: its rounds use everything above
};

}  // namespace
}  // namespace opbase::vdb

OPBASE_PLUGIN(opbase::vdb::VdbPlugin, "vdb", "0.1.0")
