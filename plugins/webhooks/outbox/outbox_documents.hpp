// How the outbox lays out its documents in the store, shared by outbox/outbox.cpp (messages) and
// outbox/outbox_bundles.cpp (bundles): the owners that make each endpoint's queue and its bundles,
// the constant queries, and a message printed straight into text. Pure; thread-safe.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/query.hpp"
#include "opbase/store.hpp"

namespace opbase::webhooks {

inline constexpr std::string_view kMessagesCollection = "messages";

// A match or sort the outbox writes as a constant: a malformed one is a bug (std::logic_error).
query::Match match_of(const nlohmann::json& fields);
std::vector<query::SortKey> sort_of(std::string_view text);

// Each endpoint has a queue of its own: its messages are kept under the owner
// "webhooks-outbox/<endpoint id>", with `_created_at` holding the time the message can next be
// claimed (ISO 8601, so it sorts by time in every driver): due time, or the end of the lease
// that holds it. The store's index of (owner, state, `_created_at`) then lists an endpoint's
// active (pending) messages in the order claims take them, a claim reads the first few instead
// of scanning the backlog, and a slow endpoint's backlog is never in front of another's
// messages. Ended messages are archived out of that range.
std::string queue_owner(std::string_view endpoint);
store::Scope queue_scope(std::string_view endpoint);

// An endpoint's bundles wait beside its queue, under an owner of their own
// ("webhooks-bundles/<endpoint id>"): the reads of the queue (claims from its front, the archiver
// from its back) never load a bundle, many messages long, that they would only skip.
std::string bundles_owner(std::string_view endpoint);
store::Scope bundles_scope(std::string_view endpoint);

// The order of the messages list: newest first, ties by `_key` (the store's own default order,
// written out so the bundled messages merged into it follow the same).
inline constexpr std::string_view kListOrder = "_created_at desc, _key desc";

// A read of the messages collection's documents of `scope` in `_created_at` order ("asc" or
// "desc"; for a queue, the claim order), `limit` of them.
store::FindRequest messages_in_order(store::Scope scope, std::string_view direction, int64_t limit);

// What a message is made from: one event.
struct EventFields {
  std::string_view id;
  std::string_view type;
  int64_t time_ms = 0;
  std::string_view data;  // JSON text
};
// A new message of `event` for `endpoint`, due from `due_ms`, printed straight into text: the
// feeder writes one per event and endpoint, and a tree built only to be printed cost more than
// the rest of it.
std::string message_text(const EventFields& event, std::string_view endpoint, int64_t due_ms);

}  // namespace opbase::webhooks
