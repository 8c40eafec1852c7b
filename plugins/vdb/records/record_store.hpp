// RecordStore: the vector records in the project's store (records/record_document.hpp), the
// truth every daemon's in-memory index is rebuilt from. Writes are one store transaction each, so
// an insert of many records stores all of them or none, and one acknowledged survives a crash.
//
// A delete is final for clients but kept a while in the store: the records are stamped with the
// delete's time (changed_ms) and moved to the deleted state, where other daemons sharing the
// store read them to drop the records from their indexes; purge_deleted() removes them for good
// after kDeletedRetentionMs.
//
// Thread-safety: every method may be called from any thread (DocumentStore calls).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/document_store.hpp"
#include "opbase/query.hpp"
#include "opbase/status.hpp"

namespace opbase::vdb {

// How long deleted records stay in the store for other daemons to see.
inline constexpr int64_t kDeletedRetentionMs = 10 * 60 * 1000;

class RecordStore {
 public:
  explicit RecordStore(const DocumentStore& store) : store_(store) {}

  // Stores the documents of stored_record(), all or none.
  Status insert(std::string_view project, const std::vector<nlohmann::json>& documents) const;

  // The user's active records of `collection` among `keys`, in no particular order.
  Result<std::vector<nlohmann::json>> find_keys(std::string_view project, std::string_view user,
                                                std::string_view collection,
                                                const std::vector<std::string>& keys) const;

  // Deletes the user's active records of `collection` that `match` selects; answers their keys.
  Result<std::vector<std::string>> remove(std::string_view project, std::string_view user,
                                          std::string_view collection, query::Match match,
                                          int64_t now_ms) const;

  // Up to `limit` records of every user in `state`, in `_key` order after `after_key` (empty:
  // from the first), with changed_ms in [from_ms, upto_ms) when upto_ms > 0.
  struct Page {
    store::State state = store::State::kActive;
    std::string after_key;
    int64_t from_ms = 0;
    int64_t upto_ms = 0;
    int64_t limit = 256;
  };
  Result<std::vector<nlohmann::json>> page(std::string_view project, const Page& page) const;
  // The store request of page(), for tests of what each driver is asked.
  static store::FindRequest page_request(const Page& page);

  // Removes for good the records deleted more than kDeletedRetentionMs ago (and the plugin's
  // other documents in the deleted state: swept rate buckets).
  Status purge_deleted(std::string_view project, int64_t now_ms) const;

 private:
  const DocumentStore& store_;
};

}  // namespace opbase::vdb
