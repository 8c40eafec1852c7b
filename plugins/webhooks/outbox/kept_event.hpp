// KeptEvent: one event the store kept for this plugin (store::kEventsCollection, written by the
// host in the transaction of the write that raised it), read from its JSON text with
// json_text::top_level_members rather than parsed into a tree: the feeder reads every event of a
// busy project, and only these few members of each. `data` stays raw text, copied into each
// message as it is.
// Pure; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace opbase::webhooks {

struct KeptEvent {
  std::string key;   // the record's `_key`: what removes it from the journal
  std::string id;    // the event id, shared by the records of every plugin that keeps it
  std::string type;  // e.g. "document.created"
  int64_t time_ms = 0;
  std::string_view data;  // raw JSON text of the payload's data, a view into the read text

  // The event in `text`, or nullopt when `text` is not an object with a string `_key`. A record
  // that has its key but lacks another member, or holds one of another type, reads with that
  // member empty (zero, "{}" for data): it is still removed, and makes no message.
  static std::optional<KeptEvent> read(std::string_view text);
  // Whether every member a message is made from was there.
  bool complete() const { return !id.empty() && !type.empty(); }
};

}  // namespace opbase::webhooks
