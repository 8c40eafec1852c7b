// The JSON of the document store's requests (opbase/store.hpp), both ways: the SDK client
// (document_store.cpp) encodes them, the host decodes them. Host and SDK only: a plugin speaks
// to the store through DocumentStore, or, in C, sends this JSON itself
// (docs/plugin-guide.md#the-document-store-store). Pure functions; thread-safe.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "opbase/query.hpp"
#include "opbase/status.hpp"
#include "opbase/store.hpp"

namespace opbase::store {

// JSON of each request, and back. decode_* fail with VALIDATION_ERROR naming the field.
nlohmann::json encode(const FindRequest& request);
nlohmann::json encode(const CountRequest& request);
nlohmann::json encode(const UpdateRequest& request);
nlohmann::json encode(const UpsertRequest& request);
nlohmann::json encode(const StateRequest& request);
nlohmann::json encode(const RestoreRequest& request);
nlohmann::json encode(const PurgeRequest& request);
// The text of store.insert: {"collection":..,"events":..,"documents":[<the texts as they are>]}.
std::string encode_text(const InsertTextRequest& request);
// Each document printed: the tree form's way onto the text path.
InsertTextRequest printed(const InsertRequest& request);

// What store.insert holds besides its documents (the host reads those from the text, without
// parsing them: the documents' rules are in docs/plugin-guide.md#storeinsert).
struct InsertHead {
  std::string collection;
  Events events{};
};
Result<InsertHead> decode_insert_head(const nlohmann::json& wire);
Result<FindRequest> decode_find(const nlohmann::json& wire);
Result<CountRequest> decode_count(const nlohmann::json& wire);
Result<UpdateRequest> decode_update(const nlohmann::json& wire);
Result<UpsertRequest> decode_upsert(const nlohmann::json& wire);
Result<StateRequest> decode_state(const nlohmann::json& wire);
Result<RestoreRequest> decode_restore(const nlohmann::json& wire);
Result<PurgeRequest> decode_purge(const nlohmann::json& wire);

// The match tree back in match syntax ({"price:$gt": 10, ...}), and a sort in sort syntax.
nlohmann::json match_to_json(const query::Match& match);
std::string sort_to_text(const std::vector<query::SortKey>& sort);

}  // namespace opbase::store
