// The mongodb driver's record layout and the commands over it (see record.hpp).
#include "store/mongo/record.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <utility>

#include "opbase/field_error.hpp"

namespace opbase::host::mongo {

namespace {

using nlohmann::json;

Status bad_document(std::string message) { return field_error("documents", std::move(message)); }

void append_string(bson_t* doc, const char* key, std::string_view value) {
  bson_append_utf8(doc, key, -1, value.data(), static_cast<int>(value.size()));
}

json string_or_null(const json& document, const char* field) {
  const auto it = document.find(field);
  return it != document.end() && it->is_string() ? *it : json(nullptr);
}

// `_created_at` when a string or a number (the server orders numbers before strings, as the
// reference does), else null: what the sqlite driver's `created` column holds.
json created_value(const json& document) {
  const auto it = document.find("_created_at");
  return it != document.end() && (it->is_string() || it->is_number()) ? *it : json(nullptr);
}

// The `_id` condition equivalent to a `_key` condition, when there is one worth stating: string
// equality, a range from a string (paging by key: the server walks the _id index from there),
// or $in over strings only (a non-string never equals a `_key`, so other operands are left to
// the doc._key condition alone).
const query::Condition* key_condition(const query::Match& match) {
  for (const auto& c : match) {
    if (c.path.text != "_key") continue;
    const bool range = c.op == query::Op::kGt || c.op == query::Op::kGte ||
                       c.op == query::Op::kLt || c.op == query::Op::kLte;
    if ((c.op == query::Op::kEq || range) && c.value.is_string()) return &c;
    if (c.op == query::Op::kIn &&
        std::all_of(c.value.begin(), c.value.end(), [](const json& v) { return v.is_string(); })) {
      return &c;
    }
  }
  return nullptr;
}

bool append_key_condition(bson_t* filter, const query::Condition& c) {
  if (c.op == query::Op::kEq) return append_json(filter, "_id", c.value);
  bson_t child;
  bson_append_document_begin(filter, "_id", 3, &child);
  const bool ok = append_json(&child, query::op_name(c.op), c.value);
  return bson_append_document_end(filter, &child) && ok;
}

std::string sort_field(const query::FieldPath& path) {
  if (path.text == "_key") return "_id";
  if (path.text == "_created_at") return "created";
  if (path.text == "_userkey") return "owner";
  return std::string(kDocPrefix) + path.text;
}

template <typename Fill>
void append_index(bson_t* array, std::uint32_t& index, Fill&& fill) {
  const char* key = nullptr;
  char buffer[16];
  const std::size_t length = bson_uint32_to_string(index++, &key, buffer, sizeof buffer);
  bson_t spec;
  bson_append_document_begin(array, key, static_cast<int>(length), &spec);
  fill(&spec);
  bson_append_document_end(array, &spec);
}

// {createIndexes: "documents", indexes: [...]}, `fill` appending each index spec with
// append_index(array, index, ...).
template <typename Fill>
BsonDoc create_indexes(Fill&& fill) {
  BsonDoc command;
  bson_t* c = command.get();
  BSON_APPEND_UTF8(c, "createIndexes", kDocuments);
  bson_t array;
  BSON_APPEND_ARRAY_BEGIN(c, "indexes", &array);
  std::uint32_t index = 0;
  fill(&array, index);
  bson_append_array_end(c, &array);
  return command;
}

// Key {ns: 1, collection: 1, owner: 1, state: 1} then `rest`, each ascending.
void append_scope_key(bson_t* spec, const std::vector<std::string>& rest) {
  bson_t key;
  BSON_APPEND_DOCUMENT_BEGIN(spec, "key", &key);
  for (const char* field : {"ns", "collection", "owner", "state"})
    BSON_APPEND_INT32(&key, field, 1);
  for (const auto& field : rest) bson_append_int32(&key, field.c_str(), -1, 1);
  bson_append_document_end(spec, &key);
}

}  // namespace

std::string_view state_value(store::State state) { return store::state_name(state); }

Result<std::string> document_key(const json& document) {
  if (!document.is_object()) return bad_document("a document must be a JSON object");
  const auto key = document.find("_key");
  if (key == document.end() || !key->is_string()) {
    return bad_document("a document needs a string _key");
  }
  return key->get<std::string>();
}

Result<BsonDoc> make_record(std::string_view ns, std::string_view collection,
                            const json& document) {
  auto key = document_key(document);
  if (!key.is_ok()) return key.status();
  auto doc = json_to_bson(document);
  if (!doc.is_ok()) return doc.status();
  BsonDoc record;
  bson_t* r = record.get();
  append_string(r, "_id", *key);
  append_string(r, "ns", ns);
  append_string(r, "collection", collection);
  append_json(r, "owner", string_or_null(document, "_userkey"));
  append_string(r, "state", state_value(store::State::kActive));
  append_json(r, "created", created_value(document));
  BSON_APPEND_DOCUMENT(r, "doc", doc->get());
  return record;
}

void append_scope(bson_t* filter, std::string_view ns, std::string_view collection,
                  std::string_view state, const store::Scope& scope) {
  if (scope.every_document()) return;
  if (!scope.shares()) {
    append_string(filter, "owner", *scope.owner);
    return;
  }
  // Each arm states the collection and the state too, so the server plans it on its own index
  // (the scope index for the owner's, a list's index for the shared).
  const auto arm_head = [&](bson_t* arm) {
    append_string(arm, "ns", ns);
    append_string(arm, "collection", collection);
    if (!state.empty()) append_string(arm, "state", state);
  };
  bson_t arms;
  BSON_APPEND_ARRAY_BEGIN(filter, "$or", &arms);
  std::uint32_t i = 0;
  const auto next_arm = [&](auto&& body) {
    const std::string index = std::to_string(i++);
    bson_t arm;
    bson_append_document_begin(&arms, index.c_str(), -1, &arm);
    arm_head(&arm);
    body(&arm);
    bson_append_document_end(&arms, &arm);
  };
  if (scope.owner) next_arm([&](bson_t* arm) { append_string(arm, "owner", *scope.owner); });
  for (const std::string& list : scope.lists) {
    next_arm([&](bson_t* arm) {
      bson_t in;
      bson_t values;
      const std::string field = std::string(kDocPrefix) + list;
      bson_append_document_begin(arm, field.c_str(), -1, &in);
      BSON_APPEND_ARRAY_BEGIN(&in, "$in", &values);
      std::uint32_t v = 0;
      for (const std::string& principal : scope.principals) {
        append_string(&values, std::to_string(v++).c_str(), principal);
      }
      bson_append_array_end(&in, &values);
      bson_append_document_end(arm, &in);
    });
  }
  bson_append_array_end(filter, &arms);
}

Result<BsonDoc> selection_filter(std::string_view ns, std::string_view collection,
                                 const store::Scope& scope, store::State state,
                                 const query::Match& match) {
  auto user = match_to_filter(match, kDocPrefix);
  if (!user.is_ok()) return user.status();
  BsonDoc filter;
  bson_t* f = filter.get();
  append_string(f, "ns", ns);
  append_string(f, "collection", collection);
  append_string(f, "state", state_value(state));
  append_scope(f, ns, collection, state_value(state), scope);
  if (const auto* c = key_condition(match); c != nullptr && !append_key_condition(f, *c)) {
    return field_error("match", "a _key condition cannot be converted to BSON");
  }
  // The user's keys all start with "doc." (or are "$and"), so they never meet the ones above.
  bson_concat(f, user->get());
  return filter;
}

Result<BsonDoc> record_sort(const std::vector<query::SortKey>& keys) {
  std::vector<query::SortKey> order = keys;
  if (order.empty()) {
    auto path = query::parse_path("_created_at", store::wire_parse_options());
    if (!path.is_ok()) return path.status();
    order.push_back(query::SortKey{*path, true});
  }
  BsonDoc sort;
  std::set<std::string> seen;
  for (const auto& key : order) {
    const std::string field = sort_field(key.path);
    if (!seen.insert(field).second) continue;
    if (field.find('\0') != std::string::npos ||
        !bson_append_int32(sort.get(), field.c_str(), static_cast<int>(field.size()),
                           key.descending ? -1 : 1)) {
      return field_error("sort", "a sort key cannot be converted to BSON",
                         {{"value", key.path.text}});
    }
  }
  if (!seen.contains("_id")) BSON_APPEND_INT32(sort.get(), "_id", order.back().descending ? -1 : 1);
  return sort;
}

BsonDoc find_options(const bson_t* sort, int64_t offset, int64_t limit) {
  BsonDoc options;
  bson_t* o = options.get();
  bson_t projection;
  BSON_APPEND_DOCUMENT_BEGIN(o, "projection", &projection);
  BSON_APPEND_INT32(&projection, "doc", 1);
  BSON_APPEND_INT32(&projection, "_id", 0);
  bson_append_document_end(o, &projection);
  BSON_APPEND_DOCUMENT(o, "sort", sort);
  if (offset > 0) BSON_APPEND_INT64(o, "skip", offset);
  if (limit > 0) BSON_APPEND_INT64(o, "limit", limit);
  return options;
}

BsonDoc with_keys(const bson_t* filter, const std::vector<std::string>& keys) {
  BsonDoc out;
  bson_t all;
  bson_t element;
  bson_t id;
  bson_t in;
  BSON_APPEND_ARRAY_BEGIN(out.get(), "$and", &all);
  BSON_APPEND_DOCUMENT(&all, "0", filter);
  BSON_APPEND_DOCUMENT_BEGIN(&all, "1", &element);
  BSON_APPEND_DOCUMENT_BEGIN(&element, "_id", &id);
  BSON_APPEND_ARRAY_BEGIN(&id, "$in", &in);
  std::uint32_t index = 0;
  for (const auto& key : keys) {
    const char* name = nullptr;
    char buffer[16];
    const std::size_t length = bson_uint32_to_string(index++, &name, buffer, sizeof buffer);
    bson_append_utf8(&in, name, static_cast<int>(length), key.data(), static_cast<int>(key.size()));
  }
  bson_append_array_end(&id, &in);
  bson_append_document_end(&element, &id);
  bson_append_document_end(&all, &element);
  bson_append_array_end(out.get(), &all);
  return out;
}

std::string index_name(const query::FieldPath& path, std::string_view prefix) {
  std::string name = std::string(prefix) + path.text;
  if (name.size() <= 64) return name;
  // FNV-1a: stable across processes and builds, unlike std::hash.
  std::uint64_t hash = 1469598103934665603ULL;
  for (unsigned char c : path.text) hash = (hash ^ c) * 1099511628211ULL;
  char hex[17];
  bson_snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return std::string(prefix) + path.text.substr(0, 40) + "_" + hex;
}

BsonDoc drop_index_command(std::string_view name) {
  BsonDoc command;
  BSON_APPEND_UTF8(command.get(), "dropIndexes", kDocuments);
  bson_append_utf8(command.get(), "index", 5, name.data(), static_cast<int>(name.size()));
  return command;
}

BsonDoc explain_command(const bson_t* filter, const bson_t* sort, bool count) {
  BsonDoc command;
  bson_t inner;
  BSON_APPEND_DOCUMENT_BEGIN(command.get(), "explain", &inner);
  if (count) {
    BSON_APPEND_UTF8(&inner, "count", kDocuments);
    BSON_APPEND_DOCUMENT(&inner, "query", filter);
  } else {
    BSON_APPEND_UTF8(&inner, "find", kDocuments);
    BSON_APPEND_DOCUMENT(&inner, "filter", filter);
    if (sort != nullptr) BSON_APPEND_DOCUMENT(&inner, "sort", sort);
  }
  bson_append_document_end(command.get(), &inner);
  BSON_APPEND_UTF8(command.get(), "verbosity", "executionStats");
  return command;
}

namespace {

// The field an index name stands for ("field_price" -> "price"), or "" for other indexes.
std::string field_of_index(const std::string& name) {
  for (std::string_view prefix : {"field_", "auto_", "admin_"}) {
    if (name.starts_with(prefix)) return name.substr(prefix.size());
  }
  return "";
}

// Walks a plan stage and its inputs, calling `visit` with each.
template <typename Visit>
void each_stage(const nlohmann::json& stage, Visit&& visit) {
  if (!stage.is_object()) return;
  visit(stage);
  if (auto it = stage.find("inputStage"); it != stage.end()) each_stage(*it, visit);
  if (auto it = stage.find("inputStages"); it != stage.end() && it->is_array()) {
    for (const auto& input : *it) each_stage(input, visit);
  }
}

int64_t integer_at(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<int64_t>() : 0;
}

}  // namespace

ExplainedPlan read_explain(const nlohmann::json& reply) {
  ExplainedPlan out{"scan", "", 0, 0, 0};
  const nlohmann::json planner = reply.value("queryPlanner", nlohmann::json::object());
  bool count_scan = false;
  each_stage(planner.value("winningPlan", nlohmann::json::object()), [&](const auto& stage) {
    const std::string kind = stage.value("stage", "");
    if (kind == "COUNT_SCAN") count_scan = true;
    if (kind == "IXSCAN" || kind == "COUNT_SCAN") {
      const std::string field = field_of_index(stage.value("indexName", ""));
      if (!field.empty() && out.index.empty()) out.index = field;
    }
  });
  if (!out.index.empty()) out.plan = count_scan ? "index_count" : "index_lookup";
  const nlohmann::json stats = reply.value("executionStats", nlohmann::json::object());
  out.docs_examined = integer_at(stats, "totalDocsExamined");
  out.returned = integer_at(stats, "nReturned");
  out.time_ms = static_cast<double>(integer_at(stats, "executionTimeMillis"));
  return out;
}

BsonDoc index_command(const std::vector<IndexSpec>& indexes, std::string_view prefix) {
  return create_indexes([&](bson_t* array, std::uint32_t& index) {
    append_index(array, index, [](bson_t* spec) {
      append_scope_key(spec, {"created", "_id"});
      BSON_APPEND_UTF8(spec, "name", "scope_created");
    });
    // Every owner's documents in date order: a collection its rules open to all.
    append_index(array, index, [](bson_t* spec) {
      bson_t key;
      BSON_APPEND_DOCUMENT_BEGIN(spec, "key", &key);
      for (const char* field : {"ns", "collection", "state", "created", "_id"}) {
        BSON_APPEND_INT32(&key, field, 1);
      }
      bson_append_document_end(spec, &key);
      BSON_APPEND_UTF8(spec, "name", "any_created");
    });
    append_index(array, index, [](bson_t* spec) {
      bson_t key;
      BSON_APPEND_DOCUMENT_BEGIN(spec, "key", &key);
      BSON_APPEND_INT32(&key, "ref", 1);
      bson_append_document_end(spec, &key);
      BSON_APPEND_UTF8(spec, "name", "ref");
      BSON_APPEND_BOOL(spec, "sparse", true);
    });
    append_index(array, index, [](bson_t* spec) {
      bson_t key;
      BSON_APPEND_DOCUMENT_BEGIN(spec, "key", &key);
      for (const char* field : {"ns", "state", "state_ms"}) BSON_APPEND_INT32(&key, field, 1);
      bson_append_document_end(spec, &key);
      BSON_APPEND_UTF8(spec, "name", "purge");
    });
    std::set<std::string> paths;
    for (const auto& declared : indexes) {
      if (!paths.insert(declared.path.text).second) continue;
      append_index(array, index, [&](bson_t* spec) {
        append_scope_key(spec, {std::string(kDocPrefix) + declared.path.text});
        const std::string name = index_name(declared.path, prefix);
        bson_append_utf8(spec, "name", 4, name.data(), static_cast<int>(name.size()));
      });
    }
  });
}

BsonDoc list_index_command(std::string_view list) {
  return create_indexes([&](bson_t* array, std::uint32_t& index) {
    append_index(array, index, [&](bson_t* spec) {
      bson_t key;
      BSON_APPEND_DOCUMENT_BEGIN(spec, "key", &key);
      for (const char* field : {"ns", "collection", "state"}) BSON_APPEND_INT32(&key, field, 1);
      const std::string path = std::string(kDocPrefix) + std::string(list);
      BSON_APPEND_INT32(&key, path.c_str(), 1);
      bson_append_document_end(spec, &key);
      const std::string name = "list_" + std::string(list);
      BSON_APPEND_UTF8(spec, "name", name.c_str());
    });
  });
}

}  // namespace opbase::host::mongo
