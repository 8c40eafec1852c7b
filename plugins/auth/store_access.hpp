// Small pieces every auth component uses on the project's store: a match from match syntax with
// the `_` names the plugin's own documents use, a change that sets fields, and a read by `_key`.
// Thread-safety: pure functions, and DocumentStore calls (safe from any thread).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "opbase/document_store.hpp"
#include "opbase/query.hpp"
#include "opbase/status.hpp"
#include "opbase/store.hpp"

namespace opbase::auth {

// The match of `fields` (match syntax, `_` names allowed). Throws std::logic_error for a
// malformed match: only the plugin's own constant shapes come here.
query::Match match_of(const nlohmann::json& fields);

// A change that sets `fields` (top-level names or dot paths).
store::Change set_fields(nlohmann::json fields);

// The active document `key` of `collection` (any owner), or nullopt.
Result<std::optional<nlohmann::json>> find_by_key(const DocumentStore& store,
                                                  std::string_view project,
                                                  std::string_view collection,
                                                  std::string_view key);

// Applies `change` to the documents `match` selects in `collection` (any owner): the documents
// after the change, none when nothing matched (how a compare-and-set reads). `events` are raised
// by the store for each changed document, in the write's transaction.
Result<store::UpdateAnswer> update_where(const DocumentStore& store, std::string_view project,
                                         std::string_view collection, const nlohmann::json& match,
                                         store::Change change, store::Events events = {});

}  // namespace opbase::auth
