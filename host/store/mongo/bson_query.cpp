// Translation of the query tree and of documents to BSON (see bson_query.hpp).
#include "store/mongo/bson_query.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string_view>
#include <utility>

#include "opbase/field_error.hpp"

namespace opbase::host::mongo {

namespace {

using nlohmann::json;

bool has_nul(std::string_view key) { return key.find('\0') != std::string_view::npos; }

int key_length(std::string_view key) { return static_cast<int>(key.size()); }

bool append_value(bson_t* parent, std::string_view key, const json& value);

// Appends the members of `object` to `doc`; false when a key holds a NUL byte.
bool append_members(bson_t* doc, const json& object) {
  for (const auto& [key, value] : object.items()) {
    if (has_nul(key) || !append_value(doc, key, value)) return false;
  }
  return true;
}

bool append_elements(bson_t* array, const json& elements) {
  std::size_t index = 0;
  for (const auto& element : elements) {
    const char* key = nullptr;
    char buffer[16];
    const std::size_t length =
        bson_uint32_to_string(static_cast<std::uint32_t>(index++), &key, buffer, sizeof buffer);
    if (!append_value(array, std::string_view(key, length), element)) return false;
  }
  return true;
}

bool append_value(bson_t* parent, std::string_view key, const json& value) {
  const char* k = key.data();
  const int n = key_length(key);
  switch (value.type()) {
    case json::value_t::null:
      return bson_append_null(parent, k, n);
    case json::value_t::boolean:
      return bson_append_bool(parent, k, n, value.get<bool>());
    case json::value_t::number_integer:
      return bson_append_int64(parent, k, n, value.get<std::int64_t>());
    case json::value_t::number_unsigned: {
      const auto u = value.get<std::uint64_t>();
      if (u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        return bson_append_int64(parent, k, n, static_cast<std::int64_t>(u));
      }
      // Above int64: Decimal128 keeps it exact (a double would round).
      bson_decimal128_t dec;
      if (!bson_decimal128_from_string(std::to_string(u).c_str(), &dec)) return false;
      return bson_append_decimal128(parent, k, n, &dec);
    }
    case json::value_t::number_float:
      return bson_append_double(parent, k, n, value.get<double>());
    case json::value_t::string: {
      const auto& s = value.get_ref<const std::string&>();
      return bson_append_utf8(parent, k, n, s.data(), static_cast<int>(s.size()));
    }
    case json::value_t::object: {
      bson_t child;
      if (!bson_append_document_begin(parent, k, n, &child)) return false;
      const bool ok = append_members(&child, value);
      return bson_append_document_end(parent, &child) && ok;
    }
    case json::value_t::array: {
      bson_t child;
      if (!bson_append_array_begin(parent, k, n, &child)) return false;
      const bool ok = append_elements(&child, value);
      return bson_append_array_end(parent, &child) && ok;
    }
    case json::value_t::binary:
    case json::value_t::discarded:
      return false;
  }
  return false;
}

// {"$op": operand} members of one condition, appended to the document of its path.
bool append_operator(bson_t* doc, const query::Condition& condition) {
  return append_value(doc, query::op_name(condition.op), condition.value);
}

// One condition as members of `doc` under `key`: {"key": value} or {"key": {"$op": value}}.
bool append_condition(bson_t* doc, const std::string& key, const query::Condition& c) {
  if (c.op == query::Op::kEq && !c.value.is_object()) return append_value(doc, key, c.value);
  bson_t child;
  if (!bson_append_document_begin(doc, key.data(), key_length(key), &child)) return false;
  const bool ok = append_operator(&child, c);
  return bson_append_document_end(doc, &child) && ok;
}

struct PathGroup {
  const std::string* path = nullptr;  // the path as written, for grouping
  std::string key;                    // the filter's key: prefix + path
  std::vector<const query::Condition*> conditions;
  bool needs_and = false;
};

Status invalid_key(std::string_view what) {
  return field_error(std::string(what), "a key cannot be converted to BSON (NUL byte)");
}

json decimal_to_json(const bson_decimal128_t& dec) {
  char text[BSON_DECIMAL128_STRING];
  bson_decimal128_to_string(&dec, text);
  const std::string_view s(text);
  const char* end = s.data() + s.size();
  std::int64_t i = 0;
  if (auto r = std::from_chars(s.data(), end, i); r.ec == std::errc() && r.ptr == end) return i;
  std::uint64_t u = 0;
  if (auto r = std::from_chars(s.data(), end, u); r.ec == std::errc() && r.ptr == end) return u;
  return std::strtod(text, nullptr);
}

Status convert(bson_iter_t* iter, json& out, bool array);

Status convert_one(bson_iter_t* iter, json& value) {
  switch (bson_iter_type(iter)) {
    case BSON_TYPE_NULL:
      value = nullptr;
      return Status::ok();
    case BSON_TYPE_BOOL:
      value = bson_iter_bool(iter);
      return Status::ok();
    case BSON_TYPE_INT32:
      value = static_cast<std::int64_t>(bson_iter_int32(iter));
      return Status::ok();
    case BSON_TYPE_INT64:
      value = bson_iter_int64(iter);
      return Status::ok();
    case BSON_TYPE_DOUBLE:
      value = bson_iter_double(iter);
      return Status::ok();
    case BSON_TYPE_DECIMAL128: {
      bson_decimal128_t dec;
      bson_iter_decimal128(iter, &dec);
      value = decimal_to_json(dec);
      return Status::ok();
    }
    case BSON_TYPE_UTF8: {
      std::uint32_t length = 0;
      const char* s = bson_iter_utf8(iter, &length);
      if (!bson_utf8_validate(s, length, true)) {
        return Status::internal(std::string("invalid UTF-8 in BSON field ") + bson_iter_key(iter));
      }
      value = std::string(s, length);
      return Status::ok();
    }
    case BSON_TYPE_DOCUMENT:
    case BSON_TYPE_ARRAY: {
      const bool array = bson_iter_type(iter) == BSON_TYPE_ARRAY;
      bson_iter_t child;
      if (!bson_iter_recurse(iter, &child)) {
        return Status::internal(std::string("corrupt BSON at field ") + bson_iter_key(iter));
      }
      value = array ? json::array() : json::object();
      return convert(&child, value, array);
    }
    default:
      return Status::internal(std::string("BSON field ") + bson_iter_key(iter) +
                              " has a type without a JSON value");
  }
}

Status convert(bson_iter_t* iter, json& out, bool array) {
  while (bson_iter_next(iter)) {
    json value;
    if (auto status = convert_one(iter, value); !status) return status;
    if (array) {
      out.push_back(std::move(value));
    } else {
      out[std::string(bson_iter_key(iter), bson_iter_key_len(iter))] = std::move(value);
    }
  }
  return Status::ok();
}

}  // namespace

BsonDoc& BsonDoc::operator=(BsonDoc&& other) noexcept {
  if (this != &other) {
    if (doc_ != nullptr) bson_destroy(doc_);
    doc_ = other.doc_;
    other.doc_ = nullptr;
  }
  return *this;
}

BsonDoc::~BsonDoc() {
  if (doc_ != nullptr) bson_destroy(doc_);
}

bson_t* BsonDoc::release() { return std::exchange(doc_, nullptr); }

std::string BsonDoc::to_canonical_json() const {
  if (doc_ == nullptr) return {};
  char* text = bson_as_canonical_extended_json(doc_, nullptr);
  std::string out = text != nullptr ? text : "";
  bson_free(text);
  return out;
}

std::string BsonDoc::to_relaxed_json() const {
  if (doc_ == nullptr) return {};
  char* text = bson_as_relaxed_extended_json(doc_, nullptr);
  std::string out = text != nullptr ? text : "";
  bson_free(text);
  return out;
}

Result<BsonDoc> match_to_filter(const query::Match& match, std::string_view prefix) {
  // Group by path, in order of first appearance.
  std::vector<PathGroup> groups;
  for (const auto& condition : match) {
    PathGroup* group = nullptr;
    for (auto& g : groups) {
      if (*g.path == condition.path.text) group = &g;
    }
    if (group == nullptr) {
      groups.push_back(
          PathGroup{&condition.path.text, std::string(prefix) + condition.path.text, {}, false});
      group = &groups.back();
    }
    group->conditions.push_back(&condition);
  }
  // A path needs $and when it has an equality next to any other condition, or an operator twice.
  for (auto& g : groups) {
    if (g.conditions.size() < 2) continue;
    for (std::size_t i = 0; i < g.conditions.size() && !g.needs_and; ++i) {
      if (g.conditions[i]->op == query::Op::kEq) g.needs_and = true;
      for (std::size_t j = 0; j < i; ++j) {
        if (g.conditions[j]->op == g.conditions[i]->op) g.needs_and = true;
      }
    }
  }

  BsonDoc filter;
  bool need_and = false;
  for (const auto& g : groups) {
    const std::string& key = g.key;
    if (has_nul(key)) return invalid_key(key);
    if (g.needs_and) {
      need_and = true;
      continue;
    }
    bool ok = true;
    if (g.conditions.size() == 1) {
      ok = append_condition(filter.get(), key, *g.conditions.front());
    } else {  // operators only, each once: share the key
      bson_t child;
      ok = bson_append_document_begin(filter.get(), key.data(), key_length(key), &child);
      if (!ok) return invalid_key(key);
      for (const auto* c : g.conditions) ok = ok && append_operator(&child, *c);
      ok = bson_append_document_end(filter.get(), &child) && ok;
    }
    if (!ok) return invalid_key(key);
  }
  if (need_and) {
    bson_t array;
    if (!bson_append_array_begin(filter.get(), "$and", 4, &array)) return invalid_key("$and");
    std::uint32_t index = 0;
    bool ok = true;
    for (const auto& g : groups) {
      if (!g.needs_and) continue;
      for (const auto* c : g.conditions) {
        const char* element_key = nullptr;
        char buffer[16];
        const std::size_t length =
            bson_uint32_to_string(index++, &element_key, buffer, sizeof buffer);
        bson_t element;
        if (!bson_append_document_begin(&array, element_key, static_cast<int>(length), &element)) {
          ok = false;
          break;
        }
        ok = append_condition(&element, g.key, *c) && ok;
        ok = bson_append_document_end(&array, &element) && ok;
      }
      if (!ok) break;
    }
    ok = bson_append_array_end(filter.get(), &array) && ok;
    if (!ok) return invalid_key("$and");
  }
  return filter;
}

Result<BsonDoc> sort_to_bson(const std::vector<query::SortKey>& keys, std::string_view prefix) {
  BsonDoc sort;
  for (const auto& key : keys) {
    const std::string path = std::string(prefix) + key.path.text;
    if (has_nul(path) ||
        !bson_append_int32(sort.get(), path.data(), key_length(path), key.descending ? -1 : 1)) {
      return invalid_key(path);
    }
  }
  return sort;
}

Result<BsonDoc> projection_to_bson(const query::Projection& projection) {
  BsonDoc out;
  const std::int32_t flag = projection.include ? 1 : 0;
  if (projection.include && projection.keep_key) {
    BSON_APPEND_INT32(out.get(), "_key", 1);
  }
  const auto& fields = projection.fields;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const auto& path = fields[i];
    // Left out when another named path is a proper prefix of it (or names it again).
    bool covered = false;
    for (std::size_t j = 0; j < fields.size() && !covered; ++j) {
      const auto& other = fields[j].segments;
      if (j == i || other.size() > path.segments.size()) continue;
      if (other.size() == path.segments.size() && j > i) continue;  // a repeat: keep the first
      covered = std::equal(other.begin(), other.end(), path.segments.begin());
    }
    if (covered) continue;
    if (has_nul(path.text) ||
        !bson_append_int32(out.get(), path.text.data(), key_length(path.text), flag)) {
      return invalid_key(path.text);
    }
  }
  if (!projection.include && !projection.keep_key) {
    BSON_APPEND_INT32(out.get(), "_key", 0);
  }
  return out;
}

bool append_json(bson_t* parent, std::string_view key, const nlohmann::json& value) {
  return !has_nul(key) && append_value(parent, key, value);
}

bool needs_decimal128(const json& value) {
  if (value.is_number_unsigned()) {
    return value.get<std::uint64_t>() >
           static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  }
  if (!value.is_structured()) return false;
  return std::any_of(value.begin(), value.end(), [](const json& v) { return needs_decimal128(v); });
}

Result<BsonDoc> json_to_bson(const nlohmann::json& object) {
  if (!object.is_object()) {
    return field_error("document", "a document must be a JSON object");
  }
  BsonDoc doc;
  if (!append_members(doc.get(), object)) return invalid_key("document");
  return doc;
}

Result<nlohmann::json> bson_to_json(const bson_t* doc) {
  bson_iter_t iter;
  if (doc == nullptr || !bson_iter_init(&iter, doc)) return Status::internal("corrupt BSON");
  json out = json::object();
  if (auto status = convert(&iter, out, false); !status) return status;
  return out;
}

}  // namespace opbase::host::mongo
