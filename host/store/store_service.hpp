// The host services `store.*`: how a plugin reaches its project's DocumentStore through the ABI's
// call_service. The namespace is the calling plugin's name, given by the
// host, so a plugin cannot address another plugin's collections.
// Thread-safety: stateless; safe from any thread.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <span>
#include <string_view>

#include "events/durable_subscriptions.hpp"
#include "events/event_bus.hpp"
#include "opbase/status.hpp"
#include "store/project_store.hpp"

namespace opbase::host {

inline constexpr std::string_view kStoreServicePrefix = "store.";

bool is_store_service(std::string_view name);

// Where the events of a write (store.hpp Events) go: journaled for the durable subscribers in
// the write's transaction, then published on the bus once it is durable.
struct StoreEventSink {
  std::string project_id;
  const DurableSubscriptions* durable = nullptr;  // nullptr: nobody keeps events
  std::function<void(const BusEvent&)> publish;   // the daemon's: EventBus::publish
  int64_t now_ms = 0;
};

// One store service: store.<name>, whether it writes (and so may raise events), and how it runs
// (call_store_service below says what `run` takes and answers).
struct StoreVerb {
  std::string_view name;
  bool writes;
  Result<std::string> (*run)(ProjectStore& store, std::string_view ns, std::string_view input,
                             const StoreEventSink* events);
};

// Every store service, the one list the host registers them from.
std::span<const StoreVerb> store_verbs();

// Runs one store service on `store` in the namespace `ns`: `input` is the request's JSON text
// (the SDK's store.hpp; docs/plugin-guide.md#the-document-store-store) and the result is the text
// the SDK client (document_store.hpp) reads. store.insert's documents are checked but not parsed
// (insert_text.hpp), and store.find's result is the driver's text: on a driver that keeps
// documents as text, neither is parsed here. An unknown store service is INTERNAL_ERROR naming
// it. Without a sink, the events a write asks for are not raised (tests of the store alone).
Result<std::string> call_store_service(ProjectStore& store, std::string_view ns,
                                       std::string_view service, std::string_view input,
                                       const StoreEventSink* events = nullptr);

}  // namespace opbase::host
