// The mongodb driver's project store: the DocumentStore requests as libmongoc calls over the
// records of record.hpp, returning what the sqlite driver returns.
//
// Atomicity. A call here is not one transaction: MongoDB has multi-document transactions only on
// replica sets and sharded clusters, and the driver must work on a standalone server too. So:
//  - insert is an ordered insert_many; when a `_key` is taken the records this call inserted
//    before it are deleted again (other readers may see them for that moment);
//  - update computes every step in memory first (store::apply_change, the reference), so a
//    change that fails validation writes nothing, then writes each changed document back whole;
//  - a failure of the server half-way through a multi-document write leaves the documents
//    written so far, and the call returns INTERNAL_ERROR.
// Each document is written with a single-document replace, which MongoDB applies atomically,
// and only while the record still holds the document as it was read: a document another writer
// changed in between is read again and the change applied anew (write_back), so conditional
// updates (a lease: match {lease: 0}, set {lease: t}) have one winner across daemons.
// Within one daemon the writers of a document take turns (writers_of), so the retries are for
// writers in other daemons.
#include "store/mongo/mongo_driver.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <utility>

#include "opbase/field_error.hpp"
#include "opbase/internal/find_answer.hpp"
#include "store/mongo/bson_query.hpp"
#include "store/mongo/mongo_auto_indexes.hpp"
#include "store/mongo/mongo_client.hpp"
#include "store/mongo/record.hpp"

namespace opbase::host {

namespace {

using mongo::BsonDoc;
using mongo::Collection;
using nlohmann::json;

// Runs `body`, turning an escaping exception into INTERNAL_ERROR: nothing throws out of the
// driver.
template <typename F>
auto guarded(F&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const std::exception& e) {
    return Status::internal(std::string("mongodb driver: ") + e.what());
  } catch (...) {
    return Status::internal("mongodb driver: unknown exception");
  }
}

Status duplicate_key(const std::string& key) {
  return Status(std::string(store::kDuplicateKey), "the _key '" + key + "' is taken",
                json{{"_key", key}});
}

// The order in which update reports a step's documents: by `_key`, as every driver does
// (store.hpp UpdateAnswer).
bool key_before(const json& a, const json& b) {
  return a.at("_key").get_ref<const std::string&>() < b.at("_key").get_ref<const std::string&>();
}

// A change must leave `_key` alone: it is the record's `_id`.
Status apply(json& doc, const store::Change& change) {
  const json key = doc.at("_key");
  if (Status s = store::apply_change(doc, change); !s) return s;
  if (!doc.contains("_key") || doc.at("_key") != key) {
    return field_error("_key", "a change cannot alter _key");
  }
  return Status::ok();
}

BsonDoc key_filter(std::string_view ns, std::string_view collection, const std::string& key,
                   store::State state) {
  BsonDoc filter;
  BSON_APPEND_UTF8(filter.get(), "_id", key.c_str());
  bson_append_utf8(filter.get(), "ns", 2, ns.data(), static_cast<int>(ns.size()));
  bson_append_utf8(filter.get(), "collection", 10, collection.data(),
                   static_cast<int>(collection.size()));
  BSON_APPEND_UTF8(filter.get(), "state", std::string(mongo::state_value(state)).c_str());
  return filter;
}

// {$set: {state, ref, state_ms}}
BsonDoc state_update(const store::StateRequest& request) {
  BsonDoc update;
  bson_t set;
  BSON_APPEND_DOCUMENT_BEGIN(update.get(), "$set", &set);
  BSON_APPEND_UTF8(&set, "state", std::string(mongo::state_value(request.to)).c_str());
  bson_append_utf8(&set, "ref", 3, request.ref.data(), static_cast<int>(request.ref.size()));
  BSON_APPEND_INT64(&set, "state_ms", request.at_ms);
  bson_append_document_end(update.get(), &set);
  return update;
}

// {$set: {state: "active"}, $unset: {ref: "", state_ms: ""}}
BsonDoc restore_update() {
  BsonDoc update;
  bson_t child;
  BSON_APPEND_DOCUMENT_BEGIN(update.get(), "$set", &child);
  BSON_APPEND_UTF8(&child, "state", std::string(mongo::state_value(store::State::kActive)).c_str());
  bson_append_document_end(update.get(), &child);
  BSON_APPEND_DOCUMENT_BEGIN(update.get(), "$unset", &child);
  BSON_APPEND_UTF8(&child, "ref", "");
  BSON_APPEND_UTF8(&child, "state_ms", "");
  bson_append_document_end(update.get(), &child);
  return update;
}

class MongoProjectStore : public ProjectStore {
 public:
  MongoProjectStore(std::shared_ptr<mongo::ClientPool> pool, std::string database,
                    const AutoIndexPolicy& policy, const std::vector<IndexSpec>& declared)
      : pool_(std::move(pool)),
        database_(std::move(database)),
        auto_indexes_(pool_, database_, policy, declared) {}

  // The declared indexes (idempotent on the server), then the automatic ones' thread.
  Status create_indexes(const std::vector<IndexSpec>& indexes) {
    Collection documents = docs();
    if (Status s = documents.create_indexes(mongo::index_command(indexes).get()); !s) return s;
    return auto_indexes_.start();
  }

  // The index of each sharing list a shared scope reads, made on its first use by this daemon
  // (createIndexes is idempotent on the server): the first shared query waits for its build.
  Status want_list_indexes(const store::Scope& scope) {
    if (!scope.shares()) return Status::ok();
    for (const std::string& list : scope.lists) {
      {
        std::lock_guard lock(lists_mutex_);
        if (indexed_lists_.count(list) != 0) continue;
      }
      if (Status s = docs().create_indexes(mongo::list_index_command(list).get()); !s) return s;
      std::lock_guard lock(lists_mutex_);
      indexed_lists_.insert(list);
    }
    return Status::ok();
  }

  using ProjectStore::change_state;
  using ProjectStore::insert;
  using ProjectStore::restore;
  using ProjectStore::update;
  using ProjectStore::upsert;

  Status insert(std::string_view ns, const TextInsert& texts, WriteEvents* events) override {
    return guarded([&] {
      const store::InsertRequest request = parse_documents(texts);
      if (Status s = insert_documents(ns, request.collection, request.documents); !s) return s;
      if (events == nullptr) return Status::ok();
      std::vector<WrittenDocument> written;
      for (const json& doc : request.documents) written.push_back(inserted(doc, events));
      return journal(events, written);
    });
  }

  Result<std::string> find(std::string_view ns, const store::FindRequest& request) override {
    const auto started = std::chrono::steady_clock::now();
    return guarded([&]() -> Result<std::string> {
      if (Status s = want_list_indexes(request.scope); !s) return s;
      auto selected = selection_of(ns, request);
      if (!selected) return selected.status();
      Collection documents = docs();
      store::FindAnswer answer;
      if (request.limit != 0) {  // MongoDB reads limit 0 as "no limit"
        const BsonDoc options =
            mongo::find_options(selected->sort.get(), request.offset, request.limit);
        auto found = documents.find_docs(selected->filter.get(), options.get());
        if (!found) return found.status();
        answer.documents = std::move(*found);
      }
      // A page that ends short ends where the matches do: its total costs no count.
      const auto page_size = static_cast<int64_t>(answer.documents.size());
      const auto short_total = store::total_of_short_page(request.offset, request.limit, page_size);
      if (request.with_total && short_total) {
        answer.total = *short_total;
      } else if (request.with_total) {
        auto total = documents.count(selected->filter.get());
        if (!total) return total.status();
        answer.total = *total;
      }
      auto_indexes_.note(ns, request.collection, request.scope, request.state, request.match,
                         request.sort, started);
      return find_answer_text(answer.documents, answer.total);
    });
  }

  Result<int64_t> count(std::string_view ns, const store::CountRequest& request) override {
    const auto started = std::chrono::steady_clock::now();
    return guarded([&]() -> Result<int64_t> {
      if (Status s = want_list_indexes(request.scope); !s) return s;
      auto filter = mongo::selection_filter(ns, request.collection, request.scope, request.state,
                                            request.match);
      if (!filter) return filter.status();
      auto counted = docs().count(filter->get());
      if (counted) {
        auto_indexes_.note(ns, request.collection, request.scope, request.state, request.match, {},
                           started);
      }
      return counted;
    });
  }

  Result<store::UpdateAnswer> update(std::string_view ns, const store::UpdateRequest& request,
                                     WriteEvents* events) override {
    return guarded([&]() -> Result<store::UpdateAnswer> {
      if (Status s = want_list_indexes(request.scope); !s) return s;
      Collection documents = docs();
      std::map<std::string, json> changed;  // _key -> the document after the steps so far
      std::map<std::string, json> read;     // _key -> the document as the server had it
      store::UpdateAnswer answer;
      for (const auto& step : request.steps) {
        auto selected = select_for_step(documents, ns, request, step, changed);
        if (!selected) return selected.status();
        for (json& doc : *selected) {
          const std::string key = doc.at("_key").get<std::string>();
          if (!changed.contains(key)) read[key] = doc;
          if (Status s = apply(doc, step.change); !s) return s;
          changed[key] = doc;
          answer.documents.push_back(std::move(doc));
        }
      }
      for (auto& entry : changed) {  // not a structured binding: clang 14 cannot capture one
        const std::string& key = entry.first;
        json& doc = entry.second;
        const json computed = doc;
        auto written = write_back(documents, ns, request, key, read[key], doc);
        if (!written) return written.status();
        if (*written && doc == computed) continue;
        // Another writer changed it since it was read: the answer shows what was written, or
        // leaves it out when no step selected it any more.
        std::erase_if(answer.documents, [&](json& d) {
          if (d.at("_key") != key) return false;
          d = doc;
          return !*written;
        });
      }
      if (events != nullptr) {
        std::vector<WrittenDocument> written;
        for (const json& doc : answer.documents) {
          const std::string key = doc.at("_key").get<std::string>();
          written.push_back(updated(key, read[key], changed[key], events));
        }
        if (Status s = journal(events, written); !s) return s;
      }
      return answer;
    });
  }

  // Not atomic across daemons: two daemons may both find nothing and both insert (the second
  // then fails with DUPLICATE_KEY when `insert` has the same `_key`).
  Result<store::UpsertAnswer> upsert(std::string_view ns, const store::UpsertRequest& request,
                                     WriteEvents* events) override {
    return guarded([&]() -> Result<store::UpsertAnswer> {
      if (Status s = want_list_indexes(request.scope); !s) return s;
      auto filter = mongo::selection_filter(ns, request.collection, request.scope,
                                            store::State::kActive, request.match);
      if (!filter) return filter.status();
      auto sort = mongo::record_sort({});
      if (!sort) return sort.status();
      const BsonDoc options = mongo::find_options(sort->get(), 0, 1);
      const store::UpdateRequest as_update{
          request.collection, request.scope, {{request.match, request.change}}};
      Collection documents = docs();
      for (int attempt = 0; attempt < kWriteBackAttempts; ++attempt) {
        Result<std::vector<json>> found = documents.find_docs(filter->get(), options.get());
        if (!found) return found.status();
        if (found->empty()) {
          if (Status s = insert_documents(ns, request.collection, {request.insert}); !s) return s;
          if (Status s = journal(events, {inserted(request.insert, events)}); !s) return s;
          return store::UpsertAnswer{request.insert, true};
        }
        const json read = std::move(found->front());
        json doc = read;
        if (Status s = apply(doc, request.change); !s) return s;
        const std::string key = doc.at("_key").get<std::string>();
        auto written = write_back(documents, ns, as_update, key, read, doc);
        if (!written) return written.status();
        if (!*written) continue;  // it no longer matches: look again, and insert if need be
        if (Status s = journal(events, {updated(key, read, doc, events)}); !s) return s;
        return store::UpsertAnswer{std::move(doc), false};
      }
      return Status::internal("mongodb: the documents of an upsert kept changing under it");
    });
  }

  Result<store::KeysAnswer> change_state(std::string_view ns, const store::StateRequest& request,
                                         WriteEvents* events) override {
    return guarded([&]() -> Result<store::KeysAnswer> {
      if (Status s = want_list_indexes(request.scope); !s) return s;
      auto filter = mongo::selection_filter(ns, request.collection, request.scope, request.from,
                                            request.match);
      if (!filter) return filter.status();
      std::vector<WrittenDocument> written;
      auto moved = move_keys(filter->get(), state_update(request).get(), events,
                             write_of_move(request.to), written);
      if (!moved) return moved;
      if (Status s = journal(events, written); !s) return s;
      return moved;
    });
  }

  Result<store::KeysAnswer> restore(std::string_view ns, const store::RestoreRequest& request,
                                    WriteEvents* events) override {
    return guarded([&]() -> Result<store::KeysAnswer> {
      if (Status s = want_list_indexes(request.scope); !s) return s;
      BsonDoc filter;
      bson_t* f = filter.get();
      bson_append_utf8(f, "ns", 2, ns.data(), static_cast<int>(ns.size()));
      BSON_APPEND_UTF8(f, "collection", request.collection.c_str());
      mongo::append_scope(f, ns, request.collection, "", request.scope);
      BSON_APPEND_UTF8(f, "ref", request.ref.c_str());
      bson_t state;
      BSON_APPEND_DOCUMENT_BEGIN(f, "state", &state);
      BSON_APPEND_UTF8(&state, "$ne",
                       std::string(mongo::state_value(store::State::kActive)).c_str());
      bson_append_document_end(f, &state);
      std::vector<WrittenDocument> written;
      auto moved = move_keys(filter.get(), restore_update().get(), events, "restore", written);
      if (!moved) return moved;
      if (Status s = journal(events, written); !s) return s;
      return moved;
    });
  }

  Result<int64_t> purge(std::string_view ns, const store::PurgeRequest& request) override {
    return guarded([&]() -> Result<int64_t> {
      if (request.state == store::State::kActive) return int64_t{0};  // only left states age
      BsonDoc filter;
      bson_append_utf8(filter.get(), "ns", 2, ns.data(), static_cast<int>(ns.size()));
      BSON_APPEND_UTF8(filter.get(), "state",
                       std::string(mongo::state_value(request.state)).c_str());
      bson_t before;
      BSON_APPEND_DOCUMENT_BEGIN(filter.get(), "state_ms", &before);
      BSON_APPEND_INT64(&before, "$lt", request.before_ms);
      bson_append_document_end(filter.get(), &before);
      return docs().delete_many(filter.get());
    });
  }

  Result<bool> collection_exists(std::string_view ns, std::string_view collection) override {
    return guarded([&]() -> Result<bool> {
      BsonDoc filter;
      const std::string id = marker_id(ns, collection);
      bson_append_utf8(filter.get(), "_id", 3, id.data(), static_cast<int>(id.size()));
      BsonDoc options;
      BSON_APPEND_INT64(options.get(), "limit", 1);
      Collection collections(*pool_, database_, mongo::kCollections);
      auto n = collections.count(filter.get(), options.get());
      if (!n) return n.status();
      return *n > 0;
    });
  }

  Result<std::vector<std::string>> collections(std::string_view ns) override {
    return guarded([&]() -> Result<std::vector<std::string>> {
      BsonDoc filter;
      bson_append_utf8(filter.get(), "ns", 2, ns.data(), static_cast<int>(ns.size()));
      Collection collections(*pool_, database_, mongo::kCollections);
      // Marker ids are "<ns>/<name>": in id order, the names are in order.
      auto ids = collections.find_keys(filter.get());
      if (!ids) return ids.status();
      std::vector<std::string> names;
      for (const std::string& id : *ids) names.push_back(id.substr(ns.size() + 1));
      return names;
    });
  }

  Result<json> indexes(std::string_view ns, std::string_view collection) override {
    return guarded([&]() -> Result<json> { return auto_indexes_.list(ns, collection); });
  }
  Result<json> add_index(std::string_view ns, std::string_view collection,
                         const query::FieldPath& path) override {
    return guarded([&] { return auto_indexes_.add(ns, collection, path); });
  }
  Status drop_index(std::string_view ns, std::string_view collection,
                    std::string_view path) override {
    return guarded([&] { return auto_indexes_.drop(ns, collection, path); });
  }

  // MongoDB's own explain of the whole match (no paging), in collection.explain's terms; the
  // count of a count's match is asked for as well (a count's explain returns none).
  Result<json> explain(std::string_view ns, const store::FindRequest& request,
                       bool count) override {
    return guarded([&]() -> Result<json> {
      if (Status s = want_list_indexes(request.scope); !s) return s;
      auto selected = selection_of(ns, request);
      if (!selected) return selected.status();
      Collection documents = docs();
      auto reply = documents.read_command(
          mongo::explain_command(selected->filter.get(), selected->sort.get(), count).get());
      if (!reply) return reply.status();
      const mongo::ExplainedPlan plan = mongo::read_explain(*reply);
      int64_t matched = plan.returned;
      if (count) {
        auto counted = documents.count(selected->filter.get());
        if (!counted) return counted.status();
        matched = *counted;
      }
      return json{{"plan", plan.plan},
                  {"index", plan.index.empty() ? json() : json(plan.index)},
                  {"rows_read", plan.docs_examined},
                  {"matched", matched},
                  {"time_ms", plan.time_ms}};
    });
  }

  Status ping() override {
    return guarded([&] { return docs().ping(); });
  }

 private:
  Collection docs() { return Collection(*pool_, database_, mongo::kDocuments); }

  // The records a find selects, and their order.
  struct Selection {
    BsonDoc filter;
    BsonDoc sort;
  };
  Result<Selection> selection_of(std::string_view ns, const store::FindRequest& request) {
    for (const query::Condition& c : request.match) {
      if (Status s = storable(c.value); !s) return s;
    }
    auto filter = mongo::selection_filter(ns, request.collection, request.scope, request.state,
                                          request.match);
    if (!filter) return filter.status();
    auto sort = mongo::record_sort(request.sort);
    if (!sort) return sort.status();
    return Selection{std::move(*filter), std::move(*sort)};
  }

  // A value the server can take: an integer above int64 becomes a Decimal128 (bson_query.hpp),
  // which FerretDB lacks and drops the connection on, so there it is the request's fault.
  Status storable(const json& value) const {
    if (!mongo::needs_decimal128(value) || pool_->keeps_decimal128()) return Status::ok();
    return Status::validation(
        "this MongoDB-compatible server keeps no integer above 9223372036854775807");
  }

  // MongoDB without a replica set has no transaction across documents: the journal records go
  // in right after the write, before it is acknowledged. A crash between the two loses the
  // events of a write whose op never returned (docs/operations.md).
  Status journal(WriteEvents* events, const std::vector<WrittenDocument>& written) {
    if (events == nullptr) return Status::ok();
    events->report(written);
    std::map<std::string, std::vector<json>> by_ns;
    for (const JournalRecord& record : events->records()) {
      by_ns[record.ns].push_back(record.document);
    }
    for (const auto& [ns, documents] : by_ns) {
      if (Status s = insert_documents(ns, std::string(store::kEventsCollection), documents); !s) {
        return s;
      }
    }
    return Status::ok();
  }

  // A document the write inserted, or one it updated from `before` to `after`, as its events
  // report it (the texts only when they keep documents).
  static WrittenDocument inserted(const json& doc, const WriteEvents* events) {
    const bool texts = events != nullptr && events->wants_documents();
    return {doc.at("_key").get<std::string>(), true, texts ? doc.dump() : "", ""};
  }
  static WrittenDocument updated(const std::string& key, const json& before, const json& after,
                                 const WriteEvents* events) {
    const bool texts = events != nullptr && events->wants_documents();
    return {key, false, texts ? after.dump() : "", texts ? before.dump() : ""};
  }

  static std::string marker_id(std::string_view ns, std::string_view collection) {
    return std::string(ns) + "/" + std::string(collection);
  }

  Status insert_documents(std::string_view ns, const std::string& collection,
                          const std::vector<json>& documents) {
    if (documents.empty()) return Status::ok();
    std::vector<BsonDoc> records;
    std::vector<std::string> keys;
    for (const json& doc : documents) {
      if (Status s = storable(doc); !s) return s;
      auto record = mongo::make_record(ns, collection, doc);
      if (!record) return record.status();
      keys.push_back(doc.at("_key").get<std::string>());
      records.push_back(std::move(*record));
    }
    // One client at a time per call (never two leases held at once, which could starve the
    // pool under load).
    {
      Collection records_collection = docs();
      const auto outcome = records_collection.insert_many(records);
      if (!outcome.status) {
        remove_inserted(records_collection, keys, outcome.inserted);
        if (outcome.duplicate_index >= 0 &&
            outcome.duplicate_index < static_cast<int64_t>(keys.size())) {
          return duplicate_key(keys[static_cast<std::size_t>(outcome.duplicate_index)]);
        }
        return outcome.status;
      }
    }
    if (Status s = mark_collection(ns, collection); !s) {
      Collection records_collection = docs();
      remove_inserted(records_collection, keys, static_cast<int64_t>(keys.size()));
      return s;
    }
    return Status::ok();
  }

  // Best effort: the first `count` keys went in during this call, so they are ours to remove.
  static void remove_inserted(Collection& documents, const std::vector<std::string>& keys,
                              int64_t count) {
    if (count <= 0) return;
    const std::vector<std::string> ours(keys.begin(),
                                        keys.begin() + std::min<int64_t>(count, keys.size()));
    const BsonDoc none;
    const BsonDoc filter = mongo::with_keys(none.get(), ours);
    (void)documents.delete_many(filter.get());
  }

  // {_id: "<ns>/<collection>"} upserted into `collections`.
  Status mark_collection(std::string_view ns, const std::string& collection) {
    const std::string id = marker_id(ns, collection);
    BsonDoc filter;
    bson_append_utf8(filter.get(), "_id", 3, id.data(), static_cast<int>(id.size()));
    BsonDoc update;
    bson_t set;
    BSON_APPEND_DOCUMENT_BEGIN(update.get(), "$set", &set);
    bson_append_utf8(&set, "ns", 2, ns.data(), static_cast<int>(ns.size()));
    BSON_APPEND_UTF8(&set, "name", collection.c_str());
    bson_append_document_end(update.get(), &set);
    Collection collections(*pool_, database_, mongo::kCollections);
    return collections.upsert_one(filter.get(), update.get());
  }

  // The documents one update step changes: those the server selects that no earlier step
  // changed, and the ones earlier steps changed that match now (judged in memory, since their
  // new state is not written yet), in `_key` order.
  Result<std::vector<json>> select_for_step(Collection& documents, std::string_view ns,
                                            const store::UpdateRequest& request,
                                            const store::UpdateStep& step,
                                            const std::map<std::string, json>& changed) {
    auto filter = mongo::selection_filter(ns, request.collection, request.scope,
                                          store::State::kActive, step.match);
    if (!filter) return filter.status();
    auto sort = mongo::record_sort({query::SortKey{key_path(), false}});
    if (!sort) return sort.status();
    const BsonDoc options = mongo::find_options(sort->get(), 0, -1);
    auto found = documents.find_docs(filter->get(), options.get());
    if (!found) return found.status();
    std::vector<json> selected;
    for (json& doc : *found) {
      if (!changed.contains(doc.at("_key").get<std::string>())) selected.push_back(std::move(doc));
    }
    for (const auto& [key, doc] : changed) {
      if (store::in_scope(request.scope, doc) && query::matches(step.match, doc))
        selected.push_back(doc);
    }
    std::sort(selected.begin(), selected.end(), key_before);
    return selected;
  }

  static query::FieldPath key_path() { return query::FieldPath{"_key", {"_key"}}; }

  // Replaces the active record of `key`, as long as it still holds `read`, with the record of
  // `doc` (the whole document, so its keys stay in byte order: see bson_query.hpp). A record
  // another writer changed meanwhile is read again and the steps that still select it applied
  // anew, into `doc`, as MongoDB's own update does per document: so two daemons that both read
  // a message free never both win its lease. False when no step selects it any more (or it was
  // deleted).
  Result<bool> write_back(Collection& documents, std::string_view ns,
                          const store::UpdateRequest& request, const std::string& key, json read,
                          json& doc) {
    const std::lock_guard turn(writers_of(key));
    for (int attempt = 0; attempt < kWriteBackAttempts; ++attempt) {
      if (Status s = storable(doc); !s) return s;
      auto record = mongo::make_record(ns, request.collection, doc);
      if (!record) return record.status();
      auto was = mongo::json_to_bson(read);
      if (!was) return was.status();
      BsonDoc filter = key_filter(ns, request.collection, key, store::State::kActive);
      BSON_APPEND_DOCUMENT(filter.get(), "doc", was->get());
      auto matched = documents.replace_one(filter.get(), record->get());
      if (!matched) return matched.status();
      if (*matched > 0) return true;
      auto now = read_active(documents, ns, request.collection, key);
      if (!now) return now.status();
      if (now->is_null()) return false;
      read = *now;
      doc = *now;
      bool selected = false;
      for (const auto& step : request.steps) {
        if (!store::in_scope(request.scope, doc) || !query::matches(step.match, doc)) continue;
        if (Status s = apply(doc, step.change); !s) return s;
        selected = true;
      }
      if (!selected) return false;
    }
    return Status::internal("mongodb: document " + key + " kept changing under an update");
  }

  // The active document of `key`, or null.
  Result<json> read_active(Collection& documents, std::string_view ns,
                           const std::string& collection, const std::string& key) {
    const BsonDoc filter = key_filter(ns, collection, key, store::State::kActive);
    const BsonDoc no_sort;
    const BsonDoc options = mongo::find_options(no_sort.get(), 0, 1);
    auto found = documents.find_docs(filter.get(), options.get());
    if (!found) return found.status();
    return found->empty() ? json(nullptr) : std::move(found->front());
  }

  static constexpr int kWriteBackAttempts = 8;

  // The writers of one document in this daemon take turns (a lock per stripe of keys): racing
  // one another they would only make each other read it again, and sixteen requests on one
  // counter ran out of attempts. Writers in other daemons still race, as above. A write holds
  // one stripe at a time, so two writes never wait for each other in a circle.
  std::mutex& writers_of(const std::string& key) {
    return key_stripes_[std::hash<std::string>{}(key) % key_stripes_.size()];
  }

  // The keys `filter` selects, then `update` on exactly those (still selected) records.
  // Moves the documents `filter` selects with `update`; `written` gets them as they were moved
  // when `events` keeps documents (read whole then, not only their keys), their keys otherwise.
  Result<store::KeysAnswer> move_keys(const bson_t* filter, const bson_t* update,
                                      const WriteEvents* events, std::string_view write,
                                      std::vector<WrittenDocument>& written) {
    Collection documents = docs();
    Result<std::vector<std::string>> keys = std::vector<std::string>{};
    if (events != nullptr && events->wants_documents()) {
      auto found = documents.find_docs(filter, nullptr);
      if (!found) return found.status();
      for (const json& doc : *found) {
        keys->push_back(doc.at("_key").get<std::string>());
        written.push_back({keys->back(), false, doc.dump(), "", write});
      }
    } else {
      keys = documents.find_keys(filter);
      if (!keys) return keys.status();
      if (events != nullptr) {
        for (const std::string& key : *keys) written.push_back({key, false, "", "", write});
      }
    }
    std::sort(written.begin(), written.end(),
              [](const WrittenDocument& a, const WrittenDocument& b) { return a.key < b.key; });
    store::KeysAnswer answer;
    if (keys->empty()) return answer;
    const BsonDoc selected = mongo::with_keys(filter, *keys);
    auto moved = documents.update_many(selected.get(), update);
    if (!moved) return moved.status();
    std::sort(keys->begin(), keys->end());
    answer.keys = std::move(*keys);
    return answer;
  }

  std::shared_ptr<mongo::ClientPool> pool_;
  std::string database_;
  std::array<std::mutex, 64> key_stripes_;
  std::mutex lists_mutex_;
  std::set<std::string> indexed_lists_;  // sharing lists whose index this daemon made
  mongo::AutoIndexer auto_indexes_;      // last: its thread stops before the rest goes
};

// MongoDB database names: no '/', '\\', '.', ' ', '"', '$' or NUL, and under 64 bytes.
bool valid_database_name(std::string_view name) {
  return !name.empty() && name.size() < 64 &&
         name.find_first_of(std::string_view("/\\. \"$\0", 7)) == std::string_view::npos;
}

}  // namespace

MongoDriver::MongoDriver(MongoOptions options) : options_(std::move(options)) {
  auto pool = guarded([&]() -> Result<std::shared_ptr<mongo::ClientPool>> {
    return mongo::ClientPool::create(options_.uri);
  });
  if (pool) {
    pool_ = std::move(*pool);
  } else {
    pool_error_ = pool.status();
  }
}

MongoDriver::~MongoDriver() = default;

Result<std::shared_ptr<ProjectStore>> MongoDriver::open(std::string_view project_id) {
  if (!pool_) return pool_error_;
  return guarded([&]() -> Result<std::shared_ptr<ProjectStore>> {
    const std::string database = options_.database_prefix + std::string(project_id);
    if (project_id.empty() || !valid_database_name(database)) {
      return field_error("project_id", "the project id cannot name a MongoDB database");
    }
    auto store = std::make_shared<MongoProjectStore>(pool_, database, options_.auto_indexes,
                                                     options_.indexes);
    if (Status s = store->create_indexes(options_.indexes); !s) return s;
    // Asked here, while no client is leased: a write holding one never waits for a second.
    (void)pool_->server();
    return std::shared_ptr<ProjectStore>(std::move(store));
  });
}

}  // namespace opbase::host
