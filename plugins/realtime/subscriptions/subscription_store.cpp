#include "subscriptions/subscription_store.hpp"

#include "opbase/error_code.hpp"
#include "opbase/store.hpp"

namespace opbase::realtime {
namespace {

using nlohmann::json;

constexpr const char* kClients = "_clients";
constexpr const char* kSubscriptions = "_subscriptions";

query::Match match_of(const json& match) {
  auto parsed = query::parse_match(match, store::wire_parse_options());
  return parsed ? std::move(*parsed) : query::Match{};
}

Status unknown_client() {
  return Status::validation("no event stream of this project has that client_id",
                            {{"field", "client_id"}, {"reason", "unknown_client"}});
}

Status over_limit(std::string message, std::string_view limit, int64_t value) {
  return Status(code::kRateLimitExceeded, std::move(message),
                {{"limit", limit}, {"max", value}, {"retry_after", 5}});
}

}  // namespace

Status SubscriptionStore::add_client(std::string_view project, std::string_view client_id,
                                     int64_t now_ms) const {
  return store_.insert(
      project,
      {kClients,
       {{{"_key", client_id}, {"_userkey", nullptr}, {"_created_at", now_ms}, {"user", nullptr}}}});
}

Status SubscriptionStore::remove_client(std::string_view project, std::string_view client_id,
                                        int64_t now_ms) const {
  for (const auto& [collection, field] :
       {std::pair{kSubscriptions, "client_id"}, std::pair{kClients, "_key"}}) {
    auto moved = store_.change_state(
        project, {collection, store::Scope::everyone(), match_of({{field, client_id}}),
                  store::State::kActive, store::State::kDeleted, "gone", now_ms});
    if (!moved) return moved.status();
  }
  return Status::ok();
}

Result<json> SubscriptionStore::client(std::string_view project, std::string_view client_id) const {
  store::FindRequest find{kClients, store::Scope::everyone(), store::State::kActive,
                          match_of({{"_key", client_id}})};
  find.limit = 1;
  auto found = store_.find(project, find);
  if (!found) return found.status();
  if (found->documents.empty()) return unknown_client();
  return std::move(found->documents.front());
}

Result<int64_t> SubscriptionStore::count(std::string_view project, std::string_view collection,
                                         const json& match) const {
  return store_.count(project, {std::string(collection), store::Scope::everyone(),
                                store::State::kActive, match_of(match)});
}

Status SubscriptionStore::claim(std::string_view project, std::string_view client_id,
                                std::string_view user, bool adding) const {
  auto record = client(project, client_id);
  if (!record) return record.status();
  const json owner = record->value("user", json());
  if (owner.is_null() && !adding) return Status::ok();  // no subscription to remove yet
  if (owner.is_null()) {
    if (!user.empty()) {
      auto streams = count(project, kClients, {{"user", user}});
      if (!streams) return streams.status();
      if (*streams >= settings_.max_clients_per_user) {
        return over_limit("this user holds as many event streams as they may", "clients_per_user",
                          settings_.max_clients_per_user);
      }
    }
    // Taken by whichever user's subscription comes first, even through two daemons at once.
    store::UpdateRequest take{kClients, store::Scope::everyone(), {}};
    take.steps.push_back({match_of({{"_key", client_id}, {"user", nullptr}}), {{{"user", user}}}});
    auto taken = store_.update(project, take);
    if (!taken) return taken.status();
    if (taken->documents.empty()) return claim(project, client_id, user, adding);
  } else if (owner != user) {
    return Status(code::kForbidden, "this event stream belongs to another user",
                  {{"field", "client_id"}});
  }
  if (!adding) return Status::ok();
  auto subscriptions = count(project, kSubscriptions, {{"client_id", client_id}});
  if (!subscriptions) return subscriptions.status();
  if (*subscriptions >= settings_.max_subscriptions_per_client) {
    return over_limit("this event stream has as many subscriptions as it may",
                      "subscriptions_per_client", settings_.max_subscriptions_per_client);
  }
  return Status::ok();
}

Status SubscriptionStore::add_subscription(std::string_view project, json subscription) const {
  store::InsertRequest insert{kSubscriptions, {std::move(subscription)}};
  insert.events = {std::string(kSubscribedEvent), "", kSubscriptions, ""};
  return store_.insert(project, insert);
}

Result<bool> SubscriptionStore::remove_subscription(std::string_view project,
                                                    std::string_view client_id,
                                                    std::string_view subscription_id,
                                                    int64_t now_ms) const {
  store::StateRequest remove{kSubscriptions,
                             store::Scope::everyone(),
                             match_of({{"_key", subscription_id}, {"client_id", client_id}}),
                             store::State::kActive,
                             store::State::kDeleted,
                             "unsubscribed",
                             now_ms};
  remove.events = {"", std::string(kUnsubscribedEvent), kSubscriptions, ""};
  auto moved = store_.change_state(project, remove);
  if (!moved) return moved.status();
  return !moved->keys.empty();
}

}  // namespace opbase::realtime
