// WriteEvents: the events of one store write (store.hpp Events), between the store service and
// the driver. The driver reports what the write inserted and changed, inside the write's own
// transaction, and stores the journal records this returns in that same transaction; after the
// commit the store service publishes the events on the bus. So an event is kept exactly when
// its write is: on sqlite (and the memory driver) in one transaction; on mongodb right after
// the write, before it is acknowledged (docs/operations.md#data-and-backups, "What a crash can
// lose: events").
//
// Event ids are given at the report, inside the write, and grow through the process: the
// sqlite writer commits one transaction at a time, so a reader of a journal that remembers the
// last id it saw misses none that commit after it (docs/api.md#events).
//
// Thread-safety: one write's object, used by one thread at a time; the ids' counter is shared.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "events/durable_subscriptions.hpp"
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

// One document a write inserted or changed, as the driver saw it inside the write. The texts are
// filled only when the write's events keep documents (WriteEvents::wants_documents).
struct WrittenDocument {
  std::string key;
  bool inserted = false;  // else changed: updated, moved to another state, or restored
  std::string document;   // JSON text as the write left it (as it was moved, for a state change)
  std::string before;     // JSON text as it was before an update; "" otherwise
  // What the write did to it, kept beside the documents: "insert", "update", "archive",
  // "delete" or "restore" (an archive and a restore raise document.updated, like an update).
  std::string_view write = "update";
};

// The `write` of a move to `state` (WrittenDocument::write).
std::string_view write_of_move(store::State state);

class WriteEvents {
 public:
  // `on_insert_plugins` / `on_change_plugins`: the durable subscribers of each type.
  WriteEvents(std::string project_id, store::Events spec,
              std::vector<DurableSubscriber> on_insert_plugins,
              std::vector<DurableSubscriber> on_change_plugins, int64_t now_ms);

  // Whether a durable subscriber keeps the documents: only then must the driver fill the texts.
  bool wants_documents() const { return wants_documents_; }

  // What the write did, in the order it did it. Replaces an earlier report, so a driver that
  // retries its transaction reports again.
  void report(const std::vector<WrittenDocument>& written);

  // The documents to insert in the write's transaction (none without durable subscribers).
  const std::vector<JournalRecord>& records() const { return records_; }
  // The events to publish once the write is durable.
  const std::vector<RaisedEvent>& raised() const { return raised_; }
  const std::string& project_id() const { return project_id_; }
  int64_t time_ms() const { return now_ms_; }

 private:
  void raise(const std::string& type, const std::vector<DurableSubscriber>& plugins,
             const WrittenDocument& written);

  std::string project_id_;
  store::Events spec_;
  std::vector<DurableSubscriber> on_insert_plugins_;
  std::vector<DurableSubscriber> on_change_plugins_;
  bool wants_documents_ = false;
  int64_t now_ms_;
  std::vector<JournalRecord> records_;
  std::vector<RaisedEvent> raised_;
};

// "evt_" and 32 hex digits, later ids sorting after earlier ones within the process: the time
// in milliseconds (48 bits; never behind an id given before), a sequence number (32 bits) and
// the process's own random number (48 bits), so daemons sharing a store never give one id twice.
std::string next_event_id(int64_t now_ms);

}  // namespace opbase::host
