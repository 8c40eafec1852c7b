// FeedRounds: what the vdb plugin does at start and on its one background thread. At start,
// load_projects() reads every project's records from the store (the truth) into the indexes.
// Then each round() moves some records into their HNSW graphs, and when due reads what other
// daemons sharing the store wrote (vdb.refresh_ms, StoreFeed::refresh) and purges deletes past
// their retention and idle rate buckets (every minute); it publishes the index gauges.
// Thread-safety: load_projects() before the thread starts; round() from that thread only.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "index/index_set.hpp"
#include "opbase/document_store.hpp"
#include "opbase/host.hpp"
#include "opbase/status.hpp"
#include "records/record_store.hpp"
#include "settings.hpp"
#include "store_feed/store_feed.hpp"

namespace opbase::vdb {

class FeedRounds {
 public:
  FeedRounds(const Host& host, const VdbSettings& settings, const DocumentStore& store,
             const RecordStore& records, StoreFeed& feed, IndexSet& indexes)
      : host_(host),
        settings_(settings),
        store_(store),
        records_(records),
        feed_(feed),
        indexes_(indexes) {}

  // Loads each project the host lists, logging what each held.
  Status load_projects();
  // One step of moving records into their graphs, with the refresh from the store and the
  // housekeeping when due; answers how long to wait before the next (none while records wait
  // for a graph).
  std::chrono::milliseconds round();

 private:
  void refresh_all(int64_t now);
  void housekeeping(int64_t now);
  void publish_gauges() const;

  const Host& host_;
  const VdbSettings& settings_;
  const DocumentStore& store_;
  const RecordStore& records_;
  StoreFeed& feed_;
  IndexSet& indexes_;
  std::vector<std::string> projects_;
  int64_t next_refresh_ms_ = 0;
  int64_t next_housekeeping_ms_ = 0;
};

}  // namespace opbase::vdb
