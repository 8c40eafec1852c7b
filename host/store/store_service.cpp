// The `store.*` host services (see store_service.hpp).
#include "store/store_service.hpp"

#include <optional>

namespace opbase::host {
namespace {

using nlohmann::json;

json keys_json(const store::KeysAnswer& answer) { return {{"keys", answer.keys}}; }

// Decodes with `decode`, runs `run`, shapes the answer with `shape`.
template <typename Decode, typename Run, typename Shape>
Result<json> serve(const json& input, Decode&& decode, Run&& run, Shape&& shape) {
  auto request = decode(input);
  if (!request) return request.status();
  auto answer = run(*request);
  if (!answer) return answer.status();
  return shape(*answer);
}

// The events of one write, or nothing when the request raises none or there is no sink.
std::optional<WriteEvents> events_for(const store::Events& spec, const StoreEventSink* sink) {
  if (spec.empty() || sink == nullptr) return std::nullopt;
  const DurableSubscriptions* durable = sink->durable;
  return WriteEvents(sink->project_id, spec,
                     durable ? durable->plugins_for(spec.on_insert) : std::vector<std::string>{},
                     durable ? durable->plugins_for(spec.on_change) : std::vector<std::string>{},
                     sink->now_ms);
}

// After a write returned ok, and so is durable: its events to the bus.
void publish_raised(const std::optional<WriteEvents>& events, const StoreEventSink* sink) {
  if (!events || !sink->publish) return;
  for (const RaisedEvent& e : events->raised()) {
    sink->publish(BusEvent{e.type, sink->project_id, e.payload, events->time_ms()});
  }
}

// A write: decoded with `decode`, run by `run(request, events)`, its events published once it
// returned ok, and its answer shaped by `shape`.
template <typename Decode, typename Run, typename Shape>
Result<json> serve_write(const json& input, const StoreEventSink* sink, Decode&& decode, Run&& run,
                         Shape&& shape) {
  auto request = decode(input);
  if (!request) return request.status();
  std::optional<WriteEvents> events = events_for(request->events, sink);
  auto answer = run(*request, events ? &*events : nullptr);
  if (!answer) return answer.status();
  publish_raised(events, sink);
  return shape(*answer);
}

// A find's answer as the text the service sends.
Result<std::string> find_text(ProjectStore& store, std::string_view ns, const json& input) {
  auto request = store::decode_find(input);
  if (!request) return request.status();
  return store.find_json(ns, *request);
}

}  // namespace

bool is_store_service(std::string_view name) { return name.starts_with(kStoreServicePrefix); }

Result<std::string> call_store_service_text(ProjectStore& store, std::string_view ns,
                                            std::string_view service, std::string_view input,
                                            const StoreEventSink* sink) {
  const std::string_view verb = service.substr(kStoreServicePrefix.size());
  if (verb == "insert") {
    auto request = decode_insert_text(input);
    if (!request) return request.status();
    std::optional<WriteEvents> events = events_for(request->events, sink);
    if (Status s = store.insert_texts(ns, *request, events ? &*events : nullptr); !s) return s;
    publish_raised(events, sink);
    return json{{"inserted", request->documents.size()}}.dump();
  }
  json parsed = json::parse(input, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    return not_a_json_object();
  }
  if (verb == "find") return find_text(store, ns, parsed);
  auto answer = call_store_service(store, ns, service, std::move(parsed), sink);
  if (!answer) return answer.status();
  return answer->dump();
}

Result<std::string> ProjectStore::find_json(std::string_view ns,
                                            const store::FindRequest& request) {
  auto answer = find(ns, request);
  if (!answer) return answer.status();
  std::vector<std::string> texts;
  texts.reserve(answer->documents.size());
  for (const json& doc : answer->documents) texts.push_back(doc.dump());
  return store::encode_find_answer(texts, answer->total);
}

Result<json> call_store_service(ProjectStore& store, std::string_view ns, std::string_view service,
                                json input, const StoreEventSink* sink) {
  const std::string_view verb = service.substr(kStoreServicePrefix.size());
  if (verb == "insert") {
    auto request = store::decode_insert(std::move(input));
    if (!request) return request.status();
    std::optional<WriteEvents> events = events_for(request->events, sink);
    if (Status s = store.insert(ns, *request, events ? &*events : nullptr); !s) return s;
    publish_raised(events, sink);
    return json{{"inserted", request->documents.size()}};
  }
  if (verb == "find") {
    // The same text the service sends (one layout of the find answer), parsed.
    auto text = find_text(store, ns, input);
    if (!text) return text.status();
    return json::parse(*text);
  }
  if (verb == "count") {
    return serve(
        input, store::decode_count, [&](const auto& r) { return store.count(ns, r); },
        [](int64_t n) {
          return json{{"count", n}};
        });
  }
  if (verb == "update") {
    return serve_write(
        input, sink, store::decode_update,
        [&](const auto& r, WriteEvents* events) { return store.update(ns, r, events); },
        [](const store::UpdateAnswer& a) {
          return json{{"documents", a.documents}};
        });
  }
  if (verb == "upsert") {
    return serve_write(
        input, sink, store::decode_upsert,
        [&](const auto& r, WriteEvents* events) { return store.upsert(ns, r, events); },
        [](const store::UpsertAnswer& a) {
          return json{{"document", a.document}, {"inserted", a.inserted}};
        });
  }
  if (verb == "change_state") {
    return serve_write(
        input, sink, store::decode_state,
        [&](const auto& r, WriteEvents* events) { return store.change_state(ns, r, events); },
        keys_json);
  }
  if (verb == "restore") {
    return serve_write(
        input, sink, store::decode_restore,
        [&](const auto& r, WriteEvents* events) { return store.restore(ns, r, events); },
        keys_json);
  }
  if (verb == "purge") {
    return serve(
        input, store::decode_purge, [&](const auto& r) { return store.purge(ns, r); },
        [](int64_t n) {
          return json{{"count", n}};
        });
  }
  if (verb == "collection_exists") {
    const auto it = input.find("collection");
    if (it == input.end() || !it->is_string()) {
      return Status::validation("store request: 'collection' must be a string");
    }
    auto exists = store.collection_exists(ns, it->get<std::string>());
    if (!exists) return exists.status();
    return json{{"exists", *exists}};
  }
  return Status::internal("the host has no service '" + std::string(service) + "'");
}

}  // namespace opbase::host
