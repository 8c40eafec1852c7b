// The outbox's bundles (outbox/bundle.hpp): how they are found, unpacked into their endpoint's
// queue, and set aside when one cannot be read.
#include <algorithm>

#include "outbox/bundle.hpp"
#include "outbox/outbox.hpp"
#include "outbox/outbox_documents.hpp"

namespace opbase::webhooks {

using nlohmann::json;

Result<bool> Outbox::has_bundles(std::string_view project, std::string_view endpoint) const {
  store::CountRequest count{
      std::string(kMessagesCollection), bundles_scope(endpoint), store::State::kActive, {}};
  auto found = store_.count(project, count);
  if (!found) return found.status();
  return *found > 0;
}

Result<bool> Outbox::unpack_oldest_bundle(std::string_view project, std::string_view endpoint,
                                          int64_t now_ms) const {
  auto found = store_.find(project, messages_in_order(bundles_scope(endpoint), "asc", 1));
  if (!found) return found.status();
  if (found->documents.empty()) return false;
  const Status unpacked = unpack_or_set_aside(project, found->documents[0], now_ms);
  if (!unpacked) return unpacked;
  return true;
}

Result<std::vector<json>> Outbox::bundled_messages(std::string_view project,
                                                   const std::optional<std::string>& endpoint,
                                                   const std::optional<std::string>& state) const {
  std::vector<json> out;
  if (state && *state != "pending") return out;
  store::FindRequest find;
  find.collection = std::string(kMessagesCollection);
  find.scope = endpoint ? bundles_scope(*endpoint) : store::Scope::everyone();
  find.match = match_of({{"state", kBundledState}});
  find.limit = -1;
  auto found = store_.find(project, find);
  if (!found) return found.status();
  for (const json& doc : found->documents) {
    const auto bundle = Bundle::from_document(doc);
    if (!bundle) continue;
    for (const Bundle::Event& event : bundle->events) {
      out.push_back(json::parse(message_text({event.id, event.type, event.time_ms, event.data},
                                             bundle->endpoint, bundle->due_ms)));
    }
  }
  const auto order = sort_of(kListOrder);
  std::sort(out.begin(), out.end(),
            [&](const json& a, const json& b) { return query::compare_for_sort(a, b, order) < 0; });
  return out;
}

// A bundle that does not read (never written so by this plugin) is archived, kept for a look
// until the retention: left where it was, it would stay first in line and hold up the others.
Status Outbox::unpack_or_set_aside(std::string_view project, const json& doc,
                                   int64_t now_ms) const {
  if (const auto bundle = Bundle::from_document(doc)) return unpack(project, *bundle, now_ms);
  store::StateRequest aside{std::string(kMessagesCollection),
                            store::Scope::everyone(),
                            match_of({{"_key", doc.value("_key", "")}}),
                            store::State::kActive,
                            store::State::kArchived,
                            "unreadable-bundle",
                            now_ms};
  auto moved = store_.change_state(project, aside);
  if (!moved) return moved.status();
  // Nothing moved would leave it first in line, and every claim meeting it again.
  if (moved->keys.empty()) return Status::internal("webhooks: a bundle could not be set aside");
  return Status::ok();
}

// The bundle's messages into the queue in its place (due from its time, so they keep its place in
// the claim order), then the bundle out. A crash between the two leaves the bundle to be
// unpacked again, and its messages, there already, are not made twice.
Status Outbox::unpack(std::string_view project, const Bundle& bundle, int64_t now_ms) const {
  store::InsertTextRequest messages{std::string(kMessagesCollection), {}};
  for (const Bundle::Event& event : bundle.events) {
    messages.documents.push_back(message_text({event.id, event.type, event.time_ms, event.data},
                                              bundle.endpoint, bundle.due_ms));
  }
  if (auto made = insert_messages(project, std::move(messages), {}); !made) return made.status();
  return remove_for_good(project, kMessagesCollection, {bundle.key}, "unpacked", now_ms);
}

}  // namespace opbase::webhooks
