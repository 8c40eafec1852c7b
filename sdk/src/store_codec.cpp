// The JSON of the DocumentStore requests (store.hpp), both ways, and the reference change.
#include "opbase/internal/store_codec.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

#include "opbase/field_error.hpp"
#include "opbase/internal/event_pattern.hpp"
#include "opbase/store.hpp"

namespace opbase::store {
namespace {

using nlohmann::json;

Status bad_field(std::string_view field, std::string_view what) {
  return field_error(field, "store request: '" + std::string(field) + "' " + std::string(what));
}

Result<std::vector<std::string>> decode_strings(const json& wire, std::string_view field) {
  std::vector<std::string> out;
  const auto it = wire.find(field);
  if (it == wire.end()) return out;
  if (!it->is_array()) return bad_field(field, "must be an array of strings");
  for (const json& value : *it) {
    if (!value.is_string() || value.get_ref<const std::string&>().empty()) {
      return bad_field(field, "must be an array of non-empty strings");
    }
    out.push_back(value.get<std::string>());
  }
  return out;
}

// "owner": a string (one owner) or null; "shared_with" and "lists" (arrays of strings, both or
// neither) add the shared documents. With neither an owner nor sharing, "every_owner": true is
// required, so a request that forgot its scope fails instead of seeing everyone's documents.
Result<Scope> decode_scope(const json& wire) {
  Scope scope;
  const auto it = wire.find("owner");
  if (it != wire.end() && it->is_string()) {
    scope.owner = it->get<std::string>();
  } else if (it != wire.end() && !it->is_null()) {
    return bad_field("owner", "must be a string or null");
  }
  auto principals = decode_strings(wire, "shared_with");
  if (!principals) return principals.status();
  auto lists = decode_strings(wire, "lists");
  if (!lists) return lists.status();
  if (principals->empty() != lists->empty()) {
    return bad_field("shared_with", "and 'lists' must be given together");
  }
  for (const std::string& list : *lists) {
    // A top-level field name the drivers can write into their query text as it is.
    const bool plain = std::all_of(list.begin(), list.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    });
    if (!plain) return bad_field("lists", "must name fields of letters, digits and '_'");
  }
  scope.principals = std::move(*principals);
  scope.lists = std::move(*lists);
  if (!scope.every_document()) return scope;
  const auto every = wire.find("every_owner");
  if (every != wire.end() && every->is_boolean() && every->get<bool>()) return scope;
  return bad_field("owner", "must be a string, or null with every_owner true");
}

void put_scope(json& out, const Scope& scope) {
  out["owner"] = scope.owner ? json(*scope.owner) : json(nullptr);
  if (scope.every_document()) out["every_owner"] = true;
  if (!scope.principals.empty()) {
    out["shared_with"] = scope.principals;
    out["lists"] = scope.lists;
  }
}

Result<std::string> decode_string(const json& wire, std::string_view field, bool allow_empty) {
  const auto it = wire.find(field);
  if (it == wire.end() || !it->is_string()) return bad_field(field, "must be a string");
  std::string value = it->get<std::string>();
  if (value.empty() && !allow_empty) return bad_field(field, "must not be empty");
  return value;
}

Result<int64_t> decode_int(const json& wire, std::string_view field, int64_t fallback) {
  const auto it = wire.find(field);
  if (it == wire.end()) return fallback;
  if (!it->is_number_integer()) return bad_field(field, "must be an integer");
  if (it->is_number_unsigned() &&
      it->get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return bad_field(field, "is out of the 64-bit integer range");
  }
  return it->get<int64_t>();
}

Result<State> decode_state_field(const json& wire, std::string_view field, State fallback) {
  const auto it = wire.find(field);
  if (it == wire.end()) return fallback;
  if (!it->is_string()) return bad_field(field, "must be a state name");
  return parse_state(it->get<std::string>());
}

Result<query::Match> decode_match(const json& wire) {
  const auto it = wire.find("match");
  if (it == wire.end()) return query::Match{};
  return query::parse_match(*it, wire_parse_options());
}

// The fields most requests start with: the collection, and (when asked for) the scope and the
// match. The first failure is the answer.
Status decode_head(const json& wire, std::string* collection, Scope* scope = nullptr,
                   query::Match* match = nullptr) {
  auto name = decode_string(wire, "collection", false);
  if (!name) return name.status();
  *collection = std::move(*name);
  if (scope != nullptr) {
    auto decoded = decode_scope(wire);
    if (!decoded) return decoded.status();
    *scope = std::move(*decoded);
  }
  if (match != nullptr) {
    auto decoded = decode_match(wire);
    if (!decoded) return decoded.status();
    *match = std::move(*decoded);
  }
  return Status::ok();
}

json events_json(const Events& events) {
  return {{"on_insert", events.on_insert},
          {"on_change", events.on_change},
          {"collection", events.collection},
          {"key", events.key}};
}

// Only requests that raise events carry the field.
void put_events(json& out, const Events& events) {
  if (!events.empty()) out["events"] = events_json(events);
}

// An event type as publish takes it: an exact type, no pattern.
bool valid_event_type(const std::string& type) {
  return type.empty() ||
         (type.size() <= 128 && type.find('*') == std::string::npos && events::valid_pattern(type));
}

// "events": {"on_insert", "on_change", "collection", "key"}, each a string, all optional.
Status decode_events(const json& wire, Events* events) {
  const auto it = wire.find("events");
  if (it == wire.end()) return Status::ok();
  if (!it->is_object()) return bad_field("events", "must be an object");
  for (auto [name, field] :
       {std::pair{"on_insert", &events->on_insert}, std::pair{"on_change", &events->on_change},
        std::pair{"collection", &events->collection}, std::pair{"key", &events->key}}) {
    auto value = it->find(name);
    if (value == it->end()) continue;
    if (!value->is_string()) return bad_field("events", "fields must be strings");
    *field = value->get<std::string>();
  }
  if (!valid_event_type(events->on_insert) || !valid_event_type(events->on_change)) {
    return bad_field("events", "types must be event types such as document.created");
  }
  return Status::ok();
}

json change_json(const Change& change) {
  return {{"set", change.set}, {"inc", change.inc}, {"unset", change.unset}};
}

Result<Change> decode_change(const json& wire) {
  if (!wire.is_object()) return bad_field("change", "must be an object");
  Change change;
  if (auto it = wire.find("set"); it != wire.end()) {
    if (!it->is_object()) return bad_field("set", "must be an object");
    change.set = *it;
  }
  if (auto it = wire.find("inc"); it != wire.end()) {
    if (!it->is_object()) return bad_field("inc", "must be an object");
    for (const auto& [path, amount] : it->items()) {
      if (!amount.is_number()) return bad_field("inc", "values must be numbers");
    }
    change.inc = *it;
  }
  if (auto it = wire.find("unset"); it != wire.end()) {
    if (!it->is_array()) return bad_field("unset", "must be an array");
    for (const json& path : *it) {
      if (!path.is_string()) return bad_field("unset", "must hold strings");
      change.unset.push_back(path.get<std::string>());
    }
  }
  return change;
}

// Runs a decoder, turning an unexpected exception into a VALIDATION_ERROR: none escapes.
template <typename F>
auto guarded(F&& decode) -> decltype(decode()) {
  try {
    return decode();
  } catch (const std::exception& e) {
    return Status::validation(std::string("store request: ") + e.what());
  }
}

// The parent object of a path's last segment, created on the way when `create` (nullptr when a
// segment is missing, or when a non-object stands in the way: *blocked is then set).
json* parent_of(json& doc, const query::FieldPath& path, bool create, bool* blocked) {
  json* node = &doc;
  for (std::size_t i = 0; i + 1 < path.segments.size(); ++i) {
    const std::string& segment = path.segments[i];
    auto it = node->find(segment);
    if (it == node->end()) {
      if (!create) return nullptr;
      node = &(*node)[segment];
      *node = json::object();
      continue;
    }
    if (!it->is_object()) {
      *blocked = true;
      return nullptr;
    }
    node = &*it;
  }
  return node;
}

Result<query::FieldPath> change_path(const std::string& text) {
  return query::parse_path(text, wire_parse_options());
}

Status blocked_path(std::string_view path) {
  return field_error(
      path, "cannot change '" + std::string(path) + "': a part of its path is not an object");
}

// An integer within int64 (an unsigned one above it is not: it adds as a double).
bool is_int64(const json& v) {
  return v.is_number_integer() &&
         (!v.is_number_unsigned() ||
          v.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()));
}

// a + b for JSON numbers: exact for int64 integers (VALIDATION_ERROR on overflow), double
// otherwise (docs/api.md#documents: numbers outside the 64-bit integer range are doubles).
Result<json> add_numbers(const json& a, const json& b, std::string_view path) {
  if (is_int64(a) && is_int64(b)) {
    const auto x = a.get<int64_t>();
    const auto y = b.get<int64_t>();
    int64_t sum = 0;
    if (__builtin_add_overflow(x, y, &sum)) {
      return field_error(path, "@inc overflows the 64-bit integer range");
    }
    return json(sum);
  }
  const double sum = a.get<double>() + b.get<double>();
  if (!std::isfinite(sum)) return field_error(path, "@inc result is not finite");
  return json(sum);
}

}  // namespace

std::string_view state_name(State state) {
  switch (state) {
    case State::kActive:
      return "active";
    case State::kDeleted:
      return "deleted";
    case State::kArchived:
      return "archived";
  }
  return "active";
}

Result<State> parse_state(std::string_view name) {
  if (name == "active") return State::kActive;
  if (name == "deleted") return State::kDeleted;
  if (name == "archived") return State::kArchived;
  return Status::validation("store request: unknown state '" + std::string(name) + "'");
}

const query::ParseOptions& wire_parse_options() {
  static const query::ParseOptions options = [] {
    query::ParseOptions o;
    o.allow_system_fields = true;
    o.max_conditions = 10'000;
    o.max_in_values = 100'000;
    o.max_path_depth = 100;
    o.limit_cap = std::numeric_limits<int64_t>::max();
    return o;
  }();
  return options;
}

json match_to_json(const query::Match& match) {
  json out = json::object();
  for (const query::Condition& c : match) {
    const std::string key = c.op == query::Op::kEq
                                ? c.path.text
                                : c.path.text + ":" + std::string(query::op_name(c.op));
    out[key] = c.value;
  }
  return out;
}

std::string sort_to_text(const std::vector<query::SortKey>& sort) {
  std::string out;
  for (const query::SortKey& key : sort) {
    if (!out.empty()) out += ", ";
    out += key.path.text + (key.descending ? " desc" : " asc");
  }
  return out;
}

std::string encode_text(const InsertTextRequest& r) {
  std::string out = "{\"collection\":" + json(r.collection).dump();
  if (!r.events.empty()) out += ",\"events\":" + events_json(r.events).dump();
  out += ",\"documents\":[";
  for (std::size_t i = 0; i < r.documents.size(); ++i) {
    if (i) out.push_back(',');
    out += r.documents[i];
  }
  out += "]}";
  return out;
}

InsertTextRequest printed(const InsertRequest& r) {
  InsertTextRequest out{r.collection, {}, r.events};
  out.documents.reserve(r.documents.size());
  for (const json& doc : r.documents) out.documents.push_back(doc.dump());
  return out;
}

// Key by key, as find is on every read's path (initializer lists build temporaries).
json encode(const FindRequest& r) {
  json out = json::object();
  out["collection"] = r.collection;
  out["state"] = state_name(r.state);
  out["match"] = match_to_json(r.match);
  out["sort"] = sort_to_text(r.sort);
  out["offset"] = r.offset;
  out["limit"] = r.limit;
  out["with_total"] = r.with_total;
  put_scope(out, r.scope);
  return out;
}

json encode(const CountRequest& r) {
  json out = {{"collection", r.collection},
              {"state", state_name(r.state)},
              {"match", match_to_json(r.match)}};
  put_scope(out, r.scope);
  return out;
}

json encode(const UpdateRequest& r) {
  json steps = json::array();
  for (const UpdateStep& step : r.steps) {
    steps.push_back({{"match", match_to_json(step.match)}, {"change", change_json(step.change)}});
  }
  json out = {{"collection", r.collection}, {"steps", std::move(steps)}};
  put_scope(out, r.scope);
  put_events(out, r.events);
  return out;
}

json encode(const UpsertRequest& r) {
  json out = {{"collection", r.collection},
              {"match", match_to_json(r.match)},
              {"change", change_json(r.change)},
              {"insert", r.insert}};
  put_scope(out, r.scope);
  put_events(out, r.events);
  return out;
}

json encode(const StateRequest& r) {
  json out = {{"collection", r.collection},
              {"match", match_to_json(r.match)},
              {"from", state_name(r.from)},
              {"to", state_name(r.to)},
              {"ref", r.ref},
              {"at_ms", r.at_ms}};
  put_scope(out, r.scope);
  put_events(out, r.events);
  return out;
}

json encode(const RestoreRequest& r) {
  json out = {{"collection", r.collection}, {"ref", r.ref}};
  put_scope(out, r.scope);
  put_events(out, r.events);
  return out;
}

json encode(const PurgeRequest& r) {
  return {{"state", state_name(r.state)}, {"before_ms", r.before_ms}};
}

namespace {

// The rules of a document to insert, with the errors store.insert gives (insert_text.cpp in the
// host checks the same rules on the text).
Status check_new_document(const json& doc) {
  const auto key = doc.is_object() ? doc.find("_key") : doc.end();
  if (!doc.is_object() || key == doc.end() || !key->is_string() ||
      key->get_ref<const std::string&>().empty()) {
    return bad_field("documents", "must hold objects with a non-empty string _key");
  }
  const auto owner = doc.find("_userkey");
  if (owner != doc.end() && !owner->is_string() && !owner->is_null()) {
    return bad_field("documents", "_userkey must be a string or null");
  }
  const auto created = doc.find("_created_at");
  if (created != doc.end() && !created->is_string() && !created->is_number() &&
      !created->is_null()) {
    return bad_field("documents", "_created_at must be a string, a number or null");
  }
  return Status::ok();
}

}  // namespace

Result<InsertHead> decode_insert_head(const json& wire) {
  return guarded([&]() -> Result<InsertHead> {
    InsertHead r;
    if (Status s = decode_head(wire, &r.collection); !s) return s;
    if (Status s = decode_events(wire, &r.events); !s) return s;
    return r;
  });
}

Result<FindRequest> decode_find(const json& wire) {
  return guarded([&]() -> Result<FindRequest> {
    FindRequest r;
    if (Status s = decode_head(wire, &r.collection, &r.scope, &r.match); !s) return s;
    auto state = decode_state_field(wire, "state", State::kActive);
    if (!state) return state.status();
    r.state = *state;
    const auto sort = wire.find("sort");
    if (sort != wire.end()) {
      if (!sort->is_string()) return bad_field("sort", "must be a string");
      auto keys = query::parse_sort(sort->get<std::string>(), wire_parse_options());
      if (!keys) return keys.status();
      r.sort = std::move(*keys);
    }
    auto offset = decode_int(wire, "offset", 0);
    auto limit = decode_int(wire, "limit", 100);
    if (!offset || *offset < 0) return bad_field("offset", "must be a non-negative integer");
    if (!limit || *limit < -1) return bad_field("limit", "must be an integer >= -1");
    r.offset = *offset;
    r.limit = *limit;
    const auto total = wire.find("with_total");
    r.with_total = total != wire.end() && total->is_boolean() && total->get<bool>();
    return r;
  });
}

Result<CountRequest> decode_count(const json& wire) {
  return guarded([&]() -> Result<CountRequest> {
    CountRequest r;
    if (Status s = decode_head(wire, &r.collection, &r.scope, &r.match); !s) return s;
    auto state = decode_state_field(wire, "state", State::kActive);
    if (!state) return state.status();
    r.state = *state;
    return r;
  });
}

Result<UpdateRequest> decode_update(const json& wire) {
  return guarded([&]() -> Result<UpdateRequest> {
    UpdateRequest r;
    if (Status s = decode_head(wire, &r.collection, &r.scope); !s) return s;
    if (Status s = decode_events(wire, &r.events); !s) return s;
    const auto steps = wire.find("steps");
    if (steps == wire.end() || !steps->is_array()) return bad_field("steps", "must be an array");
    for (const json& step : *steps) {
      if (!step.is_object()) return bad_field("steps", "must hold objects");
      auto match = decode_match(step);
      if (!match) return match.status();
      const auto change_it = step.find("change");
      auto change = decode_change(change_it == step.end() ? json::object() : *change_it);
      if (!change) return change.status();
      r.steps.push_back({std::move(*match), std::move(*change)});
    }
    return r;
  });
}

Result<UpsertRequest> decode_upsert(const json& wire) {
  return guarded([&]() -> Result<UpsertRequest> {
    UpsertRequest r;
    if (Status s = decode_head(wire, &r.collection, &r.scope, &r.match); !s) return s;
    if (Status s = decode_events(wire, &r.events); !s) return s;
    const auto change_it = wire.find("change");
    auto change = decode_change(change_it == wire.end() ? json::object() : *change_it);
    if (!change) return change.status();
    r.change = std::move(*change);
    const auto insert = wire.find("insert");
    if (insert == wire.end()) return bad_field("insert", "is required");
    if (Status s = check_new_document(*insert); !s) return s;
    r.insert = *insert;
    return r;
  });
}

Result<StateRequest> decode_state(const json& wire) {
  return guarded([&]() -> Result<StateRequest> {
    StateRequest r;
    if (Status s = decode_head(wire, &r.collection, &r.scope, &r.match); !s) return s;
    if (Status s = decode_events(wire, &r.events); !s) return s;
    auto from = decode_state_field(wire, "from", State::kActive);
    if (!from) return from.status();
    auto to = decode_state_field(wire, "to", State::kDeleted);
    if (!to) return to.status();
    if (*from == *to) return bad_field("to", "must differ from 'from'");
    r.from = *from;
    r.to = *to;
    auto ref = decode_string(wire, "ref", false);
    if (!ref) return ref.status();
    r.ref = std::move(*ref);
    auto at = decode_int(wire, "at_ms", 0);
    if (!at) return at.status();
    r.at_ms = *at;
    return r;
  });
}

Result<RestoreRequest> decode_restore(const json& wire) {
  return guarded([&]() -> Result<RestoreRequest> {
    RestoreRequest r;
    if (Status s = decode_head(wire, &r.collection, &r.scope); !s) return s;
    if (Status s = decode_events(wire, &r.events); !s) return s;
    auto ref = decode_string(wire, "ref", false);
    if (!ref) return ref.status();
    r.ref = std::move(*ref);
    return r;
  });
}

Result<PurgeRequest> decode_purge(const json& wire) {
  return guarded([&]() -> Result<PurgeRequest> {
    PurgeRequest r;
    auto state = decode_state_field(wire, "state", State::kDeleted);
    if (!state) return state.status();
    if (*state == State::kActive) return bad_field("state", "cannot purge active documents");
    r.state = *state;
    auto before = decode_int(wire, "before_ms", 0);
    if (!before) return before.status();
    r.before_ms = *before;
    return r;
  });
}

Status apply_change(json& document, const Change& change) {
  for (const auto& [text, value] : change.set.items()) {
    auto path = change_path(text);
    if (!path) return path.status();
    bool blocked = false;
    json* parent = parent_of(document, *path, /*create=*/true, &blocked);
    if (parent == nullptr) return blocked_path(text);
    (*parent)[path->segments.back()] = value;
  }
  for (const auto& [text, amount] : change.inc.items()) {
    auto path = change_path(text);
    if (!path) return path.status();
    bool blocked = false;
    json* parent = parent_of(document, *path, /*create=*/true, &blocked);
    if (parent == nullptr) return blocked_path(text);
    const std::string& last = path->segments.back();
    if (!parent->contains(last)) (*parent)[last] = 0;
    json& target = (*parent)[last];
    if (!target.is_number()) {
      return field_error(text, "cannot @inc '" + text + "': it is not a number");
    }
    auto sum = add_numbers(target, amount, text);
    if (!sum) return sum.status();
    target = std::move(*sum);
  }
  for (const std::string& text : change.unset) {
    auto path = change_path(text);
    if (!path) return path.status();
    bool blocked = false;
    json* parent = parent_of(document, *path, /*create=*/false, &blocked);
    if (parent != nullptr) parent->erase(path->segments.back());
  }
  return Status::ok();
}

json scope_to_json(const Scope& scope) {
  json out = json::object();
  put_scope(out, scope);
  return out;
}

Result<Scope> scope_from_json(const json& wire) {
  if (!wire.is_object()) return bad_field("scope", "must be an object");
  return decode_scope(wire);
}

}  // namespace opbase::store
