// Small pieces for a plugin that keeps its own records (counters, codes, settings) in the
// project's store: a match from match syntax with the `_` names such records use, a change that
// sets fields, a read by `_key`, and the life of records that are swept when idle and brought
// back when needed again (docs/plugin-guide.md#the-document-store).
// Thread-safety: pure functions, and DocumentStore calls (safe from any thread).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "opbase/document_store.hpp"
#include "opbase/query.hpp"
#include "opbase/status.hpp"
#include "opbase/store.hpp"

namespace opbase {

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

// update_where for one document: whether `match` selected it (and `change` was applied).
Result<bool> update_matched(const DocumentStore& store, std::string_view project,
                            std::string_view collection, const nlohmann::json& match,
                            store::Change change);

// Inserts `doc`. When its `_key` is taken, returns kDuplicateKey; if the holder was a document
// swept to the deleted state (see sweep), it is first made active again, so the caller's next
// conditional update finds it (with the values it was swept with, which say "idle").
Status insert_or_revive(const DocumentStore& store, std::string_view project,
                        std::string_view collection, nlohmann::json doc);

// Moves the active documents `match` selects to the deleted state, where the plugin's purge of
// deleted documents (DocumentStore::purge, which the plugin runs) removes them for good. For
// documents that mean nothing any more (a full rate bucket, an expired record); insert_or_revive
// brings one back if its key is needed before the purge.
Status sweep(const DocumentStore& store, std::string_view project, std::string_view collection,
             const nlohmann::json& match, int64_t now_ms);

}  // namespace opbase
