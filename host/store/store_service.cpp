// The `store.*` host services (see store_service.hpp).
#include "store/store_service.hpp"

#include <optional>

#include "opbase/internal/store_codec.hpp"

namespace opbase::host {
namespace {

using nlohmann::json;

json keys_json(const store::KeysAnswer& answer) { return {{"keys", answer.keys}}; }
json count_json(int64_t n) { return {{"count", n}}; }

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
  return WriteEvents(
      sink->project_id, spec,
      durable ? durable->plugins_for(spec.on_insert) : std::vector<DurableSubscriber>{},
      durable ? durable->plugins_for(spec.on_change) : std::vector<DurableSubscriber>{},
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

// store.indexes {"collection"}, store.add_index and store.drop_index {"collection", "field"}.
Result<json> run_index_request(ProjectStore& store, std::string_view ns, std::string_view verb,
                               const json& input) {
  const auto collection = input.find("collection");
  if (collection == input.end() || !collection->is_string()) {
    return Status::validation("store request: 'collection' must be a string");
  }
  const std::string& name = collection->get_ref<const std::string&>();
  if (verb == "indexes") return store.indexes(ns, name);
  const auto field = input.find("field");
  if (field == input.end() || !field->is_string()) {
    return Status::validation("store request: 'field' must be a string");
  }
  if (verb == "drop_index") {
    if (Status s = store.drop_index(ns, name, field->get_ref<const std::string&>()); !s) return s;
    return json{{"dropped", true}};
  }
  auto path = query::parse_path(field->get_ref<const std::string&>(), store::wire_parse_options());
  if (!path) return path.status();
  return store.add_index(ns, name, *path);
}

// The verbs, one function each. Insert and find take their input as text (see
// store_service.hpp); the others as a parsed object.
using ObjectVerb = Result<json> (*)(ProjectStore&, std::string_view ns, const json& input,
                                    const StoreEventSink* sink);

Result<json> count_verb(ProjectStore& store, std::string_view ns, const json& input,
                        const StoreEventSink*) {
  return serve(
      input, store::decode_count, [&](const auto& r) { return store.count(ns, r); }, count_json);
}

Result<json> update_verb(ProjectStore& store, std::string_view ns, const json& input,
                         const StoreEventSink* sink) {
  return serve_write(
      input, sink, store::decode_update,
      [&](const auto& r, WriteEvents* events) { return store.update(ns, r, events); },
      [](const store::UpdateAnswer& a) {
        return json{{"documents", a.documents}};
      });
}

Result<json> upsert_verb(ProjectStore& store, std::string_view ns, const json& input,
                         const StoreEventSink* sink) {
  return serve_write(
      input, sink, store::decode_upsert,
      [&](const auto& r, WriteEvents* events) { return store.upsert(ns, r, events); },
      [](const store::UpsertAnswer& a) {
        return json{{"document", a.document}, {"inserted", a.inserted}};
      });
}

Result<json> change_state_verb(ProjectStore& store, std::string_view ns, const json& input,
                               const StoreEventSink* sink) {
  return serve_write(
      input, sink, store::decode_state,
      [&](const auto& r, WriteEvents* events) { return store.change_state(ns, r, events); },
      keys_json);
}

Result<json> restore_verb(ProjectStore& store, std::string_view ns, const json& input,
                          const StoreEventSink* sink) {
  return serve_write(
      input, sink, store::decode_restore,
      [&](const auto& r, WriteEvents* events) { return store.restore(ns, r, events); }, keys_json);
}

Result<json> purge_verb(ProjectStore& store, std::string_view ns, const json& input,
                        const StoreEventSink*) {
  return serve(
      input, store::decode_purge, [&](const auto& r) { return store.purge(ns, r); }, count_json);
}

Result<json> collection_exists_verb(ProjectStore& store, std::string_view ns, const json& input,
                                    const StoreEventSink*) {
  const auto it = input.find("collection");
  if (it == input.end() || !it->is_string()) {
    return Status::validation("store request: 'collection' must be a string");
  }
  auto exists = store.collection_exists(ns, it->get<std::string>());
  if (!exists) return exists.status();
  return json{{"exists", *exists}};
}

Result<json> collections_verb(ProjectStore& store, std::string_view ns, const json&,
                              const StoreEventSink*) {
  auto names = store.collections(ns);
  if (!names) return names.status();
  return json{{"collections", *names}};
}

Result<json> indexes_verb(ProjectStore& store, std::string_view ns, const json& input,
                          const StoreEventSink*) {
  return run_index_request(store, ns, "indexes", input);
}

Result<json> add_index_verb(ProjectStore& store, std::string_view ns, const json& input,
                            const StoreEventSink*) {
  return run_index_request(store, ns, "add_index", input);
}

Result<json> drop_index_verb(ProjectStore& store, std::string_view ns, const json& input,
                             const StoreEventSink*) {
  return run_index_request(store, ns, "drop_index", input);
}

Result<json> explain_verb(ProjectStore& store, std::string_view ns, const json& input,
                          const StoreEventSink*) {
  auto request = store::decode_find(input);
  if (!request) return request.status();
  const auto count = input.find("count");
  return store.explain(ns, *request, count != input.end() && count->is_boolean() && *count);
}

// A verb that takes its input as a JSON object, parsed here.
template <ObjectVerb verb>
Result<std::string> on_object(ProjectStore& store, std::string_view ns, std::string_view input,
                              const StoreEventSink* sink) {
  const json parsed = json::parse(input, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) return not_a_json_object();
  auto answer = verb(store, ns, parsed, sink);
  if (!answer) return answer.status();
  return answer->dump();
}

Result<std::string> insert_verb(ProjectStore& store, std::string_view ns, std::string_view input,
                                const StoreEventSink* sink) {
  auto request = decode_insert_text(input);
  if (!request) return request.status();
  std::optional<WriteEvents> events = events_for(request->events, sink);
  if (Status s = store.insert(ns, *request, events ? &*events : nullptr); !s) return s;
  publish_raised(events, sink);
  return json{{"inserted", request->documents.size()}}.dump();
}

Result<std::string> find_verb(ProjectStore& store, std::string_view ns, std::string_view input,
                              const StoreEventSink*) {
  const json parsed = json::parse(input, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) return not_a_json_object();
  auto request = store::decode_find(parsed);
  if (!request) return request.status();
  return store.find(ns, *request);
}

constexpr StoreVerb kVerbs[] = {
    {"insert", true, insert_verb},
    {"find", false, find_verb},
    {"count", false, on_object<count_verb>},
    {"update", true, on_object<update_verb>},
    {"upsert", true, on_object<upsert_verb>},
    {"change_state", true, on_object<change_state_verb>},
    {"restore", true, on_object<restore_verb>},
    {"purge", true, on_object<purge_verb>},
    {"collection_exists", false, on_object<collection_exists_verb>},
    {"indexes", false, on_object<indexes_verb>},
    {"add_index", false, on_object<add_index_verb>},
    {"drop_index", false, on_object<drop_index_verb>},
    {"explain", false, on_object<explain_verb>},
    {"collections", false, on_object<collections_verb>},
};

}  // namespace

std::span<const StoreVerb> store_verbs() { return kVerbs; }

bool is_store_service(std::string_view name) { return name.starts_with(kStoreServicePrefix); }

Result<std::string> call_store_service(ProjectStore& store, std::string_view ns,
                                       std::string_view service, std::string_view input,
                                       const StoreEventSink* sink) {
  if (is_store_service(service)) {
    const std::string_view verb = service.substr(kStoreServicePrefix.size());
    for (const StoreVerb& v : kVerbs) {
      if (v.name == verb) return v.run(store, ns, input, sink);
    }
  }
  return Status::internal("the host has no service '" + std::string(service) + "'");
}

}  // namespace opbase::host
