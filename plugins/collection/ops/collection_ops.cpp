// The datastore ops (see ops/collection_ops.hpp).
#include "ops/collection_ops.hpp"

#include <algorithm>
#include <unordered_set>

#include "opbase/collection_name.hpp"
#include "opbase/field_error.hpp"
#include "opbase/iso_time.hpp"
#include "ops/document_rules.hpp"
#include "ops/lookup.hpp"
#include "ops/pagination.hpp"
#include "ops/request_fields.hpp"
#include "ops/sharing_fields.hpp"
#include "ops/statement.hpp"
#include "ops/update_fields.hpp"

namespace opbase::collection {
namespace {

using nlohmann::json;

// Deleted documents are purged at most this often per project (and always before a restore).
constexpr int64_t kPurgeIntervalMs = 60'000;
constexpr std::string_view kAdminPrefix = "collection.admin.";

json owner_of(const Request& request) {
  return request.signed_in() ? json(std::string(request.user_id)) : json(nullptr);
}

Status owner_only_sharing() {
  return field_error(kReaders,
                     "only a document's owner or an administrator changes its _readers "
                     "and _writers",
                     {}, code::kForbidden);
}

std::string known_key(std::string_view project, std::string_view collection) {
  return std::string(project) + "/" + std::string(collection);
}

json answer_documents(std::vector<json> documents) {
  json out = json::array();
  for (json& doc : documents) out.push_back(with_updated_at(std::move(doc)));
  return out;
}

bool mentions_any(const std::vector<query::SortKey>& sort, const std::vector<LookupSpec>& specs) {
  for (const auto& key : sort) {
    for (const auto& spec : specs) {
      if (key.path.segments.front() == spec.as.segments.front()) return true;
    }
  }
  return false;
}

}  // namespace

CollectionOps::CollectionOps(const Host& host, Settings settings)
    : host_(host),
      store_(host),
      settings_(std::move(settings)),
      rule_book_(store_, std::set<std::string>(settings_.anonymous_collections.begin(),
                                               settings_.anonymous_collections.end())) {
  user_query_.system_fields = base_fields();
  for (std::string_view list : kSharingFields) user_query_.system_fields.emplace_back(list);
  user_query_.limit_cap = settings_.limit_cap;
}

// ---- Shared steps ------------------------------------------------------------------------------

// The administrators' collection.admin.* ops, the same handlers under other names, act on every
// user's documents (docs/api.md#collections-across-users).
bool CollectionOps::acts_as_admin(const Request& request) const {
  return request.op.starts_with(kAdminPrefix);
}

Result<std::optional<store::Scope>> CollectionOps::scope_of(const Request& request,
                                                            const std::string& collection,
                                                            Action action) {
  using Scope = std::optional<store::Scope>;
  if (acts_as_admin(request)) return Scope(store::Scope::everyone());
  auto rules = rule_book_.of(request.project_id, collection, host_.now_ms());
  if (!rules) return rules.status();
  const bool with_roles =
      needs_roles(rules->of(action)) || (action != Action::kRead && needs_roles(rules->read));
  const Caller caller = Caller::of(request, with_roles);
  if (auto scope = scope_for(rules->of(action), action, caller)) return Scope(std::move(*scope));
  if (!caller.signed_in()) {
    return Status(code::kAuthenticationFailed, "sign in to " + std::string(action_name(action)) +
                                                   " documents of '" + collection + "'");
  }
  if (action != Action::kRead && scope_for(rules->read, Action::kRead, caller)) {
    return Status(code::kForbidden,
                  "the rules of '" + collection + "' do not let you " +
                      std::string(action_name(action)) + " its documents",
                  {{"collection", collection}, {"action", action_name(action)}});
  }
  return Scope();  // nothing to reach: the documents are absent for this caller
}

Status CollectionOps::admit(const Request& request, const json& collection,
                            std::initializer_list<Action> actions) {
  if (request.signed_in() || acts_as_admin(request)) return Status::ok();
  const bool inserts = actions.size() == 1 && *actions.begin() == Action::kCreate;
  const Status refused(code::kAuthenticationFailed, inserts
                                                        ? "sign in to insert into this collection"
                                                        : "sign in to use this collection");
  if (!collection.is_string() || !check_collection_name(collection.get<std::string>())) {
    return refused;
  }
  auto rules = rule_book_.of(request.project_id, collection.get<std::string>(), host_.now_ms());
  if (!rules) return rules.status();
  for (Action action : actions) {
    if (!rules->of(action).anyone) return refused;
  }
  return Status::ok();
}

Status CollectionOps::refuse_unreachable(const Request& request, const std::string& collection,
                                         const store::Scope& action_scope,
                                         const query::Match& match, Action action, bool sharing) {
  if (acts_as_admin(request)) return Status::ok();
  auto read = scope_of(request, collection, Action::kRead);
  if (!read || !*read) return Status::ok();  // nothing readable to refuse
  if (**read == action_scope && !sharing) return Status::ok();
  store::FindRequest readable{collection, **read, store::State::kActive, match,
                              {},         0,      settings_.max_batch,   false};
  auto found = store_.find(request.project_id, readable);
  if (!found) return found.status();
  const std::string user(request.user_id);
  for (const json& doc : found->documents) {
    const std::string key = doc.value("_key", "");
    if (!store::in_scope(action_scope, doc)) {
      return Status(code::kForbidden,
                    "you may read the document '" + key + "' but not " +
                        std::string(action_name(action)) + " it",
                    {{"collection", collection}, {"action", action_name(action)}, {"_key", key}});
    }
    const auto owner = doc.find("_userkey");
    if (sharing && !(owner != doc.end() && owner->is_string() && *owner == user)) {
      return Status(
          code::kForbidden,
          "only the owner of '" + key + "' or an administrator changes its _readers and _writers",
          {{"field", kReaders}, {"_key", key}});
    }
  }
  return Status::ok();
}

Result<json> CollectionOps::sharing_of_new(const Request& request, const json& data,
                                           int64_t index) const {
  json reserved = json::object();
  if (!data.is_object()) return reserved;
  for (std::string_view field : kSharingFields) {
    const auto it = data.find(std::string(field));
    if (it == data.end()) continue;
    json more = index >= 0 ? json{{"index", index}} : json::object();
    if (!request.signed_in() && !acts_as_admin(request)) {
      return field_error(field, "an anonymous document has no owner to share it", std::move(more),
                         code::kForbidden);
    }
    auto list = sharing_list(*it, field, settings_.max_sharing_entries);
    if (!list) {
      json details = list.status().details();
      if (index >= 0) details["index"] = index;
      return Status::validation(list.status().message(), std::move(details));
    }
    reserved[std::string(field)] = std::move(*list);
  }
  return reserved;
}

Status CollectionOps::require_collection(std::string_view project, const std::string& collection) {
  const std::string key = known_key(project, collection);
  {
    std::shared_lock lock(known_mutex_);
    if (known_collections_.count(key) != 0) return Status::ok();
  }
  auto exists = store_.collection_exists(project, collection);
  if (!exists) return exists.status();
  if (!*exists) {
    return Status(code::kCollectionNotFound, "collection '" + collection + "' does not exist",
                  {{"collection", collection}});
  }
  std::unique_lock lock(known_mutex_);
  known_collections_.insert(key);  // once created, exists for good (docs/api.md#collections)
  return Status::ok();
}

// One event per document (docs/api.md#events), raised by the store in the write's own transaction,
// so no crash can keep a change and lose its event.
store::Events CollectionOps::events_of(std::string on_insert, std::string on_change,
                                       const std::string& collection) {
  return store::Events{std::move(on_insert), std::move(on_change), collection, ""};
}

void CollectionOps::purge_if_due(std::string_view project, bool force) {
  const int64_t now = host_.now_ms();
  {
    std::lock_guard lock(purge_mutex_);
    auto it = last_purge_ms_.find(project);
    if (!force && it != last_purge_ms_.end() && now - it->second < kPurgeIntervalMs) return;
    last_purge_ms_[std::string(project)] = now;
  }
  store::PurgeRequest purge{store::State::kDeleted, now - settings_.deleted_retention_s * 1000};
  auto removed = store_.purge(project, purge);
  if (!removed) host_.warn("purging deleted documents failed: " + removed.status().message());
}

// ---- read access, for live queries ---------------------------------------------------------

Result<json> CollectionOps::read_access(std::string_view project_id, const json& input) {
  if (!input.is_object()) return Status::validation("collection.read_access takes an object");
  const auto user_it = input.find("user_id");
  const std::string user =
      user_it != input.end() && user_it->is_string() ? std::string(*user_it) : std::string();
  const auto claims_it = input.find("claims");
  const std::string claims =
      !user.empty() && claims_it != input.end() && claims_it->is_object() ? claims_it->dump() : "";
  // The caller as find sees them, so every check below is find's own.
  const Request request{
      "collection.find", "collection.find", "", input, project_id, user, claims, "", "", ""};
  const auto all_users = input.find("all_users");
  const bool every_user = all_users != input.end() && all_users->is_boolean() && *all_users;
  if (every_user) {
    // As collection.admin.find reads: every user's documents, for administrators only.
    const auto roles = Caller::of(request, true).roles;
    if (std::find(roles.begin(), roles.end(), "admin") == roles.end()) {
      return Status(code::kForbidden, "only administrators read every user's documents",
                    {{"field", "all_users"}});
    }
  } else if (Status s = admit(request, input.value("collection", json()), {Action::kRead}); !s) {
    return s;
  }
  auto collection = collection_of(input);
  if (!collection) return collection.status();
  for (const auto& [field, required] : {std::pair{"match", true}, std::pair{"filter", false}}) {
    if (auto parsed = match_field(input, field, required, user_query_); !parsed) {
      return parsed.status();
    }
  }
  if (auto it = input.find("project"); it != input.end() && !it->is_null()) {
    if (auto parsed = query::parse_projection(*it, user_query_); !parsed) return parsed.status();
  }
  if (every_user) return json{{"scope", store::scope_to_json(store::Scope::everyone())}};
  auto scope = scope_of(request, *collection, Action::kRead);
  if (!scope) return scope.status();
  return json{{"scope", *scope ? store::scope_to_json(**scope) : json(nullptr)}};
}

// ---- find / count ------------------------------------------------------------------------------

Result<Reply> CollectionOps::find(const Request& request) {
  if (Status s = admit(request, request.body.value("collection", json()), {Action::kRead}); !s)
    return s;
  const json& body = request.body;
  auto collection = collection_of(body);
  if (!collection) return collection.status();
  auto match = match_field(body, "match", true, user_query_);
  if (!match) return match.status();
  auto filter = match_field(body, "filter", false, user_query_);
  if (!filter) return filter.status();
  auto sort = sort_field(body, user_query_);
  if (!sort) return sort.status();
  auto paging = paging_fields(body, user_query_);
  if (!paging) return paging.status();
  query::Projection projection;
  if (auto it = body.find("project"); it != body.end() && !it->is_null()) {
    auto parsed = query::parse_projection(*it, user_query_);
    if (!parsed) return parsed.status();
    projection = std::move(*parsed);
  }
  if (Status s = require_collection(request.project_id, *collection); !s) return s;
  auto scope = scope_of(request, *collection, Action::kRead);
  if (!scope) return scope.status();
  if (!*scope) {
    return Reply(json::array())
        .with_meta({{"pagination", pagination(paging->limit, paging->offset, 0, 0)}});
  }

  store::FindRequest query;
  query.collection = *collection;
  query.scope = std::move(**scope);
  query.match = std::move(*match);
  query.sort = std::move(*sort);
  const auto lookup = body.find("lookup");
  const bool joins = lookup != body.end() && !lookup->is_null();
  const bool projects = projection.include || !projection.fields.empty() || !projection.keep_key;
  if (!joins) {
    // Without a join, filter is just more conditions on the same documents.
    query.match.insert(query.match.end(), filter->begin(), filter->end());
    query.offset = paging->offset;
    query.limit = paging->limit;
    query.with_total = true;
  }
  if (!joins && !projects) {
    // The common case: the page goes out as the store wrote it, never parsed here.
    auto page = store_.find_text(request.project_id, query);
    if (!page) return page.status();
    return Reply::from_text(std::move(page->documents))
        .with_meta(
            {{"pagination", pagination(paging->limit, paging->offset, page->total, page->count)}});
  }
  auto found = joins ? find_with_lookup(request, std::move(query), *lookup, *filter, *paging)
                     : store_.find(request.project_id, query);
  if (!found) return found.status();
  json documents = json::array();
  for (json& doc : found->documents) {
    documents.push_back(projects ? query::apply_projection(doc, projection) : std::move(doc));
  }
  const auto count = static_cast<int64_t>(documents.size());
  return Reply(std::move(documents))
      .with_meta({{"pagination", pagination(paging->limit, paging->offset, found->total, count)}});
}

// match → lookup → filter → sort → offset/limit (docs/api.md#find). When neither filter nor sort
// needs the joined fields, the store pages and only the page is joined; otherwise the matched
// documents (at most datastore.max_lookup_scan) are joined, filtered and sorted here.
Result<store::FindAnswer> CollectionOps::find_with_lookup(const Request& request,
                                                          store::FindRequest query,
                                                          const json& lookup,
                                                          const query::Match& filter,
                                                          const query::Paging& paging) {
  auto specs = parse_lookup(lookup, user_query_);
  if (!specs) return specs.status();
  const std::string project(request.project_id);
  const FetchForeign fetch = [&](const std::string& from,
                                 const query::Match& match) -> Result<std::vector<json>> {
    auto exists = store_.collection_exists(project, from);
    if (!exists) return exists.status();
    if (!*exists) return std::vector<json>{};
    // The rules of `from` decide what joins: what the caller could find there.
    auto scope = scope_of(request, from, Action::kRead);
    if (!scope) return scope.status();
    if (!*scope) return std::vector<json>{};
    store::FindRequest foreign{
        from, std::move(**scope), store::State::kActive, match, {}, 0, settings_.max_lookup_scan,
        false};
    auto answer = store_.find(project, foreign);
    if (!answer) return answer.status();
    return std::move(answer->documents);
  };
  if (filter.empty() && !mentions_any(query.sort, *specs)) {
    query.offset = paging.offset;
    query.limit = paging.limit;
    query.with_total = true;
    auto page = store_.find(project, query);
    if (!page) return page.status();
    if (Status s = apply_lookups(page->documents, *specs, fetch); !s) return s;
    return page;
  }
  query.limit = settings_.max_lookup_scan + 1;
  auto all = store_.find(project, query);
  if (!all) return all.status();
  if (static_cast<int64_t>(all->documents.size()) > settings_.max_lookup_scan) {
    return field_error("match",
                       "a find with lookup and filter joins at most " +
                           std::to_string(settings_.max_lookup_scan) +
                           " documents: narrow the match",
                       {{"limit", settings_.max_lookup_scan}});
  }
  if (Status s = apply_lookups(all->documents, *specs, fetch); !s) return s;
  std::vector<json> kept;
  for (json& doc : all->documents) {
    if (query::matches(filter, doc)) kept.push_back(std::move(doc));
  }
  std::vector<query::SortKey> order = query.sort;
  order.push_back({{"_key", {"_key"}}, !order.empty() && order.back().descending});
  std::stable_sort(kept.begin(), kept.end(), [&](const json& a, const json& b) {
    return query::compare_for_sort(a, b, order) < 0;
  });
  store::FindAnswer out;
  out.total = static_cast<int64_t>(kept.size());
  for (int64_t i = paging.offset; i < out.total && i < paging.offset + paging.limit; ++i) {
    out.documents.push_back(std::move(kept[static_cast<std::size_t>(i)]));
  }
  return out;
}

Result<Reply> CollectionOps::count(const Request& request) {
  if (Status s = admit(request, request.body.value("collection", json()), {Action::kRead}); !s)
    return s;
  auto collection = collection_of(request.body);
  if (!collection) return collection.status();
  auto match = match_field(request.body, "match", true, user_query_);
  if (!match) return match.status();
  if (Status s = require_collection(request.project_id, *collection); !s) return s;
  auto scope = scope_of(request, *collection, Action::kRead);
  if (!scope) return scope.status();
  if (!*scope) return Reply({{"count", 0}});
  auto n = store_.count(request.project_id, {*collection, std::move(**scope), store::State::kActive,
                                             std::move(*match)});
  if (!n) return n.status();
  return Reply({{"count", *n}});
}

// ---- insert ------------------------------------------------------------------------------------

// Signed-in users own what they insert, when the create rule lets them. Anonymous insert
// (docs/api.md#anonymous-insert) needs `anyone` in the create rule and a captcha the configured
// verifier accepts; nobody owns the result.
Result<json> CollectionOps::owner_for_insert(const Request& request,
                                             const std::string& collection) {
  if (acts_as_admin(request)) return owner_of(request);
  auto rules = rule_book_.of(request.project_id, collection, host_.now_ms());
  if (!rules) return rules.status();
  const Caller caller = Caller::of(request, needs_roles(rules->create));
  if (!may_create(rules->create, caller)) {
    if (!caller.signed_in()) {
      return Status(code::kAuthenticationFailed, "sign in to insert into this collection");
    }
    return Status(code::kForbidden,
                  "the rules of '" + collection + "' do not let you create its documents",
                  {{"collection", collection}, {"action", "create"}});
  }
  if (caller.signed_in()) return owner_of(request);
  const auto captcha = request.body.find("captcha");
  if (captcha == request.body.end() || !captcha->is_string() ||
      captcha->get_ref<const std::string&>().empty()) {
    return field_error("captcha", "an anonymous insert needs a captcha", {},
                       code::kAuthenticationFailed);
  }
  auto verdict =
      host_.call_service(settings_.captcha_service, request.project_id,
                         {{"token", *captcha}, {"client_address", request.client_address}});
  if (!verdict) return verdict.status();
  const auto valid = verdict->find("valid");
  if (valid == verdict->end() || !valid->is_boolean() || !valid->get<bool>()) {
    // The verifier's reason (expired, replayed, ...) tells the page whether to solve afresh.
    json more = json::object();
    const auto reason = verdict->find("reason");
    if (reason != verdict->end() && reason->is_string()) more["reason"] = *reason;
    return field_error("captcha", "the captcha was not accepted", std::move(more),
                       code::kAuthenticationFailed);
  }
  return json(nullptr);
}

Result<Reply> CollectionOps::insert_documents(const Request& request, const std::string& collection,
                                              const json& data) {
  if (!request.signed_in()) {
    // A caller without a token sets no sharing list: refused before its captcha is spent.
    const bool many = data.is_array();
    for (std::size_t i = 0; i < (many ? data.size() : 1); ++i) {
      auto shared = sharing_of_new(request, many ? data[i] : data, many ? int64_t(i) : -1);
      if (!shared) return shared.status();
    }
  }
  auto owner = owner_for_insert(request, collection);
  if (!owner) return owner.status();
  const bool batch = data.is_array();
  if (!batch && !data.is_object()) return missing("data", "an object or an array of objects");
  const std::size_t n = batch ? data.size() : 1;
  if (n == 0) return field_error("data", "'data' holds no document");
  if (static_cast<int64_t>(n) > settings_.max_batch) {
    return Status::validation("too many documents in one insert",
                              {{"limit", settings_.max_batch}, {"size", n}});
  }
  store::InsertRequest insert{collection, {}, events_of("document.created", "", collection)};
  const int64_t now = host_.now_ms();
  for (std::size_t i = 0; i < n; ++i) {
    const json& item = batch ? data[i] : data;
    const int64_t index = batch ? static_cast<int64_t>(i) : -1;
    auto reserved = sharing_of_new(request, item, index);
    if (!reserved) return reserved.status();
    auto doc = new_document(item, *owner, now, settings_.max_document_bytes, index, *reserved);
    if (!doc) return doc.status();
    insert.documents.push_back(std::move(*doc));
  }
  if (Status s = store_.insert(request.project_id, insert); !s) return s;
  {
    std::unique_lock lock(known_mutex_);
    known_collections_.insert(known_key(request.project_id, collection));
  }
  return Reply(answer_documents(std::move(insert.documents)));
}

Result<Reply> CollectionOps::insert(const Request& request) {
  if (Status s = admit(request, request.body.value("collection", json()), {Action::kCreate}); !s)
    return s;
  auto collection = collection_of(request.body);
  if (!collection) return collection.status();
  const auto data = request.body.find("data");
  if (data == request.body.end()) return missing("data", "an object or an array of objects");
  return insert_documents(request, *collection, *data);
}

Result<Reply> CollectionOps::statement(const Request& request) {
  const auto text = request.body.find("query");
  if (!request.signed_in()) {
    // Refused first unless the statement names a collection anyone may insert into.
    auto named = text != request.body.end() && text->is_string()
                     ? parse_statement(text->get<std::string>())
                     : Result<InsertStatement>(Status::validation("no statement"));
    const json collection = named ? json(named->collection) : json();
    if (Status s = admit(request, collection, {Action::kCreate}); !s) return s;
  }
  if (text == request.body.end() || !text->is_string()) return missing("query", "a string");
  auto parsed = parse_statement(text->get<std::string>());
  if (!parsed) return parsed.status();
  const auto variables = request.body.find("variables");
  if (variables == request.body.end()) return missing("variables", "an object");
  auto data = bind_statement_data(*parsed, *variables);
  if (!data) return data.status();
  return insert_documents(request, parsed->collection, *data);
}

// ---- update / upsert ---------------------------------------------------------------------------

Result<Reply> CollectionOps::update(const Request& request) {
  if (Status s = admit(request, request.body.value("collection", json()), {Action::kUpdate}); !s)
    return s;
  const json& body = request.body;
  auto collection = collection_of(body);
  if (!collection) return collection.status();
  const auto data = body.find("data");
  if (data == body.end() || !(data->is_object() || data->is_array())) {
    return missing("data", "an object or an array of objects");
  }
  const int64_t now = host_.now_ms();
  // The scope is set from the rules once the steps are read, before the update is sent.
  store::UpdateRequest update{
      *collection, store::Scope::user(""), {}, events_of("", "document.updated", *collection)};
  // Owners and administrators set the sharing lists; administrators also the owner.
  const ReservedFields reserved{settings_.max_sharing_entries, acts_as_admin(request)};
  bool sharing = false;
  query::Match selected;  // what the steps select, for refuse_unreachable
  json keys = json::array();
  auto add_step = [&](query::Match match, json fields, int64_t index) -> Status {
    const auto size = static_cast<int64_t>(fields.dump().size());
    if (size > settings_.max_document_bytes) {
      json details = {{"limit", settings_.max_document_bytes}, {"size", size}};
      if (index >= 0) details["index"] = index;
      return Status::validation("the update is larger than the maximum document size", details);
    }
    auto change = change_from_fields(fields, now, reserved);
    if (!change) return change.status();
    sharing = sharing || changes_sharing(*change);
    update.steps.push_back({std::move(match), std::move(*change)});
    return Status::ok();
  };
  // Strategies 1 and 2: each object names its document by _key.
  auto by_key = [&](const json& item, int64_t index) -> Status {
    const auto key = item.is_object() ? item.find("_key") : item.end();
    if (!item.is_object() || key == item.end() || !key->is_string()) {
      json more = json::object();
      if (index >= 0) more["index"] = index;
      return field_error("data", "each update needs a string _key, or give match and data",
                         std::move(more));
    }
    json fields = item;
    fields.erase("_key");
    keys.push_back(*key);
    return add_step({{{"_key", {"_key"}}, query::Op::kEq, *key}}, std::move(fields), index);
  };
  const auto match_it = body.find("match");
  if (match_it != body.end() && !match_it->is_null()) {
    auto match = match_field(body, "match", true, user_query_);
    if (!match) return match.status();
    if (!data->is_object()) return missing("data", "an object of fields when match is given");
    selected = *match;
    if (Status s = add_step(std::move(*match), *data, -1); !s) return s;
  } else if (data->is_array()) {
    if (data->empty()) return field_error("data", "'data' holds no update");
    if (static_cast<int64_t>(data->size()) > settings_.max_batch) {
      return Status::validation("too many updates in one request",
                                {{"limit", settings_.max_batch}, {"size", data->size()}});
    }
    for (std::size_t i = 0; i < data->size(); ++i) {
      if (Status s = by_key((*data)[i], static_cast<int64_t>(i)); !s) return s;
    }
  } else if (Status s = by_key(*data, -1); !s) {
    return s;
  }
  for (const store::UpdateStep& step : update.steps) {
    const auto owner = step.change.set.find("_userkey");
    if (owner == step.change.set.end() || !owner->is_string()) continue;
    // An administrator gives documents to an account that exists (asked of the auth plugin).
    auto exists = host_.call_service("auth.user_exists", request.project_id, {{"user", *owner}});
    if (!exists) return exists.status();
    if (!exists->value("exists", false))
      return field_error("_userkey", "no user has this _userkey");
  }
  if (Status s = require_collection(request.project_id, *collection); !s) return s;
  auto scope = scope_of(request, *collection, Action::kUpdate);
  if (!scope) return scope.status();
  if (!*scope) return Reply(json::array());
  if (keys.size() > 0) {
    selected = {{{"_key", {"_key"}}, query::Op::kIn, keys}};
  }
  if (Status s =
          refuse_unreachable(request, *collection, **scope, selected, Action::kUpdate, sharing);
      !s) {
    return s;
  }
  update.scope = std::move(**scope);
  if (sharing && !acts_as_admin(request)) {
    // The sharing lists change only on documents the caller owns, and may change.
    const bool may_own =
        request.signed_in() && (update.scope.every_document() || update.scope.owner);
    if (!may_own) return owner_only_sharing();
    update.scope = store::Scope::user(std::string(request.user_id));
  }
  auto updated = store_.update(request.project_id, update);
  if (!updated) return updated.status();
  return Reply(answer_documents(std::move(updated->documents)));
}

Result<Reply> CollectionOps::upsert(const Request& request) {
  if (Status s = admit(request, request.body.value("collection", json()),
                       {Action::kUpdate, Action::kCreate});
      !s)
    return s;
  const json& body = request.body;
  auto collection = collection_of(body);
  if (!collection) return collection.status();
  auto match = match_field(body, "match", true, user_query_);
  if (!match) return match.status();
  const auto update = body.find("update");
  if (update == body.end() || !update->is_object()) return missing("update", "an object");
  const auto insert = body.find("insert");
  if (insert == body.end() || !insert->is_object()) return missing("insert", "an object");
  const int64_t now = host_.now_ms();
  auto change = change_from_fields(*update, now, {settings_.max_sharing_entries, false});
  if (!change) return change.status();
  const bool sharing = changes_sharing(*change);
  auto reserved = sharing_of_new(request, *insert, -1);
  if (!reserved) return reserved.status();
  auto owner = owner_for_insert(request, *collection);  // the create rule (and a captcha)
  if (!owner) return owner.status();
  auto doc = new_document(*insert, *owner, now, settings_.max_document_bytes, -1, *reserved);
  if (!doc) return doc.status();
  auto scope = scope_of(request, *collection, Action::kUpdate);
  if (!scope) return scope.status();
  if (!*scope) {
    return Status(code::kForbidden,
                  "the rules of '" + *collection + "' do not let you update its documents",
                  {{"collection", *collection}, {"action", "update"}});
  }
  if (sharing && !(request.signed_in() && ((*scope)->every_document() || (*scope)->owner))) {
    return owner_only_sharing();
  }
  if (Status s =
          refuse_unreachable(request, *collection, **scope, *match, Action::kUpdate, sharing);
      !s) {
    return s;
  }
  if (sharing) *scope = store::Scope::user(std::string(request.user_id));
  auto result = store_.upsert(
      request.project_id,
      {*collection, std::move(**scope), std::move(*match), std::move(*change), std::move(*doc),
       events_of("document.created", "document.updated", *collection)});
  if (!result) return result.status();
  if (result->inserted) {
    std::unique_lock lock(known_mutex_);
    known_collections_.insert(known_key(request.project_id, *collection));
  }
  json data = json::array({with_updated_at(std::move(result->document))});
  return Reply(std::move(data)).with_meta({{"upserted", result->inserted}});
}

// ---- delete / archive / restore ----------------------------------------------------------------

Result<Reply> CollectionOps::move_state(const Request& request, store::State to,
                                        std::string_view event) {
  if (Status s = admit(request, request.body.value("collection", json()), {Action::kDelete}); !s)
    return s;
  auto collection = collection_of(request.body);
  if (!collection) return collection.status();
  auto match = match_field(request.body, "match", true, user_query_);
  if (!match) return match.status();
  if (Status s = require_collection(request.project_id, *collection); !s) return s;
  auto scope = scope_of(request, *collection, Action::kDelete);
  if (!scope) return scope.status();
  const std::string ref = new_ref();
  if (!*scope) return Reply({{"_ref", ref}});  // nothing the caller could reach matched
  if (Status s = refuse_unreachable(request, *collection, **scope, *match, Action::kDelete, false);
      !s) {
    return s;
  }
  purge_if_due(request.project_id, false);
  auto moved =
      store_.change_state(request.project_id, {*collection, std::move(**scope), std::move(*match),
                                               store::State::kActive, to, ref, host_.now_ms(),
                                               events_of("", std::string(event), *collection)});
  if (!moved) return moved.status();
  return Reply({{"_ref", ref}});
}

Result<Reply> CollectionOps::remove(const Request& request) {
  return move_state(request, store::State::kDeleted, "document.deleted");
}

Result<Reply> CollectionOps::archive(const Request& request) {
  return move_state(request, store::State::kArchived, "document.updated");
}

Result<Reply> CollectionOps::restore(const Request& request) {
  if (Status s = admit(request, request.body.value("collection", json()), {Action::kDelete}); !s)
    return s;
  auto collection = collection_of(request.body);
  if (!collection) return collection.status();
  const auto match = request.body.find("match");
  if (match == request.body.end() || !match->is_object()) return missing("match", "an object");
  const auto ref = match->find("_ref");
  if (ref == match->end() || !ref->is_string() || ref->get_ref<const std::string&>().empty()) {
    return field_error("match._ref", "match must hold the _ref answered by delete or archive");
  }
  if (Status s = require_collection(request.project_id, *collection); !s) return s;
  auto scope = scope_of(request, *collection, Action::kDelete);  // restore undoes a delete
  if (!scope) return scope.status();
  if (!*scope) return Reply({{"data", false}});
  purge_if_due(request.project_id, true);  // a _ref past the retention restores nothing
  auto restored =
      store_.restore(request.project_id, {*collection, std::move(**scope), ref->get<std::string>(),
                                          events_of("", "document.updated", *collection)});
  if (!restored) return restored.status();
  return Reply({{"data", !restored->keys.empty()}});
}

// ---- collection.admin.claim ------------------------------------------------------------------

// An administrator gives anonymously inserted documents (docs/api.md#anonymous-insert) to a user,
// who then owns them as if they had inserted them. Only documents nobody owns move, so a claim
// never takes a document from its owner, and the user must exist (asked of the auth plugin).
Result<Reply> CollectionOps::claim(const Request& request) {
  auto collection = collection_of(request.body);
  if (!collection) return collection.status();
  auto match = match_field(request.body, "match", true, user_query_);
  if (!match) return match.status();
  const auto user = request.body.find("user");
  if (user == request.body.end() || !user->is_string() || user->get<std::string>().empty()) {
    return missing("user", "the _userkey of the user who gets the documents");
  }
  auto exists = host_.call_service("auth.user_exists", request.project_id, {{"user", *user}});
  if (!exists) return exists.status();
  if (!exists->value("exists", false)) {
    return field_error("user", "no user has this _userkey");
  }
  if (Status s = require_collection(request.project_id, *collection); !s) return s;
  match->push_back({{"_userkey", {"_userkey"}}, query::Op::kEq, nullptr});
  store::Change change;
  change.set = {{"_userkey", *user}, {"_modified_at", iso_time(host_.now_ms())}};
  store::UpdateRequest update{
      *collection, store::Scope::everyone(), {}, events_of("", "document.updated", *collection)};
  update.steps.push_back({std::move(*match), std::move(change)});
  auto updated = store_.update(request.project_id, update);
  if (!updated) return updated.status();
  return Reply({{"claimed", updated->documents.size()}});
}

// ---- collection.admin.list -------------------------------------------------------------------

Result<Reply> CollectionOps::list_collections(const Request& request) {
  auto names = store_.collections(request.project_id);
  if (!names) return names.status();
  json out = json::array();
  for (const std::string& name : *names) {
    if (!check_collection_name(name)) continue;  // the plugin's own, such as the rules
    json entry = {{"name", name}};
    for (auto [state, field] : {std::pair{store::State::kActive, "active"},
                                std::pair{store::State::kArchived, "archived"},
                                std::pair{store::State::kDeleted, "deleted"}}) {
      auto n = store_.count(request.project_id, {name, store::Scope::everyone(), state, {}});
      if (!n) return n.status();
      entry[field] = *n;
    }
    out.push_back(std::move(entry));
  }
  return Reply(std::move(out));
}

}  // namespace opbase::collection
