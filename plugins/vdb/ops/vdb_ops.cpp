#include "ops/vdb_ops.hpp"

#include <algorithm>
#include <chrono>

#include "opbase/field_error.hpp"
#include "ops/insert_request.hpp"
#include "ops/search_request.hpp"
#include "records/record_document.hpp"
#include "vectors/dot_product.hpp"
#include "vectors/vector_value.hpp"

namespace opbase::vdb {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// How far the index's scores (its int8 codes, vectors/vector_code.hpp) may be from the float32
// cosine: min_score is applied with this much room in the index, then exactly.
constexpr float kCodeMargin = 0.01f;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

Status wrong_dimensions(const std::string& field, size_t expected, size_t provided) {
  return field_error(field,
                     field + " has " + std::to_string(provided) +
                         " dimensions where the collection's records have " +
                         std::to_string(expected),
                     {{"reason", "dimensions"},
                      {"expected_dimensions", expected},
                      {"provided_dimensions", provided}});
}

// A refusal of the embedding service names its text by its place among the texts sent; the
// client knows the record by its place in `data`.
Status with_record_index(const Status& refused, const std::vector<size_t>& record_of_text) {
  json details = refused.details().is_object() ? refused.details() : json::object();
  const auto index = details.find("index");
  if (index == details.end() || !index->is_number_unsigned() ||
      index->get<size_t>() >= record_of_text.size()) {
    return refused;
  }
  const size_t record = record_of_text[index->get<size_t>()];
  details["index"] = record;
  details["field"] = "data[" + std::to_string(record) + "].content";
  return Status(refused.code(), refused.message(), std::move(details));
}

}  // namespace

VdbOps::VdbOps(const Host& host, const VdbSettings& settings, const RecordStore& records,
               const CollectionCatalog& catalog, IndexSet& indexes)
    : host_(host),
      settings_(settings),
      records_(records),
      catalog_(catalog),
      indexes_(indexes),
      embedder_(host, settings.embedding_service),
      store_(host),
      limiter_(store_) {}

Status VdbOps::take_embed_token(const Request& request) const {
  if (settings_.embed_rate.limit == 0) return Status::ok();
  Status taken = limiter_.take(request.project_id, "vdb_embed." + std::string(request.user_id),
                               settings_.embed_rate, host_.now_ms());
  if (!taken) host_.count("embed_rate_limit_refusals_total");
  return taken;
}

Result<std::shared_ptr<OpenCollection>> VdbOps::caller_collection(const Request& request,
                                                                  const std::string& name) const {
  if (auto held = indexes_.find(request.project_id, request.user_id, name)) return held;
  // Written through another daemon sharing the store, and not read here yet.
  auto info = catalog_.find(request.project_id, request.user_id, name);
  if (!info) return info.status();
  if (!*info) {
    return Status(code::kCollectionNotFound,
                  "you have no vector collection '" + name + "': insert into it first",
                  {{"collection", name}});
  }
  return indexes_.open(request.project_id, **info);
}

Result<Reply> VdbOps::insert(const Request& request) const {
  const auto start = Clock::now();
  auto read = read_insert_request(request.body);
  if (!read) return read.status();
  std::vector<InsertItem>& items = read->items;

  std::vector<std::string> texts;
  std::vector<size_t> record_of_text;
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].vector) continue;
    texts.push_back(*items[i].content);
    record_of_text.push_back(i);
  }
  std::optional<Embeddings> embedded;
  if (!texts.empty()) {
    if (Status s = take_embed_token(request); !s) return s;
    auto embeddings = embedder_.embed(request.project_id, texts);
    if (!embeddings) return with_record_index(embeddings.status(), record_of_text);
    for (size_t t = 0; t < texts.size(); ++t) {
      items[record_of_text[t]].vector = std::move(embeddings->vectors[t]);
    }
    embedded = std::move(*embeddings);
  }
  const size_t dimensions = embedded ? embedded->dimensions : items.front().vector->size();
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].vector->size() != dimensions) {
      return wrong_dimensions("data[" + std::to_string(i) + "].vector", dimensions,
                              items[i].vector->size());
    }
  }

  const size_t used = indexes_.user_records(request.project_id, request.user_id);
  const auto limit = static_cast<size_t>(settings_.max_records_per_user);
  if (used + items.size() > limit) {
    return Status(code::kQuotaExceeded,
                  "you keep " + std::to_string(used) + " vector records; the limit is " +
                      std::to_string(limit),
                  {{"quota", "records"}, {"limit", limit}, {"used", used}});
  }

  const int64_t now = host_.now_ms();
  std::optional<std::string> model;
  if (embedded) model = embedded->model;
  auto info =
      catalog_.claim(request.project_id, request.user_id, read->collection, dimensions, model, now);
  if (!info) return info.status();
  auto collection = indexes_.open(request.project_id, *info);

  std::vector<bool> was_embedded(items.size(), false);
  for (const size_t i : record_of_text) was_embedded[i] = true;
  std::vector<json> stored;
  stored.reserve(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    stored.push_back(stored_record(
        {new_record_key(now), std::string(request.user_id), read->collection, items[i].content,
         items[i].metadata, was_embedded[i] ? model : std::nullopt, *items[i].vector, now}));
  }
  {
    const std::lock_guard write(collection->write_mutex);
    if (Status s = records_.insert(request.project_id, stored); !s) return s;
    for (size_t i = 0; i < items.size(); ++i) {
      collection->index.put(stored[i]["_key"].get<std::string>(), unit(*items[i].vector),
                            filter_fields(stored[i]));
    }
  }
  host_.count("inserted_records_total", static_cast<double>(items.size()));

  json data = json::array();
  for (json& doc : stored) data.push_back(client_record(std::move(doc), false));
  return Reply(std::move(data))
      .with_meta({{"count", items.size()},
                  {"dimensions", dimensions},
                  {"model_version", info->model_version ? json(*info->model_version) : json()},
                  {"processing_time_ms", ms_since(start)}});
}

Result<Reply> VdbOps::search(const Request& request) const {
  const auto start = Clock::now();
  auto read = read_search_request(request.body);
  if (!read) return read.status();
  auto collection = caller_collection(request, read->collection);
  if (!collection) return collection.status();
  const size_t dimensions = (*collection)->index.dimensions();
  const std::optional<std::string> collection_model = (*collection)->model_version();

  std::optional<double> embedding_ms;
  if (read->query) {
    if (Status s = take_embed_token(request); !s) return s;
    const auto embed_start = Clock::now();
    auto embeddings = embedder_.embed(request.project_id, {*read->query});
    if (!embeddings) return embeddings.status();
    embedding_ms = ms_since(embed_start);
    if (collection_model && embeddings->model != *collection_model) {
      return field_error("query",
                         "the query is embedded by model " + embeddings->model +
                             ", and the collection's records by " + *collection_model,
                         {{"reason", "model_version"},
                          {"expected_model_version", *collection_model},
                          {"provided_model_version", embeddings->model}});
    }
    read->vector = std::move(embeddings->vectors.front());
  }
  if (read->vector->size() != dimensions) {
    return wrong_dimensions(read->query ? "query" : "vector", dimensions, read->vector->size());
  }

  const std::vector<float> query = unit(*read->vector);
  const std::vector<Hit> hits =
      (*collection)
          ->index.best(query, read->limit, read->filter.empty() ? nullptr : &read->filter,
                       read->min_score.value_or(-2) - kCodeMargin);
  auto found = scored_records(request, read->collection, query, hits, read->min_score);
  if (!found) return found.status();
  json data = json::array();
  for (auto& [score, stored] : *found) {
    json record = client_record(std::move(stored), read->include_vector);
    record["score"] = printable(score);
    data.push_back(std::move(record));
  }
  json meta = {{"count", data.size()},
               {"dimensions", dimensions},
               {"model_version", collection_model ? json(*collection_model) : json()},
               {"processing_time_ms", ms_since(start)}};
  if (embedding_ms) meta["embedding_time_ms"] = *embedding_ms;
  host_.observe_seconds("search_seconds", ms_since(start) / 1000);
  return Reply(std::move(data)).with_meta(std::move(meta));
}

Result<std::vector<std::pair<float, json>>> VdbOps::scored_records(
    const Request& request, const std::string& collection, const std::vector<float>& query,
    const std::vector<Hit>& hits, std::optional<float> min_score) const {
  std::vector<std::string> keys;
  keys.reserve(hits.size());
  for (const Hit& hit : hits) keys.push_back(hit.key);
  auto found = records_.find_keys(request.project_id, request.user_id, collection, keys);
  if (!found) return found.status();
  std::vector<std::pair<float, json>> scored;
  for (json& stored : *found) {  // records deleted through another daemon a moment ago are gone
    const auto vector = stored_vector(stored);
    if (!vector || vector->size() != query.size() || norm(*vector) == 0) continue;
    const std::vector<float> record = unit(*vector);
    const float score = dot_product(query.data(), record.data(), query.size());
    if (min_score && score < *min_score) continue;
    scored.emplace_back(score, std::move(stored));
  }
  std::sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) {
    return better(a.first, a.second.value("_key", ""), Hit{b.second.value("_key", ""), b.first});
  });
  return scored;
}

Result<Reply> VdbOps::remove(const Request& request) const {
  auto read = read_delete_request(request.body);
  if (!read) return read.status();
  auto collection = caller_collection(request, read->collection);
  if (!collection) return collection.status();
  const std::lock_guard write((*collection)->write_mutex);
  auto removed = records_.remove(request.project_id, request.user_id, read->collection,
                                 std::move(read->match), host_.now_ms());
  if (!removed) return removed.status();
  for (const std::string& key : *removed) (*collection)->index.remove(key);
  host_.count("deleted_records_total", static_cast<double>(removed->size()));
  return Reply({{"deleted", removed->size()}});
}

}  // namespace opbase::vdb
