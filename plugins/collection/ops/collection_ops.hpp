// The datastore ops (docs/api.md#the-datastore) over the project's DocumentStore:
// find, insert, update, upsert, count, delete, archive, restore, and the statement form of
// insert. Each op acts on the documents the collection's rules let the caller reach for its
// action (rules/caller_access.hpp: by default their own), but under the administrators' names
// collection.admin.find, .count, .update, .delete and .restore the same handlers act on every
// user's; collection.admin.list names the collections with their counts.
// Thread-safety: handlers run concurrently; the shared caches are guarded.
#pragma once

#include <map>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>

#include "opbase/document_store.hpp"
#include "opbase/host.hpp"
#include "opbase/op.hpp"
#include "opbase/query.hpp"
#include "rules/caller_access.hpp"
#include "rules/rule_book.hpp"
#include "settings.hpp"

namespace opbase::collection {

class CollectionOps {
 public:
  CollectionOps(const Host& host, Settings settings);

  Result<Reply> find(const Request& request);
  Result<Reply> insert(const Request& request);
  Result<Reply> statement(const Request& request);
  Result<Reply> update(const Request& request);
  Result<Reply> upsert(const Request& request);
  Result<Reply> count(const Request& request);
  Result<Reply> remove(const Request& request);  // collection.delete
  Result<Reply> archive(const Request& request);
  Result<Reply> restore(const Request& request);
  Result<Reply> list_collections(const Request& request);  // collection.admin.list
  // collection.admin.claim: anonymous documents given to an existing user.
  Result<Reply> claim(const Request& request);

  // The service collection.read_access, for a live query of another plugin: `input` names the
  // caller ("user_id", "claims": their token's) and what collection.find would read
  // ("collection", "match", "filter", "project"). The fields are checked as find checks them,
  // with the same refusals (AUTHENTICATION_FAILED for a caller without a token whom the rules
  // do not let read); the answer is {"scope": the store scope of the documents the caller may
  // read (store::scope_to_json), or null when none}. With "all_users": true, every user's
  // documents, as collection.admin.find reads them: FORBIDDEN but for a token with the admin
  // role.
  Result<nlohmann::json> read_access(std::string_view project_id, const nlohmann::json& input);

  // How users' queries are parsed: the base properties addressable, limits at limit_cap.
  const query::ParseOptions& user_query() const { return user_query_; }
  const RuleBook& rules() const { return rule_book_; }

 private:
  // The documents the caller may take `action` on, or nullopt when the rules grant them none
  // (for read, and for a write on a collection they cannot read: then those documents are
  // simply absent). A refusal to say is the answer's status: AUTHENTICATION_FAILED without a
  // token, FORBIDDEN for a write on a collection the caller reads.
  Result<std::optional<store::Scope>> scope_of(const Request& request,
                                               const std::string& collection, Action action);
  // AUTHENTICATION_FAILED for a caller without a token unless `collection` is a valid name whose
  // rules say `anyone` for every one of `actions`: checked before anything else, so such a
  // caller learns nothing from the other checks (as when every op needed a sign-in).
  Status admit(const Request& request, const nlohmann::json& collection,
               std::initializer_list<Action> actions);
  // FORBIDDEN when the caller may read a document `match` selects but not take `action` on it,
  // or when `sharing` and they do not own it (docs/api.md#who-may-read-and-change-a-document).
  Status refuse_unreachable(const Request& request, const std::string& collection,
                            const store::Scope& action_scope, const query::Match& match,
                            Action action, bool sharing);
  // The reserved fields a new document takes from `data`: its sharing lists, which only a
  // signed-in creator (its owner) sets.
  Result<nlohmann::json> sharing_of_new(const Request& request, const nlohmann::json& data,
                                        int64_t index) const;
  Result<Reply> insert_documents(const Request& request, const std::string& collection,
                                 const nlohmann::json& data);
  Result<nlohmann::json> owner_for_insert(const Request& request, const std::string& collection);
  bool acts_as_admin(const Request& request) const;
  Status require_collection(std::string_view project, const std::string& collection);
  Result<Reply> move_state(const Request& request, store::State to, std::string_view event);
  void purge_if_due(std::string_view project, bool force);
  static store::Events events_of(std::string on_insert, std::string on_change,
                                 const std::string& collection);
  Result<store::FindAnswer> find_with_lookup(const Request& request, store::FindRequest query,
                                             const nlohmann::json& lookup,
                                             const query::Match& filter,
                                             const query::Paging& paging);

  const Host& host_;
  DocumentStore store_;
  Settings settings_;
  query::ParseOptions user_query_;  // users' limits; base properties addressable
  RuleBook rule_book_;

  std::shared_mutex known_mutex_;
  std::set<std::string, std::less<>> known_collections_;  // "<project>/<name>": exist for good
  std::mutex purge_mutex_;
  std::map<std::string, int64_t, std::less<>> last_purge_ms_;
};

}  // namespace opbase::collection
