#include "journal/event_reader.hpp"

#include <algorithm>

#include "opbase/host_services.hpp"

namespace opbase::realtime {
namespace {

// Events read per page: a burst of writes is sent in pages, the others waiting no longer than
// one page's judging.
constexpr int64_t kPage = 500;
// How often the events older than the retention are purged.
constexpr int64_t kPurgeEveryMs = 60'000;

}  // namespace

EventReader::EventReader(const Host& host, const Settings& settings, ClientRegistry& clients,
                         const SubscriptionStore& subscriptions, ClientRegistry::Refresh refresh)
    : host_(host),
      settings_(settings),
      clients_(clients),
      subscriptions_(subscriptions),
      refresh_(std::move(refresh)),
      journal_(host) {}

void EventReader::start() {
  worker_ = std::make_unique<BackgroundWorker>("rt-events", [this] {
    // A record it cannot read must not end the daemon: the round is logged and tried again.
    try {
      return round();
    } catch (const std::exception& e) {
      host_.error(std::string("realtime: reading the events failed: ") + e.what());
      return std::chrono::milliseconds(settings_.poll_ms);
    }
  });
}

void EventReader::stop() {
  if (worker_) worker_->stop();
  worker_.reset();
}

void EventReader::wake() {
  if (worker_) worker_->wake();
}

void EventReader::begin_project(const std::string& project) {
  {
    std::lock_guard lock(begun_mu_);
    if (begun_.contains(project)) return;
  }
  auto newest = journal_.newest(project);
  if (!newest) return host_.warn("realtime: " + newest.status().to_string());
  std::lock_guard lock(begun_mu_);
  begun_.emplace(project, *newest);
}

std::chrono::milliseconds EventReader::round() {
  const int64_t now_ms = host_.now_ms();
  for (const auto& [project, client_id] : clients_.drop_gone()) {
    if (Status s = subscriptions_.remove_client(project, client_id, now_ms); !s) {
      host_.warn("realtime: forgetting a stream: " + s.to_string());
    }
  }
  const std::vector<std::string> projects = clients_.projects();
  // A project without clients is read again from the newest event when one comes back...
  std::erase_if(feeds_, [&](const auto& entry) {
    return !std::binary_search(projects.begin(), projects.end(), entry.first);
  });
  // ... as the connect noted it (its client may have come after the list above).
  std::map<std::string, std::string> begun;
  {
    std::lock_guard lock(begun_mu_);
    begun.swap(begun_);
  }
  for (auto& [project, newest] : begun) {
    Feed& feed = feeds_[project];
    if (!feed.started) feed = Feed{newest, true};
  }
  for (const std::string& project : projects) serve(project, feeds_[project], now_ms);
  if (now_ms >= next_heartbeat_ms_) {
    clients_.heartbeat(now_ms, settings_.heartbeat_s * 1000);
    next_heartbeat_ms_ = now_ms + 1000;
  }
  if (now_ms >= next_purge_ms_) {
    purge_all(now_ms);
    next_purge_ms_ = now_ms + kPurgeEveryMs;
  }
  host_.gauge("clients", static_cast<double>(clients_.client_count()));
  host_.gauge("subscriptions", static_cast<double>(clients_.subscription_count()));
  return std::chrono::milliseconds(settings_.poll_ms);
}

void EventReader::serve(const std::string& project, Feed& feed, int64_t now_ms) {
  if (!feed.started) {
    auto newest = journal_.newest(project);
    if (!newest) return host_.warn("realtime: " + newest.status().to_string());
    feed.cursor = *newest;
    feed.started = true;
  }
  const int64_t settled_ms = now_ms - settings_.settle_ms;
  for (;;) {
    std::string last;
    auto events = journal_.after(project, feed.cursor, kPage, last);
    if (!events) return host_.warn("realtime: " + events.status().to_string());
    for (const JournalEvent& event : *events) {
      if (settings_.settle_ms > 0 && event_id_time_ms(event.id).value_or(0) > settled_ms) return;
      if (event.subscription_change()) {
        change_subscription(project, event, now_ms);
        feed.cursor = event.id;
        continue;
      }
      const size_t sent = clients_.deliver(project, event, now_ms, refresh_);
      feed.cursor = event.id;
      if (sent > 0) {
        host_.count("events_sent_total", static_cast<double>(sent));
        host_.observe_seconds("delivery_seconds",
                              std::max<int64_t>(0, host_.now_ms() - event.time_ms) / 1000.0);
      }
    }
    if (static_cast<int64_t>(events->size()) < kPage) return;
  }
}

void EventReader::change_subscription(const std::string& project, const JournalEvent& event,
                                      int64_t now_ms) {
  const nlohmann::json& record = event.document;
  if (!record.is_object()) return;
  const std::string client_id = record.value("client_id", "");
  const auto resume = clients_.resume_of(project, client_id);
  if (!resume) return;  // another daemon's stream, or one gone
  const std::string user = record.value("user", "");
  if (event.type == kUnsubscribedEvent) {
    clients_.unsubscribe(project, client_id, user, record.value("_key", ""));
    return;
  }
  auto subscription = subscription_from_record(record, now_ms);
  if (!subscription) return host_.warn("realtime: " + subscription.status().to_string());
  const std::string id = subscription->id;
  if (Status s = clients_.subscribe(project, client_id, user, std::move(*subscription)); !s) {
    return host_.warn("realtime: " + s.to_string());
  }
  // Its own `since`, else the Last-Event-ID its stream connected with.
  const auto given = record.find("since");
  const std::string since =
      given != record.end() && given->is_string() ? given->get<std::string>() : *resume;
  if (!since.empty()) replay(project, client_id, id, since, event.id, now_ms);
}

void EventReader::replay(const std::string& project, const std::string& client_id,
                         const std::string& subscription_id, const std::string& since,
                         const std::string& until, int64_t now_ms) {
  const auto since_ms = event_id_time_ms(since);
  if (!since_ms || *since_ms < now_ms - settings_.retention_s * 1000) {
    host_.count("resets_total");
    return clients_.reset(client_id, subscription_id, now_ms);
  }
  std::string at = since;
  while (at < until) {
    std::string last;
    auto events = journal_.after(project, at, kPage, last);
    if (!events) return host_.warn("realtime: " + events.status().to_string());
    if (events->empty()) return;
    for (const JournalEvent& event : *events) {
      if (event.id >= until) return;  // live from here on
      at = event.id;
      if (event.subscription_change()) continue;
      if (!clients_.deliver_to(client_id, subscription_id, event, now_ms, refresh_)) return;
    }
  }
}

void EventReader::purge_all(int64_t now_ms) {
  auto projects = list_projects(host_);
  if (!projects) return host_.warn("realtime: " + projects.status().to_string());
  const int64_t before_ms = now_ms - settings_.retention_s * 1000;
  for (const std::string& project : *projects) {
    if (auto purged = journal_.purge(project, before_ms, now_ms); !purged) {
      host_.warn("realtime: purging old events: " + purged.status().to_string());
    }
  }
}

}  // namespace opbase::realtime
