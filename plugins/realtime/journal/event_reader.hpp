// EventReader: the thread that reads each project's kept events in id order and sends each to
// the subscriptions it means something to (ClientRegistry::deliver). One thread for every
// project: a round reads the events after each project's cursor (woken by a write of this
// daemon's, or every realtime.poll_ms for the writes of other daemons sharing the store). The
// events of subscriptions made and removed (subscription_store.hpp) are among them: one for a
// stream this daemon holds starts the subscription there, first giving it the events since its
// `since` (or `reset` when those are older than the retention), and every later event in turn.
// It also drops the clients gone, sends heartbeats, and purges the events older than
// realtime.retention_s.
//
// On MongoDB an event is sent once it is realtime.settle_ms old, so the events of other daemons'
// writes, a few milliseconds apart, land before the cursor passes them (docs/api.md#realtime).
//
// Thread-safety: wake() and replay() from any thread; the rest is the thread's.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "clients/client_registry.hpp"
#include "journal/journal_reader.hpp"
#include "opbase/background_worker.hpp"
#include "opbase/host.hpp"
#include "settings.hpp"
#include "subscriptions/subscription_store.hpp"

namespace opbase::realtime {

class EventReader {
 public:
  EventReader(const Host& host, const Settings& settings, ClientRegistry& clients,
              const SubscriptionStore& subscriptions, ClientRegistry::Refresh refresh);
  ~EventReader() { stop(); }

  void start();
  void stop();
  void wake();
  // A client of `project` connected: when no client of it was here, its events are read from the
  // newest at this moment on (so none written after the connect is missed, none from before
  // sent). From the connecting thread.
  void begin_project(const std::string& project);

 private:
  struct Feed {
    std::string cursor;  // the last event id sent
    bool started = false;
  };

  std::chrono::milliseconds round();
  void serve(const std::string& project, Feed& feed, int64_t now_ms);
  // A subscription made or removed, for a stream this daemon may hold.
  void change_subscription(const std::string& project, const JournalEvent& event, int64_t now_ms);
  // The events after `since` and before `until` for one new subscription.
  void replay(const std::string& project, const std::string& client_id,
              const std::string& subscription_id, const std::string& since,
              const std::string& until, int64_t now_ms);
  void purge_all(int64_t now_ms);

  const Host& host_;
  const Settings& settings_;
  ClientRegistry& clients_;
  const SubscriptionStore& subscriptions_;
  const ClientRegistry::Refresh refresh_;
  JournalReader journal_;
  std::map<std::string, Feed> feeds_;  // by project; the thread's
  int64_t next_purge_ms_ = 0;
  int64_t next_heartbeat_ms_ = 0;

  std::mutex begun_mu_;
  std::map<std::string, std::string> begun_;  // by project: the newest id at a connect
  std::unique_ptr<BackgroundWorker> worker_;
};

}  // namespace opbase::realtime
