// WriteEvents: the events of one store write (store.hpp Events), between the store service and
// the driver. The driver reports what the write inserted and changed, inside the write's own
// transaction, and stores the journal records this returns in that same transaction; after the
// commit the store service publishes the events on the bus. So an event is kept exactly when
// its write is: on sqlite (and the memory driver) in one transaction; on mongodb right after
// the write, before it is acknowledged (docs/operations.md#data-and-backups, "What a crash can
// lose: events").
// Thread-safety: one write's object, used by one thread at a time.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "opbase/store.hpp"

namespace opbase::host {

// One document to insert into `ns`'s store::kEventsCollection.
struct JournalRecord {
  std::string ns;
  nlohmann::json document;
};

struct RaisedEvent {
  std::string type;
  std::string payload;  // JSON object text
};

class WriteEvents {
 public:
  // `on_insert_plugins` / `on_change_plugins`: the durable subscribers of each type.
  WriteEvents(std::string project_id, store::Events spec,
              std::vector<std::string> on_insert_plugins,
              std::vector<std::string> on_change_plugins, int64_t now_ms);

  // What the write did, by `_key` in the order it did it. Replaces an earlier report, so a
  // driver that retries its transaction reports again.
  void report(const std::vector<std::string>& inserted, const std::vector<std::string>& changed);

  // The documents to insert in the write's transaction (none without durable subscribers).
  const std::vector<JournalRecord>& records() const { return records_; }
  // The events to publish once the write is durable.
  const std::vector<RaisedEvent>& raised() const { return raised_; }
  const std::string& project_id() const { return project_id_; }
  int64_t time_ms() const { return now_ms_; }

 private:
  void raise(const std::string& type, const std::vector<std::string>& plugins,
             const std::string& document_key);

  std::string project_id_;
  store::Events spec_;
  std::vector<std::string> on_insert_plugins_;
  std::vector<std::string> on_change_plugins_;
  int64_t now_ms_;
  std::vector<JournalRecord> records_;
  std::vector<RaisedEvent> raised_;
};

}  // namespace opbase::host
