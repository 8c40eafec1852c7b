// JournalReader: this plugin's kept events in one project's store (store::kEventsCollection of
// its own namespace, docs/plugin-guide.md "Documents with the events"): the newest id, the pages
// after a position in id order, and the purge of those older than the retention.
// Thread-safety: as the DocumentStore: any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "journal/journal_event.hpp"
#include "opbase/document_store.hpp"
#include "opbase/status.hpp"

namespace opbase::realtime {

class JournalReader {
 public:
  explicit JournalReader(const Host& host) : store_(host) {}

  // The id of the newest event kept, or "" when there is none.
  Result<std::string> newest(std::string_view project) const;
  // Up to `limit` events after `after` ("": from the oldest), oldest first. `last` gets the id of
  // the last record read, a document event or not, so the caller moves past every record.
  Result<std::vector<JournalEvent>> after(std::string_view project, std::string_view after,
                                          int64_t limit, std::string& last) const;
  // Removes the events older than `before_ms`; how many.
  Result<int64_t> purge(std::string_view project, int64_t before_ms, int64_t now_ms) const;

 private:
  DocumentStore store_;
};

// The journal record's `_key` of event `id` in this plugin's namespace.
std::string record_key(std::string_view id);

}  // namespace opbase::realtime
