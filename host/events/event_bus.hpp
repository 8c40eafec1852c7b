// EventBus: typed events from the plugin that causes them to every plugin that subscribed.
// Each subscription has its own bounded queue and delivery thread, so publishing never waits on
// a subscriber, and one slow subscriber never delays another. A full queue drops the new event
// for that subscription and counts it (metric opbase_events_dropped_total).
//
// This bus is in-process and best-effort by design; delivery that must survive a crash (webhooks)
// goes through a durable outbox in the store instead.
//
// Thread-safety: every method may be called from any thread; subscribers may publish.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "opbase/abi.h"

namespace opbase::host {

struct BusEvent {
  std::string type;
  std::string project_id;
  std::string payload;  // JSON object text
  int64_t time_ms = 0;
};

struct SubscriptionStats {
  std::string owner;
  std::string pattern;
  uint64_t delivered;
  uint64_t dropped;
};

class EventBus {
 public:
  explicit EventBus(size_t queue_capacity);
  ~EventBus();
  EventBus(const EventBus&) = delete;
  EventBus& operator=(const EventBus&) = delete;

  // `pattern`: an exact type, "area.*" for every type under "area.", or "*" for all.
  void subscribe(std::string owner, std::string pattern, opbase_event_fn fn, void* state);
  // Stops and removes `owner`'s subscriptions; events still queued for them are dropped.
  void remove_owner(std::string_view owner);

  // Queues `event` for every matching subscription. Never blocks on a subscriber.
  void publish(const BusEvent& event);

  // While held, events queue up but no subscriber runs. The daemon holds the bus while plugins
  // load, so no plugin code runs on a bus thread while another plugin's init still registers.
  void hold();
  void release();

  // Delivers what is queued (waiting at most `drain_ms` in all), then stops every thread.
  void stop(int64_t drain_ms);

  static bool matches(std::string_view pattern, std::string_view type);
  static bool valid_pattern(std::string_view pattern);

  uint64_t published() const { return published_.load(); }
  std::vector<SubscriptionStats> stats() const;

 private:
  struct Subscription;
  void run(Subscription* sub);
  static void stop_one(Subscription& sub);

  const size_t capacity_;
  std::atomic<bool> held_{false};
  std::atomic<uint64_t> published_{0};
  mutable std::shared_mutex subs_mu_;  // guards the vector; each Subscription guards its queue
  std::vector<std::unique_ptr<Subscription>> subs_;
};

}  // namespace opbase::host
