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

}  // namespace

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
