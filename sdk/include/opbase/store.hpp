// The requests and results of the host's DocumentStore (docs/plugin-guide.md#the-document-store):
// the one storage interface every plugin uses, whatever the driver (sqlite or mongodb). They cross
// the plugin edge as JSON through the host services `store.*`; this file is the one place that
// names the fields of that JSON, used by the SDK client (document_store.hpp) and by the host.
//
// The model. A project's store holds documents: JSON objects that carry a string `_key` (unique
// in the whole project store) and an owner `_userkey` (a string, or null for documents nobody
// owns). Each plugin has its own namespace of collections, chosen by the host from the calling
// plugin's name, so no plugin can read another's collections. A document is active, deleted or
// archived; only active documents are seen unless a request asks for another state. A
// document's `_created_at`, which the default order sorts by, is a string, a number, null or
// absent (insert refuses other types). Queries are
// the parsed trees of query.hpp; the store evaluates them with exactly the reference semantics.
// Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/query.hpp"
#include "opbase/status.hpp"

namespace opbase::store {

enum class State { kActive, kDeleted, kArchived };
std::string_view state_name(State state);  // "active", "deleted", "archived"
Result<State> parse_state(std::string_view name);

// Whose documents a request may see or change: one owner's; everyone's (system work, and a
// collection its rules open to every caller); or those a user owns together with those whose
// sharing lists name them (docs/api.md#who-may-read-and-change-a-document). There is no
// default, so no caller forgets to restrict a query.
struct Scope {
  std::optional<std::string> owner;  // the documents whose `_userkey` is this
  // Also the documents whose top-level field named in `lists` (an array, or one value) holds
  // one of `principals`. Both empty with no owner: every document.
  std::vector<std::string> principals;
  std::vector<std::string> lists;

  static Scope user(std::string user_key) { return Scope{std::move(user_key), {}, {}}; }
  static Scope everyone() { return Scope{std::nullopt, {}, {}}; }
  // `owner` may be nullopt (shared documents only); `principals` and `lists` must not be empty.
  static Scope shared(std::optional<std::string> owner, std::vector<std::string> principals,
                      std::vector<std::string> lists) {
    return Scope{std::move(owner), std::move(principals), std::move(lists)};
  }
  bool every_document() const { return !owner && principals.empty(); }
  bool shares() const { return !principals.empty() && !lists.empty(); }
  bool operator==(const Scope&) const = default;
};

// Whether `doc` is in the scope: the reference every driver's query agrees with.
bool in_scope(const Scope& scope, const nlohmann::json& doc);

// A scope as JSON, the form of the store services' requests ("owner", "every_owner",
// "shared_with", "lists"), for a scope one plugin works out and another applies; and back,
// refusing one that names nobody without "every_owner": true.
nlohmann::json scope_to_json(const Scope& scope);
Result<Scope> scope_from_json(const nlohmann::json& json);

// Changes applied to a document: keys are dot paths (any names; the plugin decides what its
// users may touch). `set` creates missing parent objects; `inc` adds a number (a missing field
// counts as 0); `unset` removes. A parent that is not an object, or `inc` on a non-number, fails
// the whole request with VALIDATION_ERROR.
struct Change {
  nlohmann::json set = nlohmann::json::object();
  nlohmann::json inc = nlohmann::json::object();
  std::vector<std::string> unset{};
  bool empty() const { return set.empty() && inc.empty() && unset.empty(); }
};

// The events a write raises (docs/api.md#events): one per document it inserts or
// changes. The host publishes them on the event bus once the write is durable; for plugins that
// subscribed durably (Registrar::subscribe_durable) it also keeps each one as a document in that
// plugin's `_events` collection, written in the write's own transaction on sqlite. A plugin that
// states its events here, instead of publishing after the write, cannot lose one to a crash
// between the two. Payload: {"_key": <the document's _key, or `key` when set>, "collection":
// <collection>} (no "collection" when it is empty).
struct Events {
  std::string on_insert;   // the type raised for each inserted document; empty: none
  std::string on_change;   // for each updated, state-changed or restored document; empty: none
  std::string collection;  // the payload's "collection"; empty leaves it out
  std::string key;         // the payload's "_key" for every event; empty: each document's own
  bool empty() const { return on_insert.empty() && on_change.empty(); }
};

// The collection, in a durable subscriber's own namespace, that holds the events kept for it.
// Each document: {"_key": "<id>.<plugin>", "_userkey": null, "_created_at": <time_ms>, "id":
// "evt_<32 hex>" (the same for every subscriber of one event; the write's time in milliseconds,
// a sequence number and the daemon's own number, so a daemon's ids grow in the order its writes
// were made), "type", "project", "data": <the payload object>, "time_ms": <the write's time>},
// and for a subscriber of documents (subscribe_durable_documents) "write" ("insert",
// "update", "archive", "delete" or "restore"), "document" and, for an update, "before". The
// subscriber reads them with find (oldest first: sort "_created_at asc", or "_key asc") and removes
// the ones it has handled with change_state + purge.
inline constexpr std::string_view kEventsCollection = "_events";

// An insert of documents the caller already holds as JSON text (each an object with a non-empty
// string `_key`): the one form store.insert takes. The texts go to the store as they are, with
// no tree built or printed on either side; the host checks them as it checks any insert and
// refuses the whole request if one is not JSON. No object in a text may repeat a key: the sqlite
// store keeps a text as it came, and its queries see the first of repeated keys where reads (and
// the other drivers) take the last, as nlohmann does. A text nlohmann printed never repeats one.
struct InsertTextRequest {
  std::string collection;
  std::vector<std::string> documents;
  Events events{};
};

// The same insert for callers holding documents as trees: printed into an InsertTextRequest
// (printed()) before it is sent.
struct InsertRequest {
  std::string collection;
  std::vector<nlohmann::json> documents;  // each an object with a string `_key`
  Events events{};
};

struct FindRequest {
  std::string collection;
  Scope scope;
  State state = State::kActive;
  query::Match match;
  // Empty: `_created_at` descending. Ties are broken by `_key`, in the last key's direction, so
  // every driver returns the same order.
  std::vector<query::SortKey> sort;
  int64_t offset = 0;
  int64_t limit = 100;  // -1: no limit
  bool with_total = false;
};

struct FindAnswer {
  std::vector<nlohmann::json> documents;
  int64_t total = -1;  // documents matching before offset/limit, when asked for
};
// The same answer with the documents left as the JSON text of one array, for callers that pass
// them on unchanged: a page of documents is then never parsed and printed again on its way out.
struct FindTextAnswer {
  std::string documents;  // a JSON array
  int64_t count = 0;      // elements in `documents`
  int64_t total = -1;
};

struct CountRequest {
  std::string collection;
  Scope scope;
  State state = State::kActive;
  query::Match match;
};

// Every step in one transaction: all apply or none. Each step changes every active document of
// the scope its match selects.
struct UpdateStep {
  query::Match match;
  Change change;
};
struct UpdateRequest {
  std::string collection;
  Scope scope;
  std::vector<UpdateStep> steps;
  Events events{};  // on_change for each document of the answer
};
// The documents after their change, step by step and within a step in `_key` order (a document
// changed by two steps appears twice).
struct UpdateAnswer {
  std::vector<nlohmann::json> documents;
};

// Applies `change` to the first matching active document (in default sort order), or inserts
// `insert` when none matches, atomically on one daemon.
struct UpsertRequest {
  std::string collection;
  Scope scope;
  query::Match match;
  Change change;
  nlohmann::json insert;
  Events events{};  // on_insert or on_change, whichever happened
};
struct UpsertAnswer {
  nlohmann::json document;
  bool inserted = false;
};

// Moves the matching documents in state `from` to state `to`, tagging them with `ref` and the
// time, so a later restore can find exactly this set.
struct StateRequest {
  std::string collection;
  Scope scope;
  query::Match match;
  State from = State::kActive;
  State to = State::kDeleted;
  std::string ref;
  int64_t at_ms = 0;
  Events events{};  // on_change for each document moved
};
// Makes the documents tagged `ref` active again.
struct RestoreRequest {
  std::string collection;
  Scope scope;
  std::string ref;
  Events events{};  // on_change for each document restored
};
struct KeysAnswer {
  std::vector<std::string> keys;  // the documents changed, in `_key` order
};

// Removes for good every document (of every collection and owner in the namespace) that entered
// `state` before `before_ms`.
struct PurgeRequest {
  State state = State::kDeleted;
  int64_t before_ms = 0;
};

// The query options a store uses to read a plugin's trees back: every `_` name allowed, limits
// only as a guard (the plugin applied its users' limits already).
const query::ParseOptions& wire_parse_options();

// Applies a change to one document in memory: the reference every driver follows.
Status apply_change(nlohmann::json& document, const Change& change);

// The code of a `_key` that is already taken (insert): the plugin decides what it means.
inline constexpr std::string_view kDuplicateKey = "DUPLICATE_KEY";

}  // namespace opbase::store
