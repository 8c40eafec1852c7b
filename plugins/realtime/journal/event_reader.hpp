// EventReader: the thread that reads each project's kept events in id order and sends each to
// the subscriptions it means something to (ClientRegistry::deliver). One thread for every
// project: a round reads the events after each project's cursor (woken by a write of this
// daemon's, or every realtime.poll_ms for the writes of other daemons sharing the store), first
// giving the subscriptions that asked for it the events since their `since`, or `reset` when those
// are older than the retention. It also drops the clients gone, sends heartbeats, and purges the
// events older than realtime.retention_s.
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

namespace opbase::realtime {

class EventReader {
 public:
  EventReader(const Host& host, const Settings& settings, ClientRegistry& clients,
              ClientRegistry::Refresh refresh);
  ~EventReader() { stop(); }

  void start();
  void stop();
  void wake();
  // A client of `project` connected: when no client of it was here, its events are read from the
  // newest at this moment on (so none written after the connect is missed, none from before
  // sent). From the connecting thread.
  void begin_project(const std::string& project);
  // The events after `since` for one new subscription, sent before it goes live.
  void replay(std::string project, std::string client_id, std::string subscription_id,
              std::string since);

 private:
  struct Replay {
    std::string client_id;
    std::string subscription_id;
    std::string since;
  };
  struct Feed {
    std::string cursor;  // the last event id sent
    bool started = false;
  };

  std::chrono::milliseconds round();
  void serve(const std::string& project, Feed& feed, int64_t now_ms);
  void replay_one(const std::string& project, const Feed& feed, const Replay& replay,
                  int64_t now_ms);
  void purge_all(int64_t now_ms);

  const Host& host_;
  const Settings& settings_;
  ClientRegistry& clients_;
  const ClientRegistry::Refresh refresh_;
  JournalReader journal_;
  std::map<std::string, Feed> feeds_;  // by project; the thread's
  int64_t next_purge_ms_ = 0;
  int64_t next_heartbeat_ms_ = 0;

  std::mutex replays_mu_;
  std::map<std::string, std::vector<Replay>> replays_;  // by project
  std::map<std::string, std::string> begun_;            // by project: the newest id then
  std::unique_ptr<BackgroundWorker> worker_;
};

}  // namespace opbase::realtime
