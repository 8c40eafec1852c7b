// The memory driver (memory_driver.hpp): one MemoryStore per project, a map of records keyed by
// `_key`. Every read is a scan filtered by namespace, collection, state and scope, then
// query::matches; every order is query::compare_for_sort plus the `_key` tie-break. Writes work
// on copies and commit only when the whole call succeeded, which is what makes calls atomic.
#include "reference_store/memory_driver.hpp"

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <shared_mutex>
#include <utility>
#include <vector>

namespace opbase::host {
namespace {

using nlohmann::json;
using store::State;

// A document and what the store knows about it besides its JSON.
struct Record {
  std::string ns;
  std::string collection;
  std::optional<std::string> owner;  // `_userkey`; nullopt when missing or null
  State state = State::kActive;
  std::string ref;       // the tag of the last change_state, until a restore clears it
  int64_t state_ms = 0;  // when the document entered its state (change_state's at_ms)
  uint64_t seq = 0;      // insertion order, the starting order of a stable sort
  json doc;
};

// Keyed by `_key`, unique in the whole project, so key-ordered results come for free.
using Records = std::map<std::string, Record, std::less<>>;

std::optional<std::string> owner_of(const json& doc) {
  const auto it = doc.find("_userkey");
  if (it != doc.end() && it->is_string()) return it->get<std::string>();
  return std::nullopt;
}

Status check_document(const json& doc) {
  const auto key = doc.is_object() ? doc.find("_key") : doc.end();
  if (!doc.is_object() || key == doc.end() || !key->is_string() ||
      key->get_ref<const std::string&>().empty()) {
    return Status::validation("a document must be an object with a non-empty string _key",
                              {{"field", "documents"}});
  }
  const auto owner = doc.find("_userkey");
  if (owner != doc.end() && !owner->is_string() && !owner->is_null()) {
    return Status::validation("_userkey must be a string or null", {{"field", "_userkey"}});
  }
  return Status::ok();
}

// A change may rewrite anything but the identity of a document: its `_key` must stay, and its
// owner must remain a valid `_userkey`.
Status apply_checked(json& doc, const store::Change& change) {
  const json key = doc["_key"];
  if (Status applied = store::apply_change(doc, change); !applied) return applied;
  if (!doc.contains("_key") || doc["_key"] != key) {
    return Status::validation("a change may not alter _key", {{"field", "_key"}});
  }
  return check_document(doc);
}

Status duplicate_key(const std::string& key) {
  return Status(store::kDuplicateKey, "the _key '" + key + "' is taken in this project",
                {{"key", key}});
}

// The request's sort keys (empty: `_created_at` descending) plus the final `_key` tie-break in
// the last key's direction, which makes the order total.
std::vector<query::SortKey> full_sort(const std::vector<query::SortKey>& requested) {
  static const query::FieldPath created =
      *query::parse_path("_created_at", store::wire_parse_options());
  static const query::FieldPath key = *query::parse_path("_key", store::wire_parse_options());
  std::vector<query::SortKey> keys = requested;
  if (keys.empty()) keys.push_back({created, /*descending=*/true});
  keys.push_back({key, keys.back().descending});
  return keys;
}

void sort_records(std::vector<const Record*>& records, const std::vector<query::SortKey>& sort) {
  std::sort(records.begin(), records.end(),
            [](const Record* a, const Record* b) { return a->seq < b->seq; });
  const auto keys = full_sort(sort);
  std::stable_sort(records.begin(), records.end(), [&](const Record* a, const Record* b) {
    return query::compare_for_sort(a->doc, b->doc, keys) < 0;
  });
}

// What a read selects: the documents of one collection, state and scope that match.
struct Selection {
  std::string_view ns;
  std::string_view collection;
  const store::Scope& scope;
  State state;
  const query::Match& match;
};

bool selects(const Selection& s, const Record& r) {
  return r.ns == s.ns && r.collection == s.collection && r.state == s.state &&
         store::in_scope(s.scope, r.doc) && query::matches(s.match, r.doc);
}

class MemoryStore : public ProjectStore {
 public:
  using ProjectStore::change_state;
  using ProjectStore::insert;
  using ProjectStore::restore;
  using ProjectStore::update;
  using ProjectStore::upsert;

  Status insert(std::string_view ns, const TextInsert& texts, WriteEvents* events) override {
    const store::InsertRequest request = parse_documents(texts);
    std::unique_lock lock(mutex_);
    if (Status s = insert_locked(ns, request.collection, request.documents); !s) return s;
    if (events == nullptr) return Status::ok();
    std::vector<WrittenDocument> written;
    for (const json& doc : request.documents) written.push_back(written_of(events, true, doc));
    return journal_locked(events, written);
  }

  Result<std::string> find(std::string_view ns, const store::FindRequest& request) override {
    std::shared_lock lock(mutex_);
    auto chosen = select({ns, request.collection, request.scope, request.state, request.match});
    sort_records(chosen, request.sort);
    const auto size = static_cast<int64_t>(chosen.size());
    const int64_t begin = std::clamp<int64_t>(request.offset, 0, size);
    const int64_t end =
        request.limit < 0 || request.limit >= size - begin ? size : begin + request.limit;
    std::vector<json> page;
    for (int64_t i = begin; i < end; ++i) page.push_back(chosen[i]->doc);
    return find_answer_text(page, request.with_total ? size : -1);
  }

  Result<int64_t> count(std::string_view ns, const store::CountRequest& request) override {
    std::shared_lock lock(mutex_);
    return static_cast<int64_t>(
        select({ns, request.collection, request.scope, request.state, request.match}).size());
  }

  Result<store::UpdateAnswer> update(std::string_view ns, const store::UpdateRequest& request,
                                     WriteEvents* events) override {
    std::unique_lock lock(mutex_);
    // Changed copies by `_key`: later steps see earlier steps' changes; committed at the end.
    std::map<std::string, json, std::less<>> staged;
    std::map<std::string, json, std::less<>> before;  // as each was before its first step
    store::UpdateAnswer answer;
    for (const store::UpdateStep& step : request.steps) {
      for (const auto& [key, record] : records_) {
        if (record.ns != ns || record.collection != request.collection ||
            record.state != State::kActive) {
          continue;
        }
        const auto it = staged.find(key);
        json current = it != staged.end() ? it->second : record.doc;
        if (it == staged.end()) before[key] = record.doc;
        if (!store::in_scope(request.scope, current) || !query::matches(step.match, current)) {
          continue;
        }
        if (Status applied = apply_checked(current, step.change); !applied) return applied;
        answer.documents.push_back(current);
        staged[key] = std::move(current);
      }
    }
    for (auto& [key, doc] : staged) commit(records_.find(key)->second, std::move(doc));
    if (events != nullptr) {
      std::vector<WrittenDocument> written;
      for (const json& doc : answer.documents) {
        const std::string key = doc["_key"].get<std::string>();
        written.push_back(written_of(events, false, records_.find(key)->second.doc, before[key]));
      }
      if (Status s = journal_locked(events, written); !s) return s;
    }
    return answer;
  }

  Result<store::UpsertAnswer> upsert(std::string_view ns, const store::UpsertRequest& request,
                                     WriteEvents* events) override {
    std::unique_lock lock(mutex_);
    auto chosen = select({ns, request.collection, request.scope, State::kActive, request.match});
    if (chosen.empty()) {
      if (Status inserted = insert_locked(ns, request.collection, {request.insert}); !inserted) {
        return inserted;
      }
      if (Status s = journal_locked(events, {written_of(events, true, request.insert)}); !s) {
        return s;
      }
      return store::UpsertAnswer{request.insert, true};
    }
    sort_records(chosen, {});
    json changed = chosen.front()->doc;
    if (Status applied = apply_checked(changed, request.change); !applied) return applied;
    Record& record = records_.find(changed["_key"].get<std::string>())->second;
    const json was = record.doc;
    commit(record, changed);
    if (Status s = journal_locked(events, {written_of(events, false, changed, was)}); !s) return s;
    return store::UpsertAnswer{std::move(changed), false};
  }

  Result<store::KeysAnswer> change_state(std::string_view ns, const store::StateRequest& request,
                                         WriteEvents* events) override {
    std::unique_lock lock(mutex_);
    const Selection selection{ns, request.collection, request.scope, request.from, request.match};
    store::KeysAnswer answer;
    std::vector<WrittenDocument> written;
    for (auto& [key, record] : records_) {
      if (!selects(selection, record)) continue;
      record.state = request.to;
      record.ref = request.ref;
      record.state_ms = request.at_ms;
      answer.keys.push_back(key);
      written.push_back(written_of(events, false, record.doc, nullptr, write_of_move(request.to)));
    }
    if (Status s = journal_locked(events, written); !s) return s;
    return answer;
  }

  Result<store::KeysAnswer> restore(std::string_view ns, const store::RestoreRequest& request,
                                    WriteEvents* events) override {
    std::unique_lock lock(mutex_);
    store::KeysAnswer answer;
    std::vector<WrittenDocument> written;
    for (auto& [key, record] : records_) {
      if (record.ns != ns || record.collection != request.collection ||
          record.state == State::kActive || record.ref != request.ref ||
          !store::in_scope(request.scope, record.doc)) {
        continue;
      }
      record.state = State::kActive;
      record.ref.clear();
      answer.keys.push_back(key);
      written.push_back(written_of(events, false, record.doc, nullptr, "restore"));
    }
    if (Status s = journal_locked(events, written); !s) return s;
    return answer;
  }

  Result<int64_t> purge(std::string_view ns, const store::PurgeRequest& request) override {
    if (request.state == State::kActive) {
      return Status::validation("cannot purge active documents", {{"field", "state"}});
    }
    std::unique_lock lock(mutex_);
    const auto removed = std::erase_if(records_, [&](const auto& entry) {
      const Record& r = entry.second;
      return r.ns == ns && r.state == request.state && r.state_ms < request.before_ms;
    });
    return static_cast<int64_t>(removed);
  }

  Result<bool> collection_exists(std::string_view ns, std::string_view collection) override {
    std::shared_lock lock(mutex_);
    return collections_.contains({std::string(ns), std::string(collection)});
  }

  Result<std::vector<std::string>> collections(std::string_view ns) override {
    std::shared_lock lock(mutex_);
    std::vector<std::string> names;
    for (const auto& [in, name] : collections_) {
      if (in == ns) names.push_back(name);  // a std::set of pairs: by name within ns
    }
    return names;
  }

  Status ping() override { return Status::ok(); }

 private:
  // All or nothing: every document is checked (shape, `_key` free in the project and unique in
  // the batch) before the first one is stored.
  Status insert_locked(std::string_view ns, const std::string& collection,
                       const std::vector<json>& documents) {
    std::set<std::string, std::less<>> batch;
    for (const json& doc : documents) {
      if (Status checked = check_document(doc); !checked) return checked;
      const auto& key = doc["_key"].get_ref<const std::string&>();
      if (records_.contains(key) || !batch.insert(key).second) return duplicate_key(key);
    }
    for (const json& doc : documents) {
      Record record{std::string(ns), collection, owner_of(doc), State::kActive, {}, 0,
                    next_seq_++,     doc};
      records_.emplace(doc["_key"].get<std::string>(), std::move(record));
    }
    if (!documents.empty()) collections_.insert({std::string(ns), collection});
    return Status::ok();
  }

  // One document of a write as its events report it: its texts when they keep documents.
  static WrittenDocument written_of(const WriteEvents* events, bool inserted, const json& doc,
                                    const json& before = nullptr,
                                    std::string_view write = "update") {
    const bool texts = events != nullptr && events->wants_documents();
    return {doc["_key"].get<std::string>(), inserted, texts ? doc.dump() : "",
            texts && !before.is_null() ? before.dump() : "", write};
  }

  // The write's journal records, under the same lock as the write. Their keys are random and
  // new, so the insert cannot fail on a taken key and leave the write without them.
  Status journal_locked(WriteEvents* events, const std::vector<WrittenDocument>& written) {
    if (events == nullptr) return Status::ok();
    events->report(written);
    for (const JournalRecord& record : events->records()) {
      if (Status s =
              insert_locked(record.ns, std::string(store::kEventsCollection), {record.document});
          !s) {
        return s;
      }
    }
    return Status::ok();
  }

  // The records a read selects, in insertion order.
  std::vector<const Record*> select(const Selection& selection) const {
    std::vector<const Record*> chosen;
    for (const auto& [key, record] : records_) {
      if (selects(selection, record)) chosen.push_back(&record);
    }
    return chosen;
  }

  static void commit(Record& record, json doc) {
    record.owner = owner_of(doc);
    record.doc = std::move(doc);
  }

  std::shared_mutex mutex_;  // guards everything below
  Records records_;
  std::set<std::pair<std::string, std::string>> collections_;  // (ns, collection) ever inserted
  uint64_t next_seq_ = 0;
};

}  // namespace

Result<std::shared_ptr<ProjectStore>> MemoryDriver::open(std::string_view project_id) {
  std::lock_guard lock(mutex_);
  auto it = projects_.find(project_id);
  if (it == projects_.end()) {
    it = projects_.emplace(std::string(project_id), std::make_shared<MemoryStore>()).first;
  }
  return it->second;
}

}  // namespace opbase::host
