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
                         ClientRegistry::Refresh refresh)
    : host_(host),
      settings_(settings),
      clients_(clients),
      refresh_(std::move(refresh)),
      journal_(host) {}

void EventReader::start() {
  worker_ = std::make_unique<BackgroundWorker>("rt-events", [this] { return round(); });
}

void EventReader::stop() {
  if (worker_) worker_->stop();
  worker_.reset();
}

void EventReader::wake() {
  if (worker_) worker_->wake();
}

void EventReader::replay(std::string project, std::string client_id, std::string subscription_id,
                         std::string since) {
  {
    std::lock_guard lock(replays_mu_);
    replays_[project].push_back(
        {std::move(client_id), std::move(subscription_id), std::move(since)});
  }
  wake();
}

void EventReader::begin_project(const std::string& project) {
  {
    std::lock_guard lock(replays_mu_);
    if (begun_.contains(project)) return;
  }
  auto newest = journal_.newest(project);
  if (!newest) return host_.warn("realtime: " + newest.status().to_string());
  std::lock_guard lock(replays_mu_);
  begun_.emplace(project, *newest);
}

std::chrono::milliseconds EventReader::round() {
  const int64_t now_ms = host_.now_ms();
  clients_.drop_gone();
  const std::vector<std::string> projects = clients_.projects();
  // A project without clients is read again from the newest event when one comes back...
  std::erase_if(feeds_, [&](const auto& entry) {
    return !std::binary_search(projects.begin(), projects.end(), entry.first);
  });
  // ... as the connect noted it (its client may have come after the list above).
  std::map<std::string, std::string> begun;
  {
    std::lock_guard lock(replays_mu_);
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
  std::vector<Replay> replays;
  {
    std::lock_guard lock(replays_mu_);
    if (auto it = replays_.find(project); it != replays_.end()) replays.swap(it->second);
  }
  for (const Replay& r : replays) replay_one(project, feed, r, now_ms);
  const int64_t settled_ms = now_ms - settings_.settle_ms;
  for (;;) {
    std::string last;
    auto events = journal_.after(project, feed.cursor, kPage, last);
    if (!events) return host_.warn("realtime: " + events.status().to_string());
    for (const JournalEvent& event : *events) {
      if (settings_.settle_ms > 0 && event_id_time_ms(event.id).value_or(0) > settled_ms) return;
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

void EventReader::replay_one(const std::string& project, const Feed& feed, const Replay& r,
                             int64_t now_ms) {
  const auto since_ms = event_id_time_ms(r.since);
  if (!since_ms || *since_ms < now_ms - settings_.retention_s * 1000) {
    host_.count("resets_total");
    return clients_.reset(r.client_id, r.subscription_id, now_ms);
  }
  std::string at = r.since;
  while (at < feed.cursor) {
    std::string last;
    auto events = journal_.after(project, at, kPage, last);
    if (!events) return host_.warn("realtime: " + events.status().to_string());
    if (events->empty()) return;
    for (const JournalEvent& event : *events) {
      if (event.id > feed.cursor) return;  // live from here on
      if (!clients_.deliver_to(r.client_id, r.subscription_id, event, now_ms, refresh_)) return;
      at = event.id;
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
