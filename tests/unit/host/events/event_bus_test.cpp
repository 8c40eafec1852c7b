// EventBus: pattern matching, delivery off the publishing thread, bounded queues that drop and
// count instead of blocking, removal, draining stop, and concurrent publishers.
//
// No assertion here depends on timing. The only clock is a hang guard in Recorder::wait_for:
// a deadline far beyond any plausible delivery time, so a broken bus fails instead of hanging.
#include "events/event_bus.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace opbase::host {
namespace {

constexpr auto kHangGuard = std::chrono::seconds(60);

// A subscriber that records what it receives and on which thread. It can be made to block inside
// the handler on a gate the test opens.
class Recorder {
 public:
  struct Received {
    std::string type;
    std::string project_id;
    std::string payload;
    int64_t time_ms;
    std::thread::id thread;
  };

  static void handler(void* state, const opbase_event* event) {
    static_cast<Recorder*>(state)->on_event(*event);
  }

  // From now on the handler blocks (after recording its event) until open() is called.
  void close_gate() {
    std::lock_guard lock(mu_);
    gate_closed_ = true;
  }
  void open_gate() {
    {
      std::lock_guard lock(mu_);
      gate_closed_ = false;
    }
    cv_.notify_all();
  }

  // Waits until `count` events were received (hang guard only; see the file comment).
  bool wait_for(size_t count) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, kHangGuard, [&] { return received_.size() >= count; });
  }
  // Waits until the handler is blocked on the closed gate.
  bool wait_until_blocked() {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, kHangGuard, [&] { return blocked_; });
  }
  bool blocked() const {
    std::lock_guard lock(mu_);
    return blocked_;
  }

  std::vector<Received> received() const {
    std::lock_guard lock(mu_);
    return received_;
  }
  std::vector<std::string> types() const {
    std::lock_guard lock(mu_);
    std::vector<std::string> out;
    for (const auto& r : received_) out.push_back(r.type);
    return out;
  }
  size_t count() const {
    std::lock_guard lock(mu_);
    return received_.size();
  }

 private:
  void on_event(const opbase_event& event) {
    std::unique_lock lock(mu_);
    received_.push_back({std::string(event.type.ptr, event.type.len),
                         std::string(event.project_id.ptr, event.project_id.len),
                         std::string(event.payload.ptr, event.payload.len), event.time_ms,
                         std::this_thread::get_id()});
    cv_.notify_all();
    if (gate_closed_) {
      blocked_ = true;
      cv_.notify_all();
      cv_.wait(lock, [&] { return !gate_closed_; });
      blocked_ = false;
    }
  }

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Received> received_;
  bool gate_closed_ = false;
  bool blocked_ = false;
};

BusEvent event(std::string type, std::string payload = "{}", std::string project = "p1") {
  return BusEvent{std::move(type), std::move(project), std::move(payload), 1'700'000'000'123};
}

const SubscriptionStats* stats_of(const std::vector<SubscriptionStats>& all,
                                  std::string_view owner) {
  for (const auto& s : all) {
    if (s.owner == owner) return &s;
  }
  return nullptr;
}

// ---- patterns ---------------------------------------------------------------------------------

TEST(EventBusPattern, Matching) {
  EXPECT_TRUE(EventBus::matches("document.created", "document.created"));
  EXPECT_FALSE(EventBus::matches("document.created", "document.updated"));
  EXPECT_FALSE(EventBus::matches("document.created", "document.created.x"));
  EXPECT_FALSE(EventBus::matches("document.created", "document"));

  EXPECT_TRUE(EventBus::matches("document.*", "document.created"));
  EXPECT_TRUE(EventBus::matches("document.*", "document.a.b"));
  EXPECT_FALSE(EventBus::matches("document.*", "document"));
  EXPECT_FALSE(EventBus::matches("document.*", "documents.created"));
  EXPECT_FALSE(EventBus::matches("document.*", "user.signedup"));

  EXPECT_TRUE(EventBus::matches("*", "document.created"));
  EXPECT_TRUE(EventBus::matches("*", "x"));
}

TEST(EventBusPattern, Validity) {
  for (const char* good : {"*", "document.created", "document.*", "a.*", "a.b.*", "x"}) {
    EXPECT_TRUE(EventBus::valid_pattern(good)) << good;
  }
  for (const std::string& bad :
       {std::string(""), std::string(".*"), std::string("*.*"), std::string("document*"),
        std::string("*.created"), std::string("a.*.b"), std::string("a.**"), std::string("**"),
        std::string(129, 'a')}) {
    EXPECT_FALSE(EventBus::valid_pattern(bad)) << bad;
  }
  EXPECT_TRUE(EventBus::valid_pattern(std::string(128, 'a')));
}

// ---- delivery ---------------------------------------------------------------------------------

TEST(EventBus, DeliversMatchingEventsOffThePublishingThread) {
  EventBus bus(16);
  Recorder exact, prefix, all;
  bus.subscribe("a", "document.created", &Recorder::handler, &exact);
  bus.subscribe("b", "document.*", &Recorder::handler, &prefix);
  bus.subscribe("c", "*", &Recorder::handler, &all);

  bus.publish(event("document.created", R"({"_key":"k1"})", "shop"));
  bus.publish(event("document.deleted"));
  bus.publish(event("user.signedup"));
  EXPECT_EQ(bus.published(), 3u);

  ASSERT_TRUE(all.wait_for(3));
  ASSERT_TRUE(prefix.wait_for(2));
  ASSERT_TRUE(exact.wait_for(1));
  bus.stop(60'000);  // joins the delivery threads: nothing more can arrive

  EXPECT_EQ(exact.types(), (std::vector<std::string>{"document.created"}));
  EXPECT_EQ(prefix.types(), (std::vector<std::string>{"document.created", "document.deleted"}));
  EXPECT_EQ(all.types(),
            (std::vector<std::string>{"document.created", "document.deleted", "user.signedup"}));

  const auto first = exact.received().at(0);
  EXPECT_EQ(first.project_id, "shop");
  EXPECT_EQ(first.payload, R"({"_key":"k1"})");
  EXPECT_EQ(first.time_ms, 1'700'000'000'123);
  for (const Recorder* r : {&exact, &prefix, &all}) {
    for (const auto& received : r->received()) {
      EXPECT_NE(received.thread, std::this_thread::get_id());
    }
  }
  // Each subscription has its own thread.
  EXPECT_NE(exact.received().at(0).thread, all.received().at(0).thread);

  const auto stats = bus.stats();
  ASSERT_EQ(stats.size(), 3u);
  EXPECT_EQ(stats_of(stats, "a")->pattern, "document.created");
  EXPECT_EQ(stats_of(stats, "a")->delivered, 1u);
  EXPECT_EQ(stats_of(stats, "b")->delivered, 2u);
  EXPECT_EQ(stats_of(stats, "c")->delivered, 3u);
  for (const auto& s : stats) EXPECT_EQ(s.dropped, 0u) << s.owner;
}

TEST(EventBus, EventsArriveInPublishOrder) {
  EventBus bus(64);
  Recorder r;
  bus.subscribe("a", "*", &Recorder::handler, &r);
  std::vector<std::string> expected;
  for (int i = 0; i < 50; ++i) {
    expected.push_back("t.e" + std::to_string(i));
    bus.publish(event(expected.back()));
  }
  ASSERT_TRUE(r.wait_for(50));
  EXPECT_EQ(r.types(), expected);
}

TEST(EventBus, HeldBusQueuesAndDeliversOnlyAfterRelease) {
  // The daemon holds the bus while plugins load. Nothing may be delivered while held; this
  // cannot prove a negative in bounded time, but a broken hold delivers within the grace below,
  // and a working one passes whatever the timing.
  EventBus bus(64);
  Recorder r;
  bus.hold();
  bus.subscribe("a", "*", &Recorder::handler, &r);
  for (int i = 0; i < 3; ++i) bus.publish(event("t.e" + std::to_string(i)));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(r.count(), 0u) << "delivered while held";
  EXPECT_EQ(stats_of(bus.stats(), "a")->dropped, 0u);

  bus.release();
  ASSERT_TRUE(r.wait_for(3));
  EXPECT_EQ(r.types(), (std::vector<std::string>{"t.e0", "t.e1", "t.e2"}));
}

TEST(EventBus, StopDeliversWhatAHeldBusQueued) {
  EventBus bus(64);
  Recorder r;
  bus.subscribe("a", "*", &Recorder::handler, &r);
  bus.hold();
  bus.publish(event("t.late"));
  bus.stop(/*drain_ms=*/60'000);  // stop releases first, or a held bus could never drain
  EXPECT_EQ(r.types(), std::vector<std::string>{"t.late"});
}

TEST(EventBus, NoSubscriberNoDelivery) {
  EventBus bus(4);
  bus.publish(event("x.y"));
  EXPECT_EQ(bus.published(), 1u);
  EXPECT_TRUE(bus.stats().empty());
}

TEST(EventBus, SlowSubscriberNeverBlocksPublishAndDropsWhenFull) {
  constexpr size_t kCapacity = 4;
  constexpr size_t kExtra = 5;
  EventBus bus(kCapacity);
  Recorder slow, other;
  slow.close_gate();
  bus.subscribe("slow", "*", &Recorder::handler, &slow);
  bus.subscribe("other", "*", &Recorder::handler, &other);

  // The first event is taken off the slow queue and its handler blocks on the gate.
  bus.publish(event("e.0"));
  ASSERT_TRUE(slow.wait_until_blocked());
  ASSERT_TRUE(other.wait_for(1));

  // Publish capacity + extra more, one at a time, each only after `other` received the previous
  // one: `other`'s queue never holds more than one event, while `slow` is blocked throughout.
  for (size_t i = 1; i <= kCapacity + kExtra; ++i) {
    bus.publish(event("e." + std::to_string(i)));  // returns although `slow` is blocked
    EXPECT_TRUE(slow.blocked());
    ASSERT_TRUE(other.wait_for(i + 1));
  }
  EXPECT_TRUE(slow.blocked());
  EXPECT_EQ(slow.count(), 1u);  // still inside the first event

  // The slow queue filled to capacity; every further event for it was dropped and counted.
  {
    const auto stats = bus.stats();
    EXPECT_EQ(stats_of(stats, "slow")->dropped, kExtra);
    EXPECT_EQ(stats_of(stats, "slow")->delivered, 0u);
    EXPECT_EQ(stats_of(stats, "other")->dropped, 0u);
  }
  EXPECT_EQ(bus.published(), 1 + kCapacity + kExtra);

  // Open the gate: the slow subscriber gets the first event and the queued ones, in order.
  slow.open_gate();
  ASSERT_TRUE(slow.wait_for(1 + kCapacity));
  bus.stop(60'000);

  std::vector<std::string> expected_slow;
  for (size_t i = 0; i <= kCapacity; ++i) expected_slow.push_back("e." + std::to_string(i));
  EXPECT_EQ(slow.types(), expected_slow);

  std::vector<std::string> expected_other;
  for (size_t i = 0; i <= kCapacity + kExtra; ++i)
    expected_other.push_back("e." + std::to_string(i));
  EXPECT_EQ(other.types(), expected_other);

  const auto stats = bus.stats();
  EXPECT_EQ(stats_of(stats, "slow")->delivered, 1 + kCapacity);
  EXPECT_EQ(stats_of(stats, "slow")->dropped, kExtra);
  EXPECT_EQ(stats_of(stats, "other")->delivered, 1 + kCapacity + kExtra);
  EXPECT_EQ(stats_of(stats, "other")->dropped, 0u);
}

TEST(EventBus, RemoveOwnerStopsDelivery) {
  EventBus bus(16);
  Recorder gone1, gone2, stays;
  bus.subscribe("plugin_a", "x.*", &Recorder::handler, &gone1);
  bus.subscribe("plugin_a", "*", &Recorder::handler, &gone2);
  bus.subscribe("plugin_b", "*", &Recorder::handler, &stays);

  bus.publish(event("x.before"));
  ASSERT_TRUE(gone1.wait_for(1));
  ASSERT_TRUE(gone2.wait_for(1));
  ASSERT_TRUE(stays.wait_for(1));

  bus.remove_owner("plugin_a");  // joins plugin_a's delivery threads
  const auto stats = bus.stats();
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].owner, "plugin_b");

  bus.publish(event("x.after"));
  ASSERT_TRUE(stays.wait_for(2));
  bus.stop(60'000);
  EXPECT_EQ(gone1.types(), (std::vector<std::string>{"x.before"}));
  EXPECT_EQ(gone2.types(), (std::vector<std::string>{"x.before"}));
  EXPECT_EQ(stays.types(), (std::vector<std::string>{"x.before", "x.after"}));

  bus.remove_owner("no_such_owner");  // harmless
}

TEST(EventBus, StopDrainDeliversWhatIsQueued) {
  EventBus bus(16);
  Recorder r;
  r.close_gate();
  bus.subscribe("a", "*", &Recorder::handler, &r);
  bus.publish(event("e.0"));
  ASSERT_TRUE(r.wait_until_blocked());
  for (int i = 1; i <= 5; ++i) bus.publish(event("e." + std::to_string(i)));
  EXPECT_EQ(r.count(), 1u);

  r.open_gate();
  bus.stop(60'000);  // returns after the queue drained and the thread ended
  EXPECT_EQ(r.types(), (std::vector<std::string>{"e.0", "e.1", "e.2", "e.3", "e.4", "e.5"}));
  const auto stats = bus.stats();  // still readable after stop
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].delivered, 6u);
  EXPECT_EQ(stats[0].dropped, 0u);

  // After stop nothing is delivered; what is published is counted as dropped.
  bus.publish(event("e.late"));
  EXPECT_EQ(bus.stats()[0].dropped, 1u);
  EXPECT_EQ(r.count(), 6u);
  bus.stop(0);  // a second stop (and the destructor's) is harmless
}

// A subscriber may publish from its handler (the header allows it).
struct Republisher {
  EventBus* bus;
  static void handler(void* state, const opbase_event* e) {
    auto* self = static_cast<Republisher*>(state);
    const std::string type(e->type.ptr, e->type.len);
    self->bus->publish(event("derived." + type.substr(type.find('.') + 1)));
  }
};

TEST(EventBus, SubscriberMayPublish) {
  EventBus bus(16);
  Republisher republisher{&bus};
  Recorder r;
  bus.subscribe("a", "source.*", &Republisher::handler, &republisher);
  bus.subscribe("b", "derived.*", &Recorder::handler, &r);
  bus.publish(event("source.one"));
  bus.publish(event("source.two"));
  ASSERT_TRUE(r.wait_for(2));
  bus.stop(60'000);
  EXPECT_EQ(r.types(), (std::vector<std::string>{"derived.one", "derived.two"}));
  EXPECT_EQ(bus.published(), 4u);
}

TEST(EventBus, ConcurrentPublishersDeliverEveryEventExactlyOnce) {
  constexpr int kThreads = 4;
  constexpr int kEach = 500;
  constexpr size_t kTotal = kThreads * kEach;
  EventBus bus(kTotal);  // enough room: nothing may be dropped
  Recorder all, half;
  bus.subscribe("all", "*", &Recorder::handler, &all);
  bus.subscribe("half", "even.*", &Recorder::handler, &half);

  std::vector<std::thread> publishers;
  for (int t = 0; t < kThreads; ++t) {
    publishers.emplace_back([&bus, t] {
      for (int i = 0; i < kEach; ++i) {
        const std::string id = std::to_string(t) + ":" + std::to_string(i);
        bus.publish(event((i % 2 == 0 ? "even." : "odd.") + id, "{\"id\":\"" + id + "\"}"));
      }
    });
  }
  for (auto& p : publishers) p.join();
  EXPECT_EQ(bus.published(), kTotal);
  ASSERT_TRUE(all.wait_for(kTotal));
  ASSERT_TRUE(half.wait_for(kTotal / 2));
  bus.stop(60'000);

  std::map<std::string, int> seen;
  for (const auto& r : all.received()) ++seen[r.type];
  EXPECT_EQ(seen.size(), kTotal);
  for (const auto& [type, n] : seen) EXPECT_EQ(n, 1) << type;
  EXPECT_EQ(all.count(), kTotal);
  EXPECT_EQ(half.count(), kTotal / 2);
  for (const auto& r : half.received()) EXPECT_EQ(r.type.rfind("even.", 0), 0u) << r.type;

  // Per publisher, order is kept.
  std::map<int, int> next;
  for (const auto& r : all.received()) {
    const auto colon = r.type.find(':');
    const int t = std::stoi(r.type.substr(r.type.find('.') + 1, colon));
    const int i = std::stoi(r.type.substr(colon + 1));
    EXPECT_EQ(i, next[t]) << r.type;
    next[t] = i + 1;
  }
  for (const auto& s : bus.stats()) EXPECT_EQ(s.dropped, 0u) << s.owner;
}

}  // namespace
}  // namespace opbase::host
