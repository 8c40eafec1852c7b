#include "outbox/outbox.hpp"

#include <algorithm>
#include <set>

#include "delivery/retry_schedule.hpp"
#include "opbase/iso_time.hpp"
#include "opbase/json_text.hpp"
#include "outbox/bundle.hpp"
#include "outbox/derived_id.hpp"
#include "outbox/kept_event.hpp"
#include "outbox/outbox_documents.hpp"

namespace opbase::webhooks {
namespace {

using nlohmann::json;

// The `_created_at` of an ended message until it is archived: after every claimable time.
constexpr std::string_view kEndedOrder = "9999-12-31T23:59:59.999Z";

// The `_key` of a document the outbox printed.
std::string key_of(std::string_view text) {
  const auto raw = json_text::top_level_member(text, "_key");
  return raw ? json_text::string_value(*raw).value_or("") : "";
}

}  // namespace

Message Message::from_document(const json& doc) {
  Message m;
  m.id = doc.value("_key", "");
  m.endpoint = doc.value("endpoint", "");
  m.type = doc.value("type", "");
  m.body = Outbox::payload_of(doc).dump();
  m.attempts_made = doc.value("attempts_made", 0);
  m.lease_until_ms = doc.value("lease_until_ms", int64_t{0});
  m.event_ms = doc.value("event_ms", int64_t{0});
  return m;
}

json Outbox::payload_of(const json& message) {
  return {{"type", message.value("type", "")},
          {"timestamp", iso_time(message.value("event_ms", int64_t{0}))},
          {"data", message.value("data", json::object())}};
}

Result<Outbox::FanOut> Outbox::fan_out(std::string_view project, const EndpointSource& endpoints,
                                       int64_t now_ms, int limit, const BehindTest& behind) const {
  store::FindRequest find;
  find.collection = std::string(store::kEventsCollection);
  find.scope = store::Scope::everyone();
  find.sort = sort_of("_created_at asc");
  find.limit = limit;
  // As text: each event is read for a few members, and its data copied into messages as it is.
  auto page = store_.find_text(project, find);
  if (!page) return page.status();
  const auto events = json_text::array_items(page->documents);
  if (!events) return Status::internal("outbox: the store's events are not a JSON array");
  if (events->empty()) return FanOut{};
  auto targets = endpoints();
  if (!targets) return targets.status();
  std::vector<bool> bundled(targets->size(), false);
  for (size_t i = 0; behind && i < targets->size(); ++i) bundled[i] = behind((*targets)[i].id);
  std::vector<BundleWriter> bundles(targets->size());
  store::InsertTextRequest messages{std::string(kMessagesCollection), {}};
  std::vector<std::string> handled;
  std::vector<bool> served(targets->size(), false);
  for (const std::string_view text : *events) {
    std::optional<KeptEvent> event = KeptEvent::read(text);
    if (!event) continue;  // no key, so it cannot be removed either; never written by the host
    for (size_t i = 0; event->complete() && i < targets->size(); ++i) {
      const Endpoint& target = (*targets)[i];
      if (!target.wants(event->type)) continue;
      served[i] = true;
      if (bundled[i]) {
        bundles[i].add(*event);
      } else {
        messages.documents.push_back(
            message_text({event->id, event->type, event->time_ms, event->data}, target.id, now_ms));
      }
    }
    handled.push_back(std::move(event->key));
  }
  std::vector<int> weights(messages.documents.size(), 0);
  for (size_t i = 0; i < targets->size(); ++i) {
    if (bundles[i].size() == 0) continue;
    const std::string& id = (*targets)[i].id;
    messages.documents.push_back(bundles[i].document(id, bundles_owner(id), now_ms));
    weights.push_back(bundles[i].size());
  }
  // The events stay kept until their messages are: a failure here fans them out again later.
  auto made = insert_messages(project, std::move(messages), weights);
  if (!made) return made.status();
  if (Status s = remove_events(project, handled, now_ms); !s) return s;
  FanOut done{static_cast<int>(events->size()), made->messages, made->bundled};
  for (size_t i = 0; i < targets->size(); ++i) {
    if (served[i]) done.endpoints.push_back((*targets)[i].id);
  }
  return done;
}

// One write for the batch; returns how many messages were new (weights[i]: how many a bundle
// documents[i] holds; 0 or missing for a message). A document that exists already (its events
// were fanned out before a crash removed them, or by another daemon at once; a bundle unpacked
// twice) fails the batch as a whole: then the ones there are left out, and the rest written at
// once (one by one only if that meets another, made meanwhile).
Result<Outbox::Made> Outbox::insert_messages(std::string_view project,
                                             store::InsertTextRequest batch,
                                             std::vector<int> weights) const {
  weights.resize(batch.documents.size(), 0);
  Status inserted = store_.insert_texts(project, batch);
  if (inserted.code() == store::kDuplicateKey) {
    auto present = present_keys(project, batch.documents);
    if (!present) return present.status();
    size_t kept = 0;
    for (size_t i = 0; i < batch.documents.size(); ++i) {
      if (present->contains(key_of(batch.documents[i]))) continue;
      batch.documents[kept] = std::move(batch.documents[i]);
      weights[kept++] = weights[i];
    }
    batch.documents.resize(kept);
    weights.resize(kept);
    inserted = batch.documents.empty() ? Status::ok() : store_.insert_texts(project, batch);
    if (inserted.code() == store::kDuplicateKey) return insert_one_by_one(project, batch, weights);
  }
  if (!inserted) return inserted;
  Made made;
  for (const int bundled : weights) made.add(bundled);
  return made;
}

Result<Outbox::Made> Outbox::insert_one_by_one(std::string_view project,
                                               const store::InsertTextRequest& batch,
                                               const std::vector<int>& weights) const {
  Made made;
  for (size_t i = 0; i < batch.documents.size(); ++i) {
    const Status one =
        store_.insert_texts(project, {std::string(kMessagesCollection), {batch.documents[i]}});
    if (one) {
      made.add(weights[i]);
    } else if (one.code() != store::kDuplicateKey) {
      return one;
    }
  }
  return made;
}

// Which of `texts`' keys the store holds, active or archived (a key stays taken in every state).
Result<std::set<std::string>> Outbox::present_keys(std::string_view project,
                                                   const std::vector<std::string>& texts) const {
  json keys = json::array();
  for (const std::string& text : texts) keys.push_back(key_of(text));
  std::set<std::string> present;
  for (store::State kept : {store::State::kActive, store::State::kArchived}) {
    store::FindRequest find;
    find.collection = std::string(kMessagesCollection);
    find.scope = store::Scope::everyone();
    find.state = kept;
    find.match = match_of({{"_key:$in", keys}});
    find.limit = static_cast<int64_t>(texts.size());
    auto found = store_.find(project, find);
    if (!found) return found.status();
    for (const json& doc : found->documents) present.insert(doc.value("_key", ""));
  }
  return present;
}

Status Outbox::remove_events(std::string_view project, const std::vector<std::string>& keys,
                             int64_t now_ms) const {
  return remove_for_good(project, store::kEventsCollection, keys, "fanned-out", now_ms);
}

// Handled events and unpacked bundles are not kept: removed for good at once (the purge takes
// only what is deleted, and messages are never deleted).
Status Outbox::remove_for_good(std::string_view project, std::string_view collection,
                               const std::vector<std::string>& keys, std::string_view ref,
                               int64_t now_ms) const {
  if (keys.empty()) return Status::ok();
  store::StateRequest done{std::string(collection),
                           store::Scope::everyone(),
                           match_of({{"_key:$in", keys}}),
                           store::State::kActive,
                           store::State::kDeleted,
                           std::string(ref),
                           now_ms};
  auto moved = store_.change_state(project, done);
  if (!moved) return moved.status();
  auto purged = store_.purge(project, {store::State::kDeleted, now_ms + 1});
  return purged ? Status::ok() : purged.status();
}

Result<std::vector<Message>> Outbox::claim(std::string_view project, std::string_view endpoint,
                                           std::string_view owner, int64_t now_ms, int64_t lease_ms,
                                           int limit) const {
  // The first messages in claim order, a few more than wanted: other workers race for the same.
  // No condition, so the store reads exactly these from its index (a condition would make it
  // walk on past every message that fails it).
  const store::FindRequest find =
      messages_in_order(queue_scope(endpoint), "asc", limit + kClaimSlack);
  std::vector<Message> claimed;
  for (int unpacked = 0;; ++unpacked) {
    auto first = store_.find(project, find);
    if (!first) return first.status();
    for (const json& doc : first->documents) {
      if (static_cast<int>(claimed.size()) == limit) break;
      auto taken = take(project, endpoint, doc, owner, now_ms, lease_ms);
      if (!taken) return taken.status();
      if (*taken) claimed.push_back(std::move(**taken));
    }
    // Nothing more due in the queue: the oldest bundle's messages are next.
    if (static_cast<int>(claimed.size()) == limit || unpacked == kMaxUnpacksPerClaim) break;
    const Result<bool> unpacked_one = unpack_oldest_bundle(project, endpoint, now_ms);
    if (unpacked_one && !*unpacked_one) break;  // none
    if (!unpacked_one) {
      // Messages taken already are leased to the caller, to deliver: the failure waits for the
      // next claim.
      if (claimed.empty()) return unpacked_one.status();
      break;
    }
  }
  return claimed;
}

// `doc`, read in the queue, leased to `owner` if it is due and no one else took it meanwhile.
Result<std::optional<Message>> Outbox::take(std::string_view project, std::string_view endpoint,
                                            const json& doc, std::string_view owner, int64_t now_ms,
                                            int64_t lease_ms) const {
  const Message seen = Message::from_document(doc);
  if (doc.value("state", "") != "pending" || doc.value("next_ms", int64_t{0}) > now_ms ||
      seen.lease_until_ms > now_ms) {
    return std::optional<Message>();
  }
  // Only the caller whose update still finds the message as it was read wins it.
  store::UpdateRequest take{std::string(kMessagesCollection), queue_scope(endpoint), {}};
  store::Change lease;
  lease.set = {{"lease_until_ms", now_ms + lease_ms},
               {"lease_owner", owner},
               {"_created_at", iso_time(now_ms + lease_ms)}};
  take.steps.push_back({match_of({{"_key", seen.id},
                                  {"state", "pending"},
                                  {"attempts_made", seen.attempts_made},
                                  {"lease_until_ms", seen.lease_until_ms}}),
                        std::move(lease)});
  auto taken = store_.update(project, take);
  if (!taken) return taken.status();
  if (taken->documents.empty()) return std::optional<Message>();
  return std::optional<Message>(Message::from_document(taken->documents[0]));
}

Result<std::string> Outbox::finish(std::string_view project, const Message& message,
                                   std::string_view owner, const AttemptResult& attempt,
                                   double unit_random) const {
  const int made = message.attempts_made + 1;
  std::string state = "delivered";
  store::Change change;
  change.set = {{"attempts_made", made},
                {"attempts." + std::to_string(made),
                 {{"time_ms", attempt.time_ms},
                  {"status", attempt.status},
                  {"latency_ms", attempt.latency_ms},
                  {"error", attempt.error}}},
                {"lease_until_ms", 0},
                {"lease_owner", ""}};
  if (!attempt.delivered()) {
    const auto delay =
        attempt.final ? std::nullopt : retry_delay_ms(retry_delays_ms_, made, unit_random);
    state = delay ? "pending" : "failed";
    if (delay) {
      const int64_t next_ms = attempt.time_ms + attempt.latency_ms + *delay;
      change.set["next_ms"] = next_ms;
      change.set["_created_at"] = iso_time(next_ms);
    }
  }
  change.set["state"] = state;
  if (state != "pending") {
    change.set["finished_ms"] = attempt.time_ms + attempt.latency_ms;
    // To the back of the claim order, where archive_ended finds it and claims never look.
    change.set["_created_at"] = kEndedOrder;
  }
  store::UpdateRequest update{std::string(kMessagesCollection), queue_scope(message.endpoint), {}};
  update.steps.push_back({match_of({{"_key", message.id},
                                    {"lease_owner", owner},
                                    {"attempts_made", message.attempts_made}}),
                          std::move(change)});
  auto updated = store_.update(project, update);
  if (!updated) return updated.status();
  if (updated->documents.empty()) {
    // The lease ran out and another daemon took the message: its attempt counts, not ours.
    return std::string("taken over");
  }
  return state;
}

Result<Outbox::Archived> Outbox::archive_ended(std::string_view project, std::string_view endpoint,
                                               int64_t now_ms, int limit) const {
  // Ended messages are last in claim order (finish moved them there): read the back. The very
  // last one first: when it has not ended, none has, and the pending ones are not read.
  store::FindRequest back = messages_in_order(queue_scope(endpoint), "desc", 1);
  auto last = store_.find(project, back);
  if (!last) return last.status();
  if (last->documents.empty() || last->documents[0].value("_created_at", "") != kEndedOrder) {
    return Archived{};
  }
  back.limit = limit;
  auto found = store_.find(project, back);
  if (!found) return found.status();
  std::vector<std::string> ended;
  for (const json& doc : found->documents) {
    const std::string state = doc.value("state", "");
    if (state == "delivered" || state == "failed") ended.push_back(doc.value("_key", ""));
  }
  if (ended.empty()) return Archived{};
  store::StateRequest out{std::string(kMessagesCollection),
                          queue_scope(endpoint),
                          match_of({{"_key:$in", ended}, {"state:$in", {"delivered", "failed"}}}),
                          store::State::kActive,
                          store::State::kArchived,
                          "ended",
                          now_ms};
  auto moved = store_.change_state(project, out);
  if (!moved) return moved.status();
  return Archived{static_cast<int>(moved->keys.size()), static_cast<int>(ended.size()) == limit};
}

namespace {

// Entries [skip, skip + want) of the stored messages (the first skip + want of them, in the list's
// order) merged with the bundled ones (all of them, in the same order).
std::vector<json> merged_page(std::vector<json> stored, const std::vector<json>& bundled,
                              int64_t skip, int64_t want) {
  const auto order = sort_of(kListOrder);
  std::vector<json> merged;
  merged.reserve(stored.size() + bundled.size());
  std::merge(
      std::make_move_iterator(stored.begin()), std::make_move_iterator(stored.end()),
      bundled.begin(), bundled.end(), std::back_inserter(merged),
      [&](const json& a, const json& b) { return query::compare_for_sort(a, b, order) < 0; });
  const auto size = static_cast<int64_t>(merged.size());
  const int64_t begin = std::min(skip, size);
  const int64_t end = std::min(size, begin + want);
  return {std::make_move_iterator(merged.begin() + begin),
          std::make_move_iterator(merged.begin() + end)};
}

}  // namespace

Result<Outbox::Page> Outbox::list(std::string_view project,
                                  const std::optional<std::string>& endpoint,
                                  const std::optional<std::string>& state, int64_t limit,
                                  int64_t offset) const {
  auto bundled = bundled_messages(project, endpoint, state);
  if (!bundled) return bundled.status();
  json match = json::object();
  if (endpoint) match["endpoint"] = *endpoint;
  if (state) match["state"] = *state;
  // The messages still active (pending, or ended a moment ago) with the bundled ones among them,
  // then the archived ones: one page over the two, each newest first.
  Page page;
  for (store::State kept : {store::State::kActive, store::State::kArchived}) {
    const bool active = kept == store::State::kActive;
    const int64_t skip = std::max<int64_t>(0, offset - page.total);
    const int64_t want = std::max<int64_t>(0, limit - static_cast<int64_t>(page.messages.size()));
    store::FindRequest find;
    find.collection = std::string(kMessagesCollection);
    find.scope = store::Scope::everyone();
    find.state = kept;
    // Bundles were read above. Only active ones can be here: the archived pass keeps its plain
    // match (without a state, a count of the store's index).
    json kept_match = match;
    if (active && !state) kept_match["state:$ne"] = kBundledState;
    find.match = match_of(kept_match);
    find.sort = sort_of(kListOrder);
    // With bundled messages to interleave, the stored ones are read from the start of the order.
    const bool merge = active && !bundled->empty();
    find.limit = merge ? skip + want : want;
    find.offset = merge ? 0 : skip;
    find.with_total = true;
    auto found = store_.find(project, find);
    if (!found) return found.status();
    std::vector<json> messages = std::move(found->documents);
    int64_t total = found->total;
    if (merge) {
      messages = merged_page(std::move(messages), *bundled, skip, want);
      total += static_cast<int64_t>(bundled->size());
    }
    for (json& doc : messages) page.messages.push_back(std::move(doc));
    page.total += total;
  }
  return page;
}

Result<int64_t> Outbox::expire(std::string_view project, int64_t before_ms) const {
  // The namespace's archived documents are ended messages and deleted endpoints: both go.
  return store_.purge(project, {store::State::kArchived, before_ms});
}

Result<std::string> Outbox::resend(std::string_view project, std::string_view id,
                                   int64_t now_ms) const {
  // Back from the archive first, then due again. A worker can archive the ended message between
  // the two steps (it ends on one daemon while an administrator resends it through another):
  // then the message is found archived again and the two steps run once more.
  constexpr int kTries = 3;
  for (int tried = 0; tried < kTries; ++tried) {
    auto outcome = try_resend(project, id, now_ms);
    if (!outcome || *outcome != "archived") return outcome;
  }
  return std::string("in_flight");
}

Result<std::string> Outbox::try_resend(std::string_view project, std::string_view id,
                                       int64_t now_ms) const {
  store::StateRequest back{std::string(kMessagesCollection),
                           store::Scope::everyone(),
                           match_of({{"_key", id}}),
                           store::State::kArchived,
                           store::State::kActive,
                           "resent",
                           now_ms};
  if (auto restored = store_.change_state(project, back); !restored) return restored.status();
  store::Change change;
  change.set = {{"state", "pending"},
                {"next_ms", now_ms},
                {"lease_until_ms", 0},
                {"lease_owner", ""},
                {"_created_at", iso_time(now_ms)}};
  store::UpdateRequest update{std::string(kMessagesCollection), store::Scope::everyone(), {}};
  update.steps.push_back(
      {match_of({{"_key", id}, {"state:$ne", kBundledState}, {"lease_until_ms:$lte", now_ms}}),
       std::move(change)});
  auto updated = store_.update(project, update);
  if (!updated) return updated.status();
  if (!updated->documents.empty()) return std::string("resent");
  for (store::State state : {store::State::kActive, store::State::kArchived}) {
    store::CountRequest count{std::string(kMessagesCollection), store::Scope::everyone(), state,
                              match_of({{"_key", id}, {"state:$ne", kBundledState}})};
    auto exists = store_.count(project, count);
    if (!exists) return exists.status();
    if (*exists > 0) return std::string(state == store::State::kActive ? "in_flight" : "archived");
  }
  return std::string("missing");
}

}  // namespace opbase::webhooks
