// The text path of store.insert (see insert_text.hpp).
#include "store/insert_text.hpp"

#include "opbase/json_text.hpp"
#include "store/document_store.hpp"

namespace opbase::host {
namespace {

using json_text::top_level_member;
using nlohmann::json;

// The errors of store::decode_insert, word for word, so both paths answer alike.
Status bad_documents(std::string_view what) {
  return Status::validation("store request: 'documents' " + std::string(what),
                            {{"field", "documents"}});
}

// A member's raw text parsed (it was validated with its document, so this cannot fail).
json parsed(std::string_view raw) { return json::parse(raw); }

// The collection and events, checked by the one decoder of the tree path: they are small.
Result<TextInsert> decode_head(std::string_view wire) {
  json head = json::object();
  if (auto collection = top_level_member(wire, "collection"))
    head["collection"] = parsed(*collection);
  if (auto events = top_level_member(wire, "events")) head["events"] = parsed(*events);
  head["documents"] = json::array();
  auto decoded = store::decode_insert(std::move(head));
  if (!decoded) return decoded.status();
  return TextInsert{std::move(decoded->collection), std::move(decoded->events)};
}

Result<TextDocument> decode_document(std::string_view text) {
  const auto missing_key = [] {
    return bad_documents("must hold objects with a non-empty string _key");
  };
  if (text.front() != '{') return missing_key();
  const auto key = top_level_member(text, "_key");
  if (!key || key->front() != '"' || *key == "\"\"") return missing_key();
  TextDocument doc{text, parsed(*key).get<std::string>(), nullptr, nullptr};
  if (const auto owner = top_level_member(text, "_userkey")) {
    doc.owner = parsed(*owner);
    if (!doc.owner.is_string() && !doc.owner.is_null()) {
      return bad_documents("_userkey must be a string or null");
    }
  }
  if (const auto created = top_level_member(text, "_created_at")) {
    doc.created = parsed(*created);
    if (!doc.created.is_string() && !doc.created.is_number() && !doc.created.is_null()) {
      return bad_documents("_created_at must be a string, a number or null");
    }
  }
  return doc;
}

}  // namespace

Result<TextInsert> decode_insert_text(std::string_view wire) {
  // nlohmann's parser, the tree path's, skips a BOM at the very start; is_object does not.
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (wire.starts_with(kBom)) wire.remove_prefix(kBom.size());
  if (!json_text::is_object(wire)) return Status::validation("store request is not a JSON object");
  auto request = decode_head(wire);
  if (!request) return request.status();
  const auto documents = top_level_member(wire, "documents");
  const auto items = documents ? json_text::array_items(*documents) : std::nullopt;
  if (!items) return bad_documents("must be an array");
  request->documents.reserve(items->size());
  for (const std::string_view text : *items) {
    auto doc = decode_document(text);
    if (!doc) return doc.status();
    request->documents.push_back(std::move(*doc));
  }
  return request;
}

store::InsertRequest parse_documents(const TextInsert& request) {
  store::InsertRequest out{request.collection, {}, request.events};
  out.documents.reserve(request.documents.size());
  for (const TextDocument& doc : request.documents) out.documents.push_back(parsed(doc.text));
  return out;
}

Status ProjectStore::insert_texts(std::string_view ns, const TextInsert& request,
                                  WriteEvents* events) {
  return insert(ns, parse_documents(request), events);
}

}  // namespace opbase::host
