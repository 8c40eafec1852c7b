// The text path of store.insert (see insert_text.hpp).
#include "store/insert_text.hpp"

#include <array>

#include "opbase/field_error.hpp"
#include "opbase/internal/store_codec.hpp"
#include "opbase/json_text.hpp"

namespace opbase::host {
namespace {

using nlohmann::json;

// The errors of the SDK codec's document check (store_codec.cpp), word for word, so a document
// that upsert refuses is refused here alike.
Status bad_documents(std::string_view what) {
  return field_error("documents", "store request: 'documents' " + std::string(what));
}

// A member's raw text parsed (it was validated with its document, so this cannot fail). Strings
// and null, what keys, owners and times mostly are, skip the parser.
json parsed(std::string_view raw) {
  if (auto text = json_text::string_value(raw)) return std::move(*text);
  if (raw == "null") return nullptr;
  return json::parse(raw);
}

template <std::size_t N>
using Members = std::array<std::optional<std::string_view>, N>;

enum WireMember : std::size_t { kCollection, kEvents, kDocuments };
constexpr std::array<std::string_view, 3> kWireNames = {"collection", "events", "documents"};
enum DocumentMember : std::size_t { kKey, kOwner, kCreated };
constexpr std::array<std::string_view, 3> kDocumentNames = {"_key", "_userkey", "_created_at"};

// The collection and events, parsed and checked by the codec: they are small.
Result<TextInsert> decode_head(const Members<3>& wire) {
  json head = json::object();
  if (wire[kCollection]) head["collection"] = parsed(*wire[kCollection]);
  if (wire[kEvents]) head["events"] = parsed(*wire[kEvents]);
  auto decoded = store::decode_insert_head(head);
  if (!decoded) return decoded.status();
  return TextInsert{std::move(decoded->collection), std::move(decoded->events)};
}

Result<TextDocument> decode_document(std::string_view text) {
  const auto missing_key = [] {
    return bad_documents("must hold objects with a non-empty string _key");
  };
  if (text.front() != '{') return missing_key();
  // One pass for the three members (the text was checked with the request it came in).
  Members<3> members;
  json_text::top_level_members(text, kDocumentNames, members);
  const auto& key = members[kKey];
  if (!key || key->front() != '"' || *key == "\"\"") return missing_key();
  TextDocument doc{text, parsed(*key).get<std::string>(), nullptr, nullptr};
  if (const auto& owner = members[kOwner]) {
    doc.owner = parsed(*owner);
    if (!doc.owner.is_string() && !doc.owner.is_null()) {
      return bad_documents("_userkey must be a string or null");
    }
  }
  if (const auto& created = members[kCreated]) {
    doc.created = parsed(*created);
    if (!doc.created.is_string() && !doc.created.is_number() && !doc.created.is_null()) {
      return bad_documents("_created_at must be a string, a number or null");
    }
  }
  return doc;
}

// Whether `wire`'s first character other than a blank opens an object (a BOM does not: nlohmann
// takes one only as the very first bytes, removed before this).
bool opens_an_object(std::string_view wire) {
  const std::size_t first = wire.find_first_not_of(" \t\n\r");
  return first != std::string_view::npos && wire[first] == '{';
}

}  // namespace

Result<TextInsert> decode_insert_text(std::string_view wire) {
  // nlohmann's parser, the tree path's, skips a BOM at the very start.
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (wire.starts_with(kBom)) wire.remove_prefix(kBom.size());
  // One pass checks the whole request, documents included, and finds its three members.
  Members<3> members;
  if (!opens_an_object(wire) || !json_text::top_level_members(wire, kWireNames, members)) {
    return not_a_json_object();
  }
  auto request = decode_head(members);
  if (!request) return request.status();
  const auto& documents = members[kDocuments];
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

Status not_a_json_object() { return Status::validation("store request is not a JSON object"); }

store::InsertRequest parse_documents(const TextInsert& request) {
  store::InsertRequest out{request.collection, {}, request.events};
  out.documents.reserve(request.documents.size());
  for (const TextDocument& doc : request.documents) out.documents.push_back(json::parse(doc.text));
  return out;
}

}  // namespace opbase::host
