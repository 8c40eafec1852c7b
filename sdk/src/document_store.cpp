// The SDK client of the host's DocumentStore services: encode, call, read the answer.
#include "opbase/document_store.hpp"

#include "opbase/internal/find_answer.hpp"
#include "opbase/internal/store_codec.hpp"

namespace opbase {
namespace {

using nlohmann::json;

Status bad_answer(std::string_view service) {
  return Status::internal("the host's " + std::string(service) + " answered an unexpected shape");
}

// Moves the documents out of the answer (they can be large: no copy).
Result<std::vector<json>> documents_of(json& answer, std::string_view service) {
  const auto it = answer.find("documents");
  if (it == answer.end() || !it->is_array()) return bad_answer(service);
  std::vector<json> out;
  out.reserve(it->size());
  for (json& doc : *it) out.push_back(std::move(doc));
  return out;
}

Result<int64_t> integer_of(const json& answer, std::string_view field, std::string_view service) {
  const auto it = answer.find(field);
  if (it == answer.end() || !it->is_number_integer()) return bad_answer(service);
  return it->get<int64_t>();
}

Result<store::KeysAnswer> keys_of(const json& answer, std::string_view service) {
  const auto it = answer.find("keys");
  if (it == answer.end() || !it->is_array()) return bad_answer(service);
  store::KeysAnswer out;
  for (const json& key : *it) {
    if (!key.is_string()) return bad_answer(service);
    out.keys.push_back(key.get<std::string>());
  }
  return out;
}

}  // namespace

Status DocumentStore::insert(std::string_view project, const store::InsertRequest& request) const {
  return insert_texts(project, store::printed(request));
}

Status DocumentStore::insert_texts(std::string_view project,
                                   const store::InsertTextRequest& request) const {
  return host_.call_service_text("store.insert", project, store::encode_text(request)).status();
}

Result<store::FindTextAnswer> DocumentStore::find_text(std::string_view project,
                                                       const store::FindRequest& request) const {
  auto answer = host_.call_service_text("store.find", project, store::encode(request).dump());
  if (!answer) return answer.status();
  return store::decode_find_answer(*answer);
}

Result<store::FindAnswer> DocumentStore::find(std::string_view project,
                                              const store::FindRequest& request) const {
  auto answer = host_.call_service_text("store.find", project, store::encode(request).dump());
  if (!answer) return answer.status();
  return store::decode_find_documents(*answer);
}

Result<int64_t> DocumentStore::count(std::string_view project,
                                     const store::CountRequest& request) const {
  auto answer = host_.call_service("store.count", project, store::encode(request));
  if (!answer) return answer.status();
  return integer_of(*answer, "count", "store.count");
}

Result<store::UpdateAnswer> DocumentStore::update(std::string_view project,
                                                  const store::UpdateRequest& request) const {
  auto answer = host_.call_service("store.update", project, store::encode(request));
  if (!answer) return answer.status();
  auto documents = documents_of(*answer, "store.update");
  if (!documents) return documents.status();
  return store::UpdateAnswer{std::move(*documents)};
}

Result<store::UpsertAnswer> DocumentStore::upsert(std::string_view project,
                                                  const store::UpsertRequest& request) const {
  auto answer = host_.call_service("store.upsert", project, store::encode(request));
  if (!answer) return answer.status();
  const auto document = answer->find("document");
  const auto inserted = answer->find("inserted");
  if (document == answer->end() || !document->is_object() || inserted == answer->end() ||
      !inserted->is_boolean()) {
    return bad_answer("store.upsert");
  }
  return store::UpsertAnswer{*document, inserted->get<bool>()};
}

Result<store::KeysAnswer> DocumentStore::change_state(std::string_view project,
                                                      const store::StateRequest& request) const {
  auto answer = host_.call_service("store.change_state", project, store::encode(request));
  if (!answer) return answer.status();
  return keys_of(*answer, "store.change_state");
}

Result<store::KeysAnswer> DocumentStore::restore(std::string_view project,
                                                 const store::RestoreRequest& request) const {
  auto answer = host_.call_service("store.restore", project, store::encode(request));
  if (!answer) return answer.status();
  return keys_of(*answer, "store.restore");
}

Result<int64_t> DocumentStore::purge(std::string_view project,
                                     const store::PurgeRequest& request) const {
  auto answer = host_.call_service("store.purge", project, store::encode(request));
  if (!answer) return answer.status();
  return integer_of(*answer, "count", "store.purge");
}

Result<bool> DocumentStore::collection_exists(std::string_view project,
                                              std::string_view collection) const {
  auto answer =
      host_.call_service("store.collection_exists", project, json{{"collection", collection}});
  if (!answer) return answer.status();
  const auto it = answer->find("exists");
  if (it == answer->end() || !it->is_boolean()) return bad_answer("store.collection_exists");
  return it->get<bool>();
}

Result<std::vector<std::string>> DocumentStore::collections(std::string_view project) const {
  auto answer = host_.call_service("store.collections", project, json::object());
  if (!answer) return answer.status();
  const auto it = answer->find("collections");
  if (it == answer->end() || !it->is_array()) return bad_answer("store.collections");
  std::vector<std::string> names;
  for (const json& name : *it) {
    if (!name.is_string()) return bad_answer("store.collections");
    names.push_back(name.get<std::string>());
  }
  return names;
}

Result<json> DocumentStore::indexes(std::string_view project, std::string_view collection) const {
  return host_.call_service("store.indexes", project, json{{"collection", collection}});
}

Result<json> DocumentStore::add_index(std::string_view project, std::string_view collection,
                                      std::string_view field) const {
  return host_.call_service("store.add_index", project,
                            json{{"collection", collection}, {"field", field}});
}

Status DocumentStore::drop_index(std::string_view project, std::string_view collection,
                                 std::string_view field) const {
  return host_
      .call_service("store.drop_index", project, json{{"collection", collection}, {"field", field}})
      .status();
}

Result<json> DocumentStore::explain(std::string_view project, const store::FindRequest& request,
                                    bool count) const {
  json input = store::encode(request);
  input["count"] = count;
  return host_.call_service("store.explain", project, input);
}

}  // namespace opbase
