#include "journal/journal_reader.hpp"

#include <nlohmann/json.hpp>

#include "opbase/store.hpp"

namespace opbase::realtime {
namespace {

using nlohmann::json;

// The `_key` of a record is "<id>.realtime": ids have one length, so keys sort as ids do.
constexpr std::string_view kSuffix = ".realtime";
// Above every event's key ("evt_" and hex digits), below any other.
constexpr std::string_view kKeysEnd = "evt_g";

Result<query::Match> match_of(const json& match) {
  return query::parse_match(match, store::wire_parse_options());
}

Result<std::vector<query::SortKey>> by_key(bool ascending) {
  return query::parse_sort(ascending ? "_key asc" : "_key desc", store::wire_parse_options());
}

std::string id_of(const json& record) {
  const auto it = record.find("id");
  return it != record.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

std::string record_key(std::string_view id) { return std::string(id) + std::string(kSuffix); }

Result<std::string> JournalReader::newest(std::string_view project) const {
  store::FindRequest find;
  find.collection = std::string(store::kEventsCollection);
  find.scope = store::Scope::everyone();
  auto sort = by_key(false);
  if (!sort) return sort.status();
  find.sort = std::move(*sort);
  find.limit = 1;
  auto found = store_.find(project, find);
  if (!found) return found.status();
  return found->documents.empty() ? std::string() : id_of(found->documents.front());
}

Result<std::vector<JournalEvent>> JournalReader::after(std::string_view project,
                                                       std::string_view after, int64_t limit,
                                                       std::string& last) const {
  store::FindRequest find;
  find.collection = std::string(store::kEventsCollection);
  find.scope = store::Scope::everyone();
  // Bounded above too: on sqlite the store walks its index of every key from the first, and keys
  // after the events' ("rtc_...", other collections' random hex from 'f') are not to be walked.
  json range = {{"_key:$lt", std::string(kKeysEnd)}};
  if (!after.empty()) range["_key:$gt"] = record_key(after);
  auto match = match_of(range);
  if (!match) return match.status();
  find.match = std::move(*match);
  auto sort = by_key(true);
  if (!sort) return sort.status();
  find.sort = std::move(*sort);
  find.limit = limit;
  auto found = store_.find(project, find);
  if (!found) return found.status();
  std::vector<JournalEvent> events;
  events.reserve(found->documents.size());
  for (const json& record : found->documents) {
    last = id_of(record);
    if (auto event = JournalEvent::from_record(record)) events.push_back(std::move(*event));
  }
  return events;
}

Result<int64_t> JournalReader::purge(std::string_view project, int64_t before_ms,
                                     int64_t now_ms) const {
  auto match = match_of(json{{"_created_at:$lt", before_ms}});
  if (!match) return match.status();
  store::StateRequest old;
  old.collection = std::string(store::kEventsCollection);
  old.scope = store::Scope::everyone();
  old.match = std::move(*match);
  old.to = store::State::kDeleted;
  old.ref = "retention";
  old.at_ms = now_ms;
  auto moved = store_.change_state(project, old);
  if (!moved) return moved.status();
  // Every deleted record of this namespace may go: a purged event, or a stream or subscription
  // that ended.
  return store_.purge(project, {store::State::kDeleted, now_ms + 1});
}

}  // namespace opbase::realtime
