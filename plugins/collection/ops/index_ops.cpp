// The datastore's index admin ops (see ops/index_ops.hpp).
#include "ops/index_ops.hpp"

#include <algorithm>
#include <string>

#include "opbase/field_error.hpp"
#include "ops/request_fields.hpp"
#include "rules/caller_access.hpp"

namespace opbase::collection {
namespace {

using nlohmann::json;

// `field`: a field path as queries write it.
Result<std::string> field_of(const json& body, const query::ParseOptions& options) {
  const auto it = body.find("field");
  if (it == body.end() || !it->is_string()) return missing("field", "a field path");
  auto path = query::parse_path(it->get<std::string>(), options);
  if (!path) return field_error("field", path.status().message());
  return path->text;
}

}  // namespace

IndexOps::IndexOps(const Host& host, query::ParseOptions user_query, const RuleBook& rules)
    : host_(host), store_(host), user_query_(std::move(user_query)), rules_(rules) {}

Result<Reply> IndexOps::list(const Request& request) {
  auto collection = collection_of(request.body);
  if (!collection) return collection.status();
  auto listed = store_.indexes(request.project_id, *collection);
  if (!listed) return listed.status();
  return Reply(std::move(*listed));
}

Result<Reply> IndexOps::add(const Request& request) {
  auto collection = collection_of(request.body);
  if (!collection) return collection.status();
  auto field = field_of(request.body, user_query_);
  if (!field) return field.status();
  auto index = store_.add_index(request.project_id, *collection, *field);
  if (!index) return index.status();
  return Reply(std::move(*index));
}

Result<Reply> IndexOps::drop(const Request& request) {
  auto collection = collection_of(request.body);
  if (!collection) return collection.status();
  auto field = field_of(request.body, user_query_);
  if (!field) return field.status();
  if (Status s = store_.drop_index(request.project_id, *collection, *field); !s) return s;
  return Reply(json{{"dropped", true}});
}

// The query as collection.find reads it: as the user `user` with the token roles `roles` (["user"]
// unless given) under the collection's rules, or over everyone's documents.
Result<Reply> IndexOps::explain(const Request& request) {
  const json& body = request.body;
  auto collection = collection_of(body);
  if (!collection) return collection.status();
  auto match = match_field(body, "match", false, user_query_);
  if (!match) return match.status();
  auto sort = sort_field(body, user_query_);
  if (!sort) return sort.status();
  auto paging = paging_fields(body, user_query_);
  if (!paging) return paging.status();
  const auto user = body.find("user");
  if (user != body.end() && !user->is_null() && !user->is_string()) {
    return field_error("user", "user must be a user key");
  }
  const auto count = body.find("count");
  if (count != body.end() && !count->is_boolean()) {
    return field_error("count", "count must be a boolean");
  }
  Caller caller{user != body.end() && user->is_string() ? user->get<std::string>() : "", {"user"}};
  if (const auto roles = body.find("roles"); roles != body.end() && !roles->is_null()) {
    if (!roles->is_array() ||
        !std::all_of(roles->begin(), roles->end(), [](const json& r) { return r.is_string(); })) {
      return field_error("roles", "roles must be an array of role names");
    }
    caller.roles = roles->get<std::vector<std::string>>();
  }
  std::optional<store::Scope> scope = store::Scope::everyone();
  if (caller.signed_in()) {
    auto rules = rules_.of(request.project_id, *collection, host_.now_ms());
    if (!rules) return rules.status();
    scope = scope_for(rules->read, Action::kRead, caller);
  }
  if (!scope) {  // the rules let this user read nothing there
    return Reply(json{
        {"plan", "none"}, {"index", nullptr}, {"rows_read", 0}, {"matched", 0}, {"time_ms", 0}});
  }
  store::FindRequest query;
  query.collection = *collection;
  query.scope = std::move(*scope);
  query.match = std::move(*match);
  query.sort = std::move(*sort);
  query.limit = paging->limit;
  query.offset = paging->offset;
  auto plan = store_.explain(request.project_id, query, count != body.end() && count->get<bool>());
  if (!plan) return plan.status();
  return Reply(std::move(*plan));
}

}  // namespace opbase::collection
