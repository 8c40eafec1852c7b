#include "events/event_bus.hpp"

#include <algorithm>
#include <chrono>

#include "opbase/internal/event_pattern.hpp"
#include "opbase/thread_name.hpp"

namespace opbase::host {

struct EventBus::Subscription {
  std::string owner;
  std::string pattern;
  opbase_event_fn fn = nullptr;
  void* state = nullptr;
  std::mutex mu;
  std::condition_variable cv;
  std::deque<BusEvent> queue;
  bool stopping = false;
  std::atomic<uint64_t> delivered{0};
  std::atomic<uint64_t> dropped{0};
  std::thread thread;
};

EventBus::EventBus(size_t queue_capacity) : capacity_(std::max<size_t>(1, queue_capacity)) {}

EventBus::~EventBus() { stop(0); }

bool EventBus::valid_pattern(std::string_view pattern) { return events::valid_pattern(pattern); }

bool EventBus::matches(std::string_view pattern, std::string_view type) {
  return events::matches(pattern, type);
}

void EventBus::subscribe(std::string owner, std::string pattern, opbase_event_fn fn, void* state) {
  auto sub = std::make_unique<Subscription>();
  sub->owner = std::move(owner);
  sub->pattern = std::move(pattern);
  sub->fn = fn;
  sub->state = state;
  Subscription* raw = sub.get();
  sub->thread = std::thread([this, raw] { run(raw); });
  std::unique_lock lock(subs_mu_);
  subs_.push_back(std::move(sub));
}

void EventBus::stop_one(Subscription& sub) {
  {
    std::lock_guard lock(sub.mu);
    sub.stopping = true;
  }
  sub.cv.notify_all();
  if (sub.thread.joinable()) sub.thread.join();
}

void EventBus::remove_owner(std::string_view owner) {
  // Take the subscriptions out under the lock, join their threads outside it: a subscriber that
  // is publishing right now needs the shared lock to finish.
  std::vector<std::unique_ptr<Subscription>> removed;
  {
    std::unique_lock lock(subs_mu_);
    for (auto& sub : subs_) {
      if (sub->owner == owner) removed.push_back(std::move(sub));
    }
    std::erase(subs_, nullptr);
  }
  for (auto& sub : removed) {
    {
      std::lock_guard lock(sub->mu);
      sub->queue.clear();
    }
    stop_one(*sub);
  }
}

void EventBus::publish(const BusEvent& event) {
  published_.fetch_add(1, std::memory_order_relaxed);
  std::shared_lock subs_lock(subs_mu_);
  for (auto& sub : subs_) {
    if (!matches(sub->pattern, event.type)) continue;
    bool queued = false;
    {
      std::lock_guard lock(sub->mu);
      if (!sub->stopping && sub->queue.size() < capacity_) {
        sub->queue.push_back(event);
        queued = true;
      }
    }
    if (queued) {
      sub->cv.notify_one();
    } else {
      sub->dropped.fetch_add(1, std::memory_order_relaxed);
    }
  }
}

void EventBus::run(Subscription* sub) {
  name_this_thread("event-bus");
  std::unique_lock lock(sub->mu);
  for (;;) {
    sub->cv.wait(lock,
                 [this, sub] { return sub->stopping || (!sub->queue.empty() && !held_.load()); });
    if (sub->queue.empty() || held_.load()) {
      if (sub->stopping) return;  // stopping, and nothing (deliverable) left
      continue;
    }
    BusEvent event = std::move(sub->queue.front());
    sub->queue.pop_front();
    lock.unlock();
    const opbase_event view{sizeof(opbase_event),
                            {event.type.data(), event.type.size()},
                            {event.project_id.data(), event.project_id.size()},
                            {event.payload.data(), event.payload.size()},
                            event.time_ms};
    sub->fn(sub->state, &view);
    sub->delivered.fetch_add(1, std::memory_order_relaxed);
    lock.lock();
  }
}

void EventBus::hold() { held_.store(true); }

void EventBus::release() {
  held_.store(false);
  std::shared_lock lock(subs_mu_);
  for (auto& sub : subs_) {
    // Taking the queue's lock orders the store before the subscriber's next wait check.
    { std::lock_guard queue_lock(sub->mu); }
    sub->cv.notify_all();
  }
}

void EventBus::stop(int64_t drain_ms) {
  release();  // a held bus could never drain
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(drain_ms);
  std::vector<Subscription*> all;
  {
    std::shared_lock lock(subs_mu_);
    for (auto& sub : subs_) all.push_back(sub.get());
  }
  for (Subscription* sub : all) {
    // Give the subscriber until the deadline to empty its queue, then drop the rest. The
    // Subscription objects stay in subs_ (stats remain readable); only their threads end.
    std::unique_lock lock(sub->mu);
    while (!sub->queue.empty() && std::chrono::steady_clock::now() < deadline) {
      lock.unlock();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      lock.lock();
    }
    sub->dropped += sub->queue.size();
    sub->queue.clear();
    lock.unlock();
    stop_one(*sub);
  }
}

std::vector<SubscriptionStats> EventBus::stats() const {
  std::shared_lock lock(subs_mu_);
  std::vector<SubscriptionStats> out;
  for (const auto& sub : subs_) {
    out.push_back({sub->owner, sub->pattern, sub->delivered.load(), sub->dropped.load()});
  }
  return out;
}

}  // namespace opbase::host
