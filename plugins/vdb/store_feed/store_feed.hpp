// StoreFeed: fills this daemon's indexes from the store, the truth. load() reads every
// collection and active record of a project at start (after a restart or a crash, the indexes
// are rebuilt this way); refresh() reads what other daemons sharing the store (several daemons
// on one MongoDB) wrote or deleted since the last refresh.
//
// A refresh reads the records whose changed_ms lies in [the last refresh's end, now - settle):
// a record is read once it is `settle` milliseconds old, so a write still committing when an
// earlier refresh ran, or stamped by a daemon whose clock is behind by less than `settle`, is
// not missed. Records this daemon wrote are in its indexes already and are skipped.
//
// Thread-safety: load() and refresh() may be called from any thread, one call at a time per
// project.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "index/index_set.hpp"
#include "opbase/status.hpp"
#include "records/collection_catalog.hpp"
#include "records/record_store.hpp"

namespace opbase::vdb {

class StoreFeed {
 public:
  StoreFeed(const RecordStore& records, const CollectionCatalog& catalog, IndexSet& indexes)
      : records_(records), catalog_(catalog), indexes_(indexes) {}

  struct Loaded {
    size_t collections = 0;
    size_t records = 0;
    size_t unreadable = 0;  // records whose stored vector could not be read (skipped)
  };
  Result<Loaded> load(std::string_view project, int64_t now_ms, int64_t settle_ms);

  // Answers how many records were added or removed.
  Result<size_t> refresh(std::string_view project, int64_t now_ms, int64_t settle_ms);

 private:
  // Puts a stored record into its collection's index; false when its vector is unreadable.
  Result<bool> put(std::string_view project, const nlohmann::json& stored);
  bool remove(std::string_view project, const nlohmann::json& stored);
  // Reads the pages of one state and range, handing each record to `take`.
  template <typename Take>
  Status read_all(std::string_view project, RecordStore::Page page, Take take);

  const RecordStore& records_;
  const CollectionCatalog& catalog_;
  IndexSet& indexes_;
  std::mutex mutex_;
  std::map<std::string, int64_t, std::less<>> refreshed_to_;  // project -> end of the last read
};

}  // namespace opbase::vdb
