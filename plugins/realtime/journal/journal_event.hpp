// JournalEvent: one event of the store's journal as this plugin keeps it
// (Registrar::subscribe_durable_documents): a document event with the document as its write left
// it, and for an update as it was before (docs/plugin-guide.md, "Documents with the events").
// Thread-safety: a plain value.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace opbase::realtime {

struct JournalEvent {
  std::string id;           // "evt_...": its position in the journal, and the stream's event id
  std::string type;         // "document.created", ..., or realtime.subscribed / unsubscribed
  std::string write;        // "insert", "update", "archive", "delete" or "restore"
  std::string collection;   // the document's
  std::string key;          // the document's `_key`
  nlohmann::json document;  // as the write left it; null when the record has none
  nlohmann::json before;    // before an update; null otherwise
  int64_t time_ms = 0;

  // A subscription made or removed (subscription_store.hpp): `document` is its record.
  bool subscription_change() const { return type.starts_with("realtime."); }

  // The event a journal record holds; nullopt for a record that is neither a document event nor
  // a subscription's.
  static std::optional<JournalEvent> from_record(const nlohmann::json& record);
};

// The time in milliseconds an event id starts with; nullopt for text that is not an event id.
std::optional<int64_t> event_id_time_ms(std::string_view id);

}  // namespace opbase::realtime
