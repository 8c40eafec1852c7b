// Outbox: the messages a project's endpoints are owed, in the project's store (collection
// "messages"), made from the events the store kept for this plugin (store::kEventsCollection,
// written in the transaction of the write that raised them). So an event of an acknowledged
// write becomes a message even if the daemon dies at any point:
//  - fan_out turns each kept event into one message per endpoint that takes its type. A
//    message's id is derived from the event id and the endpoint, so doing it twice (a crash
//    before the event was removed, two daemons at once) makes no second message;
//  - for an endpoint that is behind (every delivery thread it may hold is busy with it), the
//    messages of one fan_out go into one bundle (outbox/bundle.hpp) rather than one document each;
//    claim unpacks the oldest bundle when the queue has no more due, list all before it reads;
//  - each endpoint has its own queue, so one that responds slowly never holds back another's;
//  - claim takes a due message of one endpoint with a lease: a conditional update that only one
//    caller wins, and that expires if its daemon dies mid-attempt;
//  - finish records the attempt (time, status code, latency, error) and moves the message to
//    delivered, failed, or its next try (delivery/retry_schedule.hpp);
//  - archive_ended moves ended messages to the store's "archived" state, in batches: claims
//    then look at the active ones only, the pending ones, rather than at days of history, and
//    retention (expire) purges the archived.
// The message id is the Webhook-Id, the same on every attempt; the body is made from the same
// stored values each time (payload_of), so every attempt sends the same bytes.
// Thread-safety: every method may be called from any thread (DocumentStore calls).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "endpoints/endpoints.hpp"
#include "opbase/document_store.hpp"
#include "opbase/status.hpp"
#include "outbox/bundle.hpp"
#include "outbox/outbox_documents.hpp"

namespace opbase::webhooks {

struct Message {
  std::string id;  // "msg_" + 32 hex digits
  std::string endpoint;
  std::string type;
  std::string body;
  int attempts_made = 0;
  int64_t lease_until_ms = 0;
  int64_t event_ms = 0;  // when the event happened
  static Message from_document(const nlohmann::json& doc);
};

struct AttemptResult {
  int64_t time_ms = 0;  // when the attempt started
  int status = 0;       // HTTP status; 0 when no answer came
  int64_t latency_ms = 0;
  std::string error;   // empty on a 2xx
  bool final = false;  // no later attempt can succeed (the endpoint was deleted): no retry
  bool delivered() const { return status >= 200 && status < 300; }
};

class Outbox {
 public:
  Outbox(const DocumentStore& store, std::vector<int64_t> retry_delays_ms)
      : store_(store), retry_delays_ms_(std::move(retry_delays_ms)) {}

  // What one fan_out did: events handled (removed from the journal), messages made (bundled
  // ones too, and of those how many are in bundles), and the endpoints that got them.
  struct FanOut {
    int events = 0;
    int messages = 0;
    int bundled = 0;
    std::vector<std::string> endpoints{};
  };
  using EndpointSource = std::function<Result<std::vector<Endpoint>>()>;
  // Whether an endpoint (by id) is behind: its messages of this fan_out then go in a bundle.
  using BehindTest = std::function<bool(const std::string&)>;
  // Turns up to `limit` kept events, oldest first, into messages for the endpoints `endpoints`
  // returns. It is asked after the events are read, so an endpoint made before an event was
  // committed always gets it. events == limit: more may be waiting. Without `behind`, no
  // endpoint is.
  Result<FanOut> fan_out(std::string_view project, const EndpointSource& endpoints, int64_t now_ms,
                         int limit = 100, const BehindTest& behind = {}) const;
  // Whether `endpoint` has messages in bundles still.
  Result<bool> has_bundles(std::string_view project, std::string_view endpoint) const;
  // Up to `limit` messages of `endpoint` due now, each leased to `owner` until now + lease_ms.
  // When the queue has no more due, the endpoint's oldest bundles are unpacked into it (a few
  // at most per call).
  Result<std::vector<Message>> claim(std::string_view project, std::string_view endpoint,
                                     std::string_view owner, int64_t now_ms, int64_t lease_ms,
                                     int limit) const;
  // Records the attempt on a message `owner` holds; returns the message's new state
  // ("delivered", "pending" for a retry, "failed").
  Result<std::string> finish(std::string_view project, const Message& message,
                             std::string_view owner, const AttemptResult& attempt,
                             double unit_random) const;

  // A page of messages, optionally of one endpoint and/or in one state, with the number of all
  // that match: the active ones (pending, in flight) newest first, then the ended ones newest
  // first. Messages still in bundles are listed as the pending messages they will become, read
  // where they are: a list never writes (unpacking is the delivery side's, in claim).
  struct Page {
    std::vector<nlohmann::json> messages;
    int64_t total = 0;
  };
  Result<Page> list(std::string_view project, const std::optional<std::string>& endpoint,
                    const std::optional<std::string>& state, int64_t limit, int64_t offset) const;
  // Makes a message due now again, whatever its state (a manual re-send). Its attempts so far
  // are kept, and it keeps its Webhook-Id. Returns "resent", "missing", or "in_flight" for a
  // message an attempt holds right now (resent then, it could be sent twice at once).
  Result<std::string> resend(std::string_view project, std::string_view id, int64_t now_ms) const;

  // Archives up to `limit` ended (delivered, failed) messages of `endpoint`. full: there may be
  // more.
  struct Archived {
    int messages = 0;
    bool full = false;
  };
  Result<Archived> archive_ended(std::string_view project, std::string_view endpoint,
                                 int64_t now_ms, int limit = 500) const;
  // Removes for good the messages archived before `before_ms`, and the endpoints deleted before
  // then; returns how many (webhooks.retention).
  Result<int64_t> expire(std::string_view project, int64_t before_ms) const;

  // The delivery payload of a message document: {"type", "timestamp" (the event's time, ISO
  // 8601 UTC with milliseconds), "data"} (docs/api.md#deliveries). Printed, it is the body: made
  // from the stored type, time and data at each attempt rather than kept as text, because the
  // same values always print as the same bytes (keys in order) and an escaped copy of the body
  // in every message doubled the JSON each event cost on its way into the store.
  static nlohmann::json payload_of(const nlohmann::json& message);

 private:
  // One restore-then-due pass of resend; "archived" when the message was archived meanwhile.
  Result<std::string> try_resend(std::string_view project, std::string_view id,
                                 int64_t now_ms) const;
  // Messages made: in all, and of those in bundles.
  struct Made {
    int messages = 0;
    int bundled = 0;
    void add(int in_bundle) {  // one document: a message (0), or a bundle of that many
      messages += in_bundle > 0 ? in_bundle : 1;
      bundled += in_bundle;
    }
  };
  Result<Made> insert_messages(std::string_view project, store::InsertTextRequest batch,
                               std::vector<int> weights) const;
  Result<Made> insert_one_by_one(std::string_view project, const store::InsertTextRequest& batch,
                                 const std::vector<int>& weights) const;
  Result<std::set<std::string>> present_keys(std::string_view project,
                                             const std::vector<std::string>& texts) const;
  Status remove_events(std::string_view project, const std::vector<std::string>& keys,
                       int64_t now_ms) const;
  Status remove_for_good(std::string_view project, std::string_view collection,
                         const std::vector<std::string>& keys, std::string_view ref,
                         int64_t now_ms) const;
  Result<std::optional<Message>> take(std::string_view project, std::string_view endpoint,
                                      const nlohmann::json& doc, std::string_view owner,
                                      int64_t now_ms, int64_t lease_ms) const;
  // outbox/outbox_bundles.cpp. unpack_oldest_bundle: false when the endpoint has none.
  Result<bool> unpack_oldest_bundle(std::string_view project, std::string_view endpoint,
                                    int64_t now_ms) const;
  // The messages the bundles of `endpoint` (of every endpoint: nullopt) will become, read where
  // they are, newest first (the list's order); empty when `state` leaves them out. A bundle that
  // does not read is skipped: the delivery side sets it aside when it meets it.
  Result<std::vector<nlohmann::json>> bundled_messages(
      std::string_view project, const std::optional<std::string>& endpoint,
      const std::optional<std::string>& state) const;
  Status unpack_or_set_aside(std::string_view project, const nlohmann::json& doc,
                             int64_t now_ms) const;
  Status unpack(std::string_view project, const Bundle& bundle, int64_t now_ms) const;

  // How many more messages than asked for a claim reads: those other workers win meanwhile.
  static constexpr int kClaimSlack = 8;
  // Bundles a claim unpacks at most: a claim that comes up short because others won the
  // messages of the one it unpacked may go on to the next, but never through a whole backlog.
  static constexpr int kMaxUnpacksPerClaim = 2;

  const DocumentStore& store_;
  std::vector<int64_t> retry_delays_ms_;
};

}  // namespace opbase::webhooks
