// DeliveryWorkers: the threads that move webhooks out (docs/api.md#delivery). The feeder turns
// the events the store kept into messages (Outbox::fan_out) and expires old messages; each of
// `webhooks.workers` delivery threads claims due messages with a lease and posts them, signed,
// to their endpoint. They sleep until an event or a queued message wakes them or `webhooks.poll`
// passes, so messages left by a restart, or by another daemon on the same MongoDB, are picked
// up without traffic. They take turns over the endpoints' queues (delivery/endpoint_turns.hpp): a
// slow endpoint holds at most half of them. Thread-safety: events_arrived() and messages_due() from
// any thread; start() and stop() from one.
#pragma once

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "delivery/endpoint_turns.hpp"
#include "delivery/http_delivery.hpp"
#include "endpoints/endpoints.hpp"
#include "opbase/host.hpp"
#include "outbox/outbox.hpp"
#include "settings.hpp"

namespace opbase::webhooks {

class DeliveryWorkers {
 public:
  DeliveryWorkers(const Host& host, const WebhooksConfig& config, const Endpoints& endpoints,
                  const Outbox& outbox);
  ~DeliveryWorkers();  // stop()
  DeliveryWorkers(const DeliveryWorkers&) = delete;
  DeliveryWorkers& operator=(const DeliveryWorkers&) = delete;

  void start();
  // Aborts attempts in flight (they are retried later, by this or another daemon) and joins.
  void stop();
  // New events may be waiting: wakes the feeder.
  void events_arrived();
  // Messages may be due (queued, resent): wakes the delivery threads.
  void messages_due();

 private:
  void feed_loop();
  void deliver_loop();
  std::vector<std::string> projects() const;
  // The feeder's work on one project: kept events into messages, ended messages into the
  // archive (when `ended`: this daemon ended some since the last pass), old messages out.
  struct FeedPass {
    int events = 0;     // events handled
    bool more = false;  // a batch was full: more may be waiting
  };
  FeedPass feed(const std::string& project, bool ended);
  // Ended messages of every endpoint's queue into the archive; true when a batch was full.
  bool archive_ended(const std::string& project, int64_t now_ms);
  // Claims and delivers one due message of `project`, from the next endpoint in turn that has
  // one; false when none had.
  bool deliver_one(const std::string& project, HttpDelivery& http);
  // One attempt of a claimed message of `project`, recorded in the outbox.
  void deliver(std::string_view project, const Message& message, const Endpoint& endpoint,
               HttpDelivery& http);
  AttemptResult attempt(const Message& message, const Endpoint& endpoint, HttpDelivery& http);

  const Host& host_;
  const WebhooksConfig& config_;
  const Endpoints& endpoints_;
  const Outbox& outbox_;
  const std::string owner_;  // this daemon's name in leases
  EndpointTurns turns_;
  std::atomic<bool> stopping_{false};
  std::atomic<int64_t> ended_{0};  // messages this daemon ended since the feeder last archived
  std::mutex mutex_;
  std::condition_variable wake_;         // the delivery threads
  std::condition_variable feeder_wake_;  // the feeder
  bool feeder_waiting_ = false;          // guarded by mutex_
  uint64_t event_wakes_ = 0;             // guarded by mutex_
  uint64_t message_wakes_ = 0;           // guarded by mutex_
  std::vector<std::thread> threads_;
  std::map<std::string, int64_t> last_expiry_ms_;  // by project; the feeder's only

  static constexpr int kFanOutBatch = 500;
  static constexpr int64_t kMinFeedGapMs = 20;  // 50 fan-outs a second at most, unless behind
  // After a pass that handled this many events (5,000 a second and more), 20 passes a second.
  static constexpr int kBusyPassEvents = 100;
  static constexpr int64_t kBusyFeedGapMs = 50;
  static constexpr int64_t kExpiryEveryMs = 60'000;
};

}  // namespace opbase::webhooks
