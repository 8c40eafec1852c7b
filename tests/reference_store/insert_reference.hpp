// The rules of a store.insert request written plainly on the parsed request: the reference the
// host's text decoder (host/store/insert_text.hpp), which never parses a document, is held to.
// A request is refused exactly when this refuses it, with the same code, message and details.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "opbase/internal/store_codec.hpp"
#include "opbase/status.hpp"
#include "opbase/store.hpp"

namespace opbase::test {

inline Status bad_insert_documents(std::string_view what) {
  return Status::validation("store request: 'documents' " + std::string(what),
                            {{"field", "documents"}});
}

// The request parsed, checked, and its documents as trees.
inline Result<store::InsertRequest> decode_insert_reference(std::string_view wire) {
  using nlohmann::json;
  json parsed = json::parse(wire, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    return Status::validation("store request is not a JSON object");
  }
  auto head = store::decode_insert_head(parsed);
  if (!head) return head.status();
  const auto documents = parsed.find("documents");
  if (documents == parsed.end() || !documents->is_array()) {
    return bad_insert_documents("must be an array");
  }
  store::InsertRequest out{head->collection, {}, head->events};
  for (json& doc : *documents) {
    const auto key = doc.is_object() ? doc.find("_key") : doc.end();
    if (!doc.is_object() || key == doc.end() || !key->is_string() ||
        key->get_ref<const std::string&>().empty()) {
      return bad_insert_documents("must hold objects with a non-empty string _key");
    }
    const auto owner = doc.find("_userkey");
    if (owner != doc.end() && !owner->is_string() && !owner->is_null()) {
      return bad_insert_documents("_userkey must be a string or null");
    }
    const auto created = doc.find("_created_at");
    if (created != doc.end() && !created->is_string() && !created->is_number() &&
        !created->is_null()) {
      return bad_insert_documents("_created_at must be a string, a number or null");
    }
    out.documents.push_back(std::move(doc));
  }
  return out;
}

}  // namespace opbase::test
