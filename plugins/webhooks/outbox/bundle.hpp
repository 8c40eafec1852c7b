// Bundle: the messages one fan-out makes for an endpoint that is behind, kept as one document
// beside the endpoint's queue rather than one each in it, until a delivery thread finds nothing
// more due in the queue and unpacks the oldest bundle into it (Outbox::claim).
//
// Why: an endpoint is behind while every delivery thread it may hold is busy with it (a
// receiver that responds slowly). Each message it is owed then waits anyway, and a message row
// per event was the one cost such a receiver added to the writes that raised the events: one
// more row in the store's single writer for every event. A bundle is one row per fan-out
// (up to Outbox's batch of events), unpacked at the pace the receiver takes its messages.
//
// A bundle holds, per event, what a message is made from (event id, type, time, data), so the
// messages unpacked are exactly those fan_out would have made: the same ids (derived from event
// and endpoint), due from the bundle's time. Its key is a digest of its events and endpoint, so
// a fan-out done again after a crash makes no second bundle, and unpacking twice (a crash
// between inserting the messages and removing the bundle, two daemons at once) makes no second
// message.
// Pure; thread-safe.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "outbox/kept_event.hpp"

namespace opbase::webhooks {

// The `state` of a bundle document, beside the messages' pending, delivered and failed.
inline constexpr std::string_view kBundledState = "bundled";

// A bundle printed straight into text as the feeder adds its events (as messages are: no tree is
// built only to be printed).
class BundleWriter {
 public:
  void add(const KeptEvent& event);
  int size() const { return count_; }
  // The bundle's document for `endpoint`, kept under `owner`, its messages due from `now_ms`.
  std::string document(std::string_view endpoint, std::string_view owner, int64_t now_ms) const;

 private:
  std::string events_;  // the "events" array's elements, comma-separated
  int count_ = 0;
  int64_t first_ms_ = 0;
};

// A bundle read back from its document, for unpacking.
struct Bundle {
  struct Event {
    std::string id;
    std::string type;
    int64_t time_ms = 0;
    std::string data;  // the payload's data, as JSON text
  };
  std::string key;
  std::string endpoint;
  int64_t due_ms = 0;  // its messages are due from then
  std::vector<Event> events;

  static bool is_bundle(const nlohmann::json& doc);
  // nullopt when `doc` is not a well-formed bundle.
  static std::optional<Bundle> from_document(const nlohmann::json& doc);
};

}  // namespace opbase::webhooks
