#include "clients/client_registry.hpp"

#include <algorithm>

#include "opbase/crypto.hpp"
#include "opbase/error_code.hpp"
#include "stream/sse_frame.hpp"

namespace opbase::realtime {
namespace {

using nlohmann::json;

Status over_limit(std::string message, std::string_view limit, int64_t value) {
  return Status(code::kRateLimitExceeded, std::move(message),
                {{"limit", limit}, {"max", value}, {"retry_after", 5}});
}

std::string user_key(std::string_view project, std::string_view user) {
  return std::string(project) + '\0' + std::string(user);
}

}  // namespace

std::string ClientRegistry::index_key(std::string_view project, std::string_view collection) {
  return std::string(project) + '\0' + std::string(collection);
}

Result<std::string> ClientRegistry::add(std::string project, std::string address,
                                        std::string resume_from, int64_t now_ms) {
  std::lock_guard lock(mu_);
  if (static_cast<int64_t>(clients_.size()) >= settings_.max_clients) {
    return over_limit("this server holds as many event streams as it may", "clients",
                      settings_.max_clients);
  }
  int64_t& from_address = per_address_[address];
  if (from_address >= settings_.max_clients_per_address) {
    return over_limit("too many event streams from this address", "clients_per_address",
                      settings_.max_clients_per_address);
  }
  ++from_address;
  auto client = std::make_unique<Client>();
  client->id = "rtc_" + random_hex(16);
  client->project = std::move(project);
  client->address = std::move(address);
  client->resume_from = std::move(resume_from);
  client->last_sent_ms = now_ms;
  std::string id = client->id;
  ++per_project_[client->project];
  clients_.emplace(id, std::move(client));
  return id;
}

void ClientRegistry::attach(const std::string& client_id, std::unique_ptr<HeldStream> stream) {
  std::lock_guard lock(mu_);
  const auto it = clients_.find(client_id);
  if (it == clients_.end()) return;
  if (!stream) return remove_locked(client_id);
  it->second->stream = std::move(stream);
}

void ClientRegistry::note_gone(const std::string& client_id) {
  std::lock_guard lock(gone_mu_);
  gone_.push_back(client_id);
}

std::vector<std::pair<std::string, std::string>> ClientRegistry::drop_gone() {
  std::vector<std::string> gone;
  {
    std::lock_guard lock(gone_mu_);
    gone.swap(gone_);
  }
  std::vector<std::pair<std::string, std::string>> dropped;
  if (gone.empty()) return dropped;
  std::lock_guard lock(mu_);
  for (const std::string& id : gone) {
    const auto it = clients_.find(id);
    if (it == clients_.end()) continue;
    dropped.emplace_back(it->second->project, id);
    remove_locked(id);
  }
  return dropped;
}

std::optional<std::string> ClientRegistry::resume_of(std::string_view project,
                                                     std::string_view client_id) const {
  std::lock_guard lock(mu_);
  const auto it = clients_.find(std::string(client_id));
  if (it == clients_.end() || it->second->project != project) return std::nullopt;
  return it->second->resume_from;
}

void ClientRegistry::remove_locked(const std::string& client_id) {
  const auto it = clients_.find(client_id);
  if (it == clients_.end()) return;
  Client& client = *it->second;
  for (const auto& entry : client.subscriptions) unindex_locked(client, entry.second);
  subscriptions_ -= client.subscriptions.size();
  if (auto a = per_address_.find(client.address); a != per_address_.end() && --a->second <= 0) {
    per_address_.erase(a);
  }
  if (auto p = per_project_.find(client.project); p != per_project_.end() && --p->second <= 0) {
    per_project_.erase(p);
  }
  if (client.user) {
    const auto u = per_user_.find(user_key(client.project, *client.user));
    if (u != per_user_.end() && --u->second <= 0) per_user_.erase(u);
  }
  clients_.erase(it);
}

void ClientRegistry::unindex_locked(const Client& client, const Subscription& subscription) {
  const auto it = listeners_.find(index_key(client.project, subscription.collection));
  if (it == listeners_.end()) return;
  std::erase_if(it->second, [&](const Listener& l) { return l.subscription == &subscription; });
  if (it->second.empty()) listeners_.erase(it);
}

Result<Client*> ClientRegistry::find_locked(std::string_view project, std::string_view client_id,
                                            std::string_view user) const {
  const auto it = clients_.find(std::string(client_id));
  if (it == clients_.end() || it->second->project != project) {
    return Status::validation("no event stream of this project has that client_id",
                              {{"field", "client_id"}, {"reason", "unknown_client"}});
  }
  Client* client = it->second.get();
  if (client->user && *client->user != user) {
    return Status(code::kForbidden, "this event stream belongs to another user",
                  {{"field", "client_id"}});
  }
  return client;
}

Status ClientRegistry::subscribe(std::string_view project, std::string_view client_id,
                                 std::string_view user, Subscription subscription) {
  std::lock_guard lock(mu_);
  auto found = find_locked(project, client_id, user);
  if (!found) return found.status();
  Client& client = **found;
  if (static_cast<int64_t>(client.subscriptions.size()) >= settings_.max_subscriptions_per_client) {
    return over_limit("this event stream has as many subscriptions as it may",
                      "subscriptions_per_client", settings_.max_subscriptions_per_client);
  }
  if (!client.user) {
    int64_t& of_user = per_user_[user_key(project, user)];
    if (!user.empty() && of_user >= settings_.max_clients_per_user) {
      return over_limit("this user holds as many event streams as they may", "clients_per_user",
                        settings_.max_clients_per_user);
    }
    ++of_user;
    client.user = std::string(user);
  }
  const std::string id = subscription.id;
  auto [entry, inserted] = client.subscriptions.emplace(id, std::move(subscription));
  if (!inserted) return Status::internal("a subscription id was given twice");
  listeners_[index_key(project, entry->second.collection)].push_back({&client, &entry->second});
  ++subscriptions_;
  return Status::ok();
}

bool ClientRegistry::unsubscribe(std::string_view project, std::string_view client_id,
                                 std::string_view user, std::string_view subscription_id) {
  std::lock_guard lock(mu_);
  auto found = find_locked(project, client_id, user);
  if (!found) return false;
  Client& client = **found;
  const auto sub = client.subscriptions.find(std::string(subscription_id));
  if (sub == client.subscriptions.end()) return false;
  unindex_locked(client, sub->second);
  client.subscriptions.erase(sub);
  --subscriptions_;
  return true;
}

bool ClientRegistry::push_locked(Client& client, const std::string& bytes, int64_t now_ms) {
  if (!client.stream) return false;
  client.last_sent_ms = now_ms;
  return client.stream->push(bytes);
}

bool ClientRegistry::send_locked(Client& client, Subscription& subscription,
                                 const JournalEvent& event, int64_t now_ms,
                                 const Refresh& refresh) {
  if (now_ms - subscription.scope_checked_ms >= settings_.rules_refresh_s * 1000) {
    refresh(client.project, subscription);
  }
  auto delivery = judge(subscription, event);
  if (!delivery) return false;
  push_locked(client, sse_event(event.id, delivery->event, delivery->data.dump()), now_ms);
  return true;
}

size_t ClientRegistry::deliver(std::string_view project, const JournalEvent& event, int64_t now_ms,
                               const Refresh& refresh) {
  std::lock_guard lock(mu_);
  const auto it = listeners_.find(index_key(project, event.collection));
  if (it == listeners_.end()) return 0;
  size_t sent = 0;
  for (const Listener& l : it->second) {
    if (send_locked(*l.client, *l.subscription, event, now_ms, refresh)) ++sent;
  }
  return sent;
}

bool ClientRegistry::deliver_to(std::string_view client_id, std::string_view subscription_id,
                                const JournalEvent& event, int64_t now_ms, const Refresh& refresh) {
  std::lock_guard lock(mu_);
  const auto it = clients_.find(std::string(client_id));
  if (it == clients_.end()) return false;
  const auto sub = it->second->subscriptions.find(std::string(subscription_id));
  if (sub == it->second->subscriptions.end()) return false;
  send_locked(*it->second, sub->second, event, now_ms, refresh);
  return true;
}

void ClientRegistry::reset(std::string_view client_id, std::string_view subscription_id,
                           int64_t now_ms) {
  std::lock_guard lock(mu_);
  const auto it = clients_.find(std::string(client_id));
  if (it == clients_.end()) return;
  const auto sub = it->second->subscriptions.find(std::string(subscription_id));
  if (sub == it->second->subscriptions.end()) return;
  const json data = {{"subscription_id", sub->second.id}, {"collection", sub->second.collection}};
  push_locked(*it->second, sse_event("", "reset", data.dump()), now_ms);
}

void ClientRegistry::heartbeat(int64_t now_ms, int64_t idle_ms) {
  std::lock_guard lock(mu_);
  static const std::string beat = sse_comment("heartbeat");
  for (auto& entry : clients_) {
    Client& client = *entry.second;
    if (now_ms - client.last_sent_ms >= idle_ms) push_locked(client, beat, now_ms);
  }
}

std::vector<std::string> ClientRegistry::projects() const {
  std::lock_guard lock(mu_);
  std::vector<std::string> projects;
  projects.reserve(per_project_.size());
  for (const auto& entry : per_project_) projects.push_back(entry.first);
  return projects;
}

size_t ClientRegistry::client_count() const {
  std::lock_guard lock(mu_);
  return clients_.size();
}

size_t ClientRegistry::subscription_count() const {
  std::lock_guard lock(mu_);
  return subscriptions_;
}

}  // namespace opbase::realtime
