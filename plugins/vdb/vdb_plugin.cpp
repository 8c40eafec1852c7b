// The vdb plugin (docs/api.md#vector-database): vdb.insert, vdb.search and vdb.delete (and the
// administrators' vdb.admin.list) over vector records kept in the project's store and searched
// through this daemon's in-memory indexes. At start every project's records are loaded from the
// store (the truth); one background thread then moves large collections' records into their HNSW
// graphs, reads what other daemons sharing the store wrote (vdb.refresh_ms), and purges deletes
// once other daemons had time to see them (store_feed/feed_rounds.hpp).
#include <memory>

#include "index/index_set.hpp"
#include "opbase/background_worker.hpp"
#include "opbase/document_store.hpp"
#include "opbase/sdk.hpp"
#include "ops/vdb_admin_ops.hpp"
#include "ops/vdb_ops.hpp"
#include "records/collection_catalog.hpp"
#include "records/record_store.hpp"
#include "settings.hpp"
#include "store_feed/feed_rounds.hpp"
#include "store_feed/store_feed.hpp"

namespace opbase::vdb {
namespace {

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
    rounds_ =
        std::make_unique<FeedRounds>(host(), settings_, *store_, *records_, *feed_, *indexes_);
    if (Status s = rounds_->load_projects(); !s) return s;

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
    indexer_ =
        std::make_unique<BackgroundWorker>("vdb-indexer", [this] { return rounds_->round(); });
    return Status::ok();
  }

  void shutdown() override {
    if (indexer_) indexer_->stop();
  }

 private:
  VdbSettings settings_;
  std::unique_ptr<DocumentStore> store_;
  std::unique_ptr<RecordStore> records_;
  std::unique_ptr<CollectionCatalog> catalog_;
  std::unique_ptr<IndexSet> indexes_;
  std::unique_ptr<VdbAdminOps> admin_ops_;
  std::unique_ptr<StoreFeed> feed_;
  std::unique_ptr<VdbOps> ops_;
  std::unique_ptr<FeedRounds> rounds_;
  std::unique_ptr<BackgroundWorker> indexer_;  // last: its rounds use everything above
};

}  // namespace
}  // namespace opbase::vdb

OPBASE_PLUGIN(opbase::vdb::VdbPlugin, "vdb", "0.1.0")
