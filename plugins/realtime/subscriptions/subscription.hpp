// Subscription: one live query of a client (realtime.subscribe): a collection, the conditions a
// document must meet (`match` and `filter`, the datastore's query language), what of it to send
// (`project`, or its key alone), and the store scope of the documents the subscriber may read,
// as the collection's rules and the documents' sharing lists say (collection.read_access). judge()
// decides what one event of the journal means to it, from the document as the write left it and
// as it was before: so who receives what follows the rules exactly as collection.find would at
// that moment, sharing changes included (docs/api.md#realtime).
// Thread-safety: a plain value; judge() is pure.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "journal/journal_event.hpp"
#include "opbase/query.hpp"
#include "opbase/store.hpp"

namespace opbase::realtime {

struct Subscription {
  std::string id;  // "rts_..."
  std::string collection;
  query::Match match;  // `match` and `filter` together
  query::Projection projection;
  bool projects = false;  // `project` was given
  bool keys_only = false;
  // The documents the subscriber may read; nullopt: none (the rules grant them nothing).
  std::optional<store::Scope> scope;
  int64_t scope_checked_ms = 0;
  // What collection.read_access is asked, again when the scope is old (rules change).
  nlohmann::json access_request;
};

// The subscription a record of the store holds (subscription_store.hpp; made by
// realtime.subscribe, whose checks it passed): {"_key", "collection", "match", "filter",
// "project", "keys_only", "scope", "access"}. Its scope is trusted until `now_ms` plus the
// refresh time.
Result<Subscription> subscription_from_record(const nlohmann::json& record, int64_t now_ms);

// What a subscription sends for one event.
struct Delivery {
  std::string_view event;  // "created", "updated", "enter", "leave", "deleted", ...
  nlohmann::json data;     // {"subscription_id", "collection", "_key", "document"}
};

// What `event` means to `subscription`: nothing when the subscriber may see the document neither
// before nor after (or it is in another collection). An update that makes a document start
// matching is `enter`, one that makes it stop `leave` (with the document as the subscriber last
// saw it).
std::optional<Delivery> judge(const Subscription& subscription, const JournalEvent& event);

}  // namespace opbase::realtime
