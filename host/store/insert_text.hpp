// A store.insert request read from its JSON text without parsing its documents. A plugin that
// writes many small documents (the webhooks outbox writes one per event and endpoint) would
// otherwise pay for each three times: a parse into a tree here, a print back into text for the
// store, and freeing the tree. Each document is checked with json_text instead (the same rules
// as nlohmann's parser), and only the members the store files it under are read from it; a
// driver that keeps documents as text stores it as it came (ProjectStore::insert). Texts are not
// checked for repeated keys (sdk store.hpp InsertTextRequest: the sender's promise).
// Pure; thread-safe.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/status.hpp"
#include "opbase/store.hpp"

namespace opbase::host {

struct TextDocument {
  std::string_view text;   // a JSON object, a view into the request's text
  std::string key;         // its `_key`
  nlohmann::json owner;    // its `_userkey`: a string, or null (also when absent)
  nlohmann::json created;  // its `_created_at`: a string, a number, or null (also when absent)
};

struct TextInsert {
  std::string collection;
  store::Events events{};
  std::vector<TextDocument> documents{};
};

// Checks `wire`, the text of a store.insert request, and returns views into it: `wire` must
// outlive the result.
Result<TextInsert> decode_insert_text(std::string_view wire);

// What every store service returns for a request that is not a JSON object.
Status not_a_json_object();

// The same request with each document parsed, for a driver that keeps trees.
store::InsertRequest parse_documents(const TextInsert& request);

}  // namespace opbase::host
