#include "opbase/store_access.hpp"

#include <stdexcept>
#include <string>

namespace opbase {

query::Match match_of(const nlohmann::json& fields) {
  auto match = query::parse_match(fields, store::wire_parse_options());
  if (!match) throw std::logic_error("bad internal match: " + match.status().message());
  return std::move(*match);
}

store::Change set_fields(nlohmann::json fields) {
  store::Change change;
  change.set = std::move(fields);
  return change;
}

Result<std::optional<nlohmann::json>> find_by_key(const DocumentStore& store,
                                                  std::string_view project,
                                                  std::string_view collection,
                                                  std::string_view key) {
  store::FindRequest find;
  find.collection = std::string(collection);
  find.scope = store::Scope::everyone();
  find.match = match_of({{"_key", key}});
  find.limit = 1;
  auto found = store.find(project, find);
  if (!found) return found.status();
  if (found->documents.empty()) return std::optional<nlohmann::json>();
  return std::optional<nlohmann::json>(std::move(found->documents.front()));
}

Result<store::UpdateAnswer> update_where(const DocumentStore& store, std::string_view project,
                                         std::string_view collection, const nlohmann::json& match,
                                         store::Change change, store::Events events) {
  store::UpdateRequest request;
  request.collection = std::string(collection);
  request.scope = store::Scope::everyone();
  request.steps.push_back({match_of(match), std::move(change)});
  request.events = std::move(events);
  return store.update(project, request);
}

Result<bool> update_matched(const DocumentStore& store, std::string_view project,
                            std::string_view collection, const nlohmann::json& match,
                            store::Change change) {
  auto answer = update_where(store, project, collection, match, std::move(change));
  if (!answer) return answer.status();
  return !answer->documents.empty();
}

namespace {

store::StateRequest state_change(std::string_view collection, const nlohmann::json& match,
                                 store::State from, store::State to, int64_t now_ms) {
  store::StateRequest request;
  request.collection = std::string(collection);
  request.scope = store::Scope::everyone();
  request.match = match_of(match);
  request.from = from;
  request.to = to;
  request.ref = std::string(collection) + "_idle";
  request.at_ms = now_ms;
  return request;
}

}  // namespace

Status insert_or_revive(const DocumentStore& store, std::string_view project,
                        std::string_view collection, nlohmann::json doc) {
  const nlohmann::json key = doc.value("_key", nlohmann::json());
  Status inserted = store.insert(project, {std::string(collection), {std::move(doc)}});
  if (inserted.code() != store::kDuplicateKey) return inserted;
  auto revived =
      store.change_state(project, state_change(collection, {{"_key", key}}, store::State::kDeleted,
                                               store::State::kActive, /*now_ms=*/0));
  return revived ? inserted : revived.status();
}

Status sweep(const DocumentStore& store, std::string_view project, std::string_view collection,
             const nlohmann::json& match, int64_t now_ms) {
  return store
      .change_state(project, state_change(collection, match, store::State::kActive,
                                          store::State::kDeleted, now_ms))
      .status();
}

}  // namespace opbase
