#include "subscriptions/subscription.hpp"

namespace opbase::realtime {
namespace {

using nlohmann::json;

// Whether the subscriber may see `doc` through this subscription: readable by its rules and
// matching its conditions.
bool visible(const Subscription& s, const json& doc) {
  return doc.is_object() && s.scope && store::in_scope(*s.scope, doc) &&
         query::matches(s.match, doc);
}

Delivery delivery(const Subscription& s, const JournalEvent& e, std::string_view name,
                  const json& doc) {
  json data = {{"subscription_id", s.id}, {"collection", e.collection}, {"_key", e.key}};
  if (!s.keys_only)
    data["document"] = s.projects ? query::apply_projection(doc, s.projection) : doc;
  return Delivery{name, std::move(data)};
}

// The conditions and projection realtime.subscribe had collection.read_access check, parsed for
// judging events: its checks used the users' options; these only guard.
const query::ParseOptions& checked_options() {
  static const query::ParseOptions options = [] {
    query::ParseOptions o;
    o.allow_system_fields = true;
    return o;
  }();
  return options;
}

Status add_conditions(query::Match& match, const json& record, const char* field) {
  const auto it = record.find(field);
  if (it == record.end() || it->is_null()) return Status::ok();
  auto parsed = query::parse_match(*it, checked_options());
  if (!parsed) return parsed.status();
  match.insert(match.end(), parsed->begin(), parsed->end());
  return Status::ok();
}

}  // namespace

Result<Subscription> subscription_from_record(const json& record, int64_t now_ms) {
  Subscription s;
  s.id = record.value("_key", "");
  s.collection = record.value("collection", "");
  if (Status st = add_conditions(s.match, record, "match"); !st) return st;
  if (Status st = add_conditions(s.match, record, "filter"); !st) return st;
  if (const auto it = record.find("project"); it != record.end() && !it->is_null()) {
    auto projection = query::parse_projection(*it, checked_options());
    if (!projection) return projection.status();
    s.projection = std::move(*projection);
    s.projects = true;
  }
  s.keys_only = record.value("keys_only", false);
  if (const auto it = record.find("scope"); it != record.end() && !it->is_null()) {
    auto scope = store::scope_from_json(*it);
    if (!scope) return scope.status();
    s.scope = std::move(*scope);
  }
  s.scope_checked_ms = now_ms;
  s.access_request = record.value("access", json::object());
  return s;
}

std::optional<Delivery> judge(const Subscription& s, const JournalEvent& e) {
  if (e.collection != s.collection) return std::nullopt;
  if (e.write == "update") {
    const bool was = visible(s, e.before);
    const bool is = visible(s, e.document);
    if (was && is) return delivery(s, e, "updated", e.document);
    if (is) return delivery(s, e, "enter", e.document);
    if (was) return delivery(s, e, "leave", e.before);
    return std::nullopt;
  }
  if (!visible(s, e.document)) return std::nullopt;
  if (e.write == "insert") return delivery(s, e, "created", e.document);
  if (e.write == "archive") return delivery(s, e, "archived", e.document);
  if (e.write == "delete") return delivery(s, e, "deleted", e.document);
  if (e.write == "restore") return delivery(s, e, "restored", e.document);
  return std::nullopt;
}

}  // namespace opbase::realtime
