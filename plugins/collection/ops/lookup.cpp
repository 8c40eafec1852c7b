// The lookup stage of collection.find (see ops/lookup.hpp).
#include "ops/lookup.hpp"

#include <set>

#include "opbase/collection_name.hpp"
#include "opbase/store.hpp"

namespace opbase::collection {
namespace {

using nlohmann::json;

Status bad(std::string message, json details = json::object()) {
  details["field"] = "lookup";
  return Status::validation("lookup: " + std::move(message), std::move(details));
}

Result<query::FieldPath> path_field(const json& spec, std::string_view name,
                                    const query::ParseOptions& options) {
  const auto it = spec.find(name);
  if (it == spec.end() || !it->is_string())
    return bad("'" + std::string(name) + "' must be a string");
  auto path = query::parse_path(it->get<std::string>(), options);
  if (!path) return bad("'" + std::string(name) + "': " + path.status().message());
  return path;
}

Result<LookupSpec> parse_one(const json& spec, const query::ParseOptions& options) {
  if (!spec.is_object()) return bad("each lookup must be an object");
  for (const auto& [key, value] : spec.items()) {
    if (key != "from" && key != "local_field" && key != "foreign_field" && key != "as") {
      return bad("unknown key '" + key + "'");
    }
  }
  const auto from = spec.find("from");
  if (from == spec.end() || !from->is_string()) return bad("'from' must be a collection name");
  if (Status s = check_collection_name(from->get<std::string>()); !s) return bad(s.message());
  auto local = path_field(spec, "local_field", options);
  if (!local) return local.status();
  auto foreign = path_field(spec, "foreign_field", options);
  if (!foreign) return foreign.status();
  auto as = path_field(spec, "as", query::ParseOptions{});  // a user field: no '_' names
  if (!as) return as.status();
  return LookupSpec{from->get<std::string>(), std::move(*local), std::move(*foreign),
                    std::move(*as)};
}

// The values of `path` a document joins on: array values element by element; null if missing.
json join_values(const json& doc, const query::FieldPath& path) {
  json out = json::array();
  const query::PathValues reached = query::collect(doc, path);
  for (const json* value : reached.values) {
    if (value->is_array()) {
      for (const json& element : *value) out.push_back(element);
    } else {
      out.push_back(*value);
    }
  }
  if (out.empty()) out.push_back(nullptr);
  return out;
}

json unique(const json& values) {
  std::set<std::string> seen;
  json out = json::array();
  for (const json& v : values) {
    if (seen.insert(v.dump()).second) out.push_back(v);
  }
  return out;
}

Status apply_one(std::vector<json>& documents, const LookupSpec& spec, const FetchForeign& fetch) {
  json all_values = json::array();
  std::vector<json> per_doc;
  per_doc.reserve(documents.size());
  for (const json& doc : documents) {
    per_doc.push_back(join_values(doc, spec.local));
    for (const json& v : per_doc.back()) all_values.push_back(v);
  }
  std::vector<json> foreign;
  if (!documents.empty()) {
    auto fetched = fetch(spec.from, {{spec.foreign, query::Op::kIn, unique(all_values)}});
    if (!fetched) return fetched.status();
    foreign = std::move(*fetched);
  }
  for (std::size_t i = 0; i < documents.size(); ++i) {
    const query::Condition joins{spec.foreign, query::Op::kIn, per_doc[i]};
    json joined = json::array();
    for (const json& candidate : foreign) {
      if (query::matches(joins, candidate)) joined.push_back(candidate);
    }
    store::Change put;
    put.set[spec.as.text] = std::move(joined);
    if (Status s = store::apply_change(documents[i], put); !s) {
      return bad("cannot write 'as' field '" + spec.as.text + "': " + s.message());
    }
  }
  return Status::ok();
}

}  // namespace

Result<std::vector<LookupSpec>> parse_lookup(const json& lookup,
                                             const query::ParseOptions& options) {
  std::vector<LookupSpec> out;
  if (lookup.is_array()) {
    if (lookup.size() > 10) return bad("at most 10 lookups", {{"max", 10}});
    for (const json& spec : lookup) {
      auto parsed = parse_one(spec, options);
      if (!parsed) return parsed.status();
      out.push_back(std::move(*parsed));
    }
    return out;
  }
  auto parsed = parse_one(lookup, options);
  if (!parsed) return parsed.status();
  out.push_back(std::move(*parsed));
  return out;
}

Status apply_lookups(std::vector<json>& documents, const std::vector<LookupSpec>& specs,
                     const FetchForeign& fetch) {
  for (const LookupSpec& spec : specs) {
    if (Status s = apply_one(documents, spec, fetch); !s) return s;
  }
  return Status::ok();
}

}  // namespace opbase::collection
