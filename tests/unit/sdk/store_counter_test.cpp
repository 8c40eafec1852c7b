// The SDK's StoreCounter (opbase/store_counter.hpp) on the reference store, with a plain
// "at most N" count as its caller: the first event inserts the document, later ones take room
// by the conditional update, a full count is refused with the caller's refusal, racing threads
// never spend the same room twice, decide's own update and "again" are followed, a caller still
// racing after five rounds gets `busy`, adjust gives room back (only where its match holds), and
// a swept document comes back on the next count.
#include "opbase/store_counter.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "opbase/store_access.hpp"
#include "store_backed_host.hpp"

namespace opbase {
namespace {

using nlohmann::json;

constexpr std::string_view kProject = "p1";
constexpr std::string_view kCollection = "counts";
constexpr int64_t kMost = 3;

store::Change add(int64_t n) {
  store::Change change;
  change.inc["used"] = n;
  return change;
}

const Status kFull(code::kQuotaExceeded, "the count is full");
const Status kBusy(code::kRateLimitExceeded, "busy; try again");

class StoreCounterTest : public ::testing::Test {
 protected:
  // One event of the "at most kMost" count `key`.
  Status count(std::string_view key = "c1") {
    return counter_.count(
        kProject, key, {{{{"used:$lt", kMost}}, add(1)}},
        [](const json* doc) {
          if (doc == nullptr)
            return StoreCounter::Next::insert({{"_userkey", nullptr}, {"used", 1}});
          if (doc->value("used", 0) >= kMost) return StoreCounter::Next::refuse(kFull);
          return StoreCounter::Next::again();
        },
        kBusy);
  }
  int64_t used(std::string_view key = "c1") {
    auto found = find_by_key(store_, kProject, kCollection, key);
    EXPECT_TRUE(found.is_ok());
    return found.is_ok() && *found ? (*found)->value("used", int64_t{0}) : -1;
  }

  opbase::test::StoreBackedHost env_{"auth"};
  DocumentStore store_{env_.host()};
  StoreCounter counter_{store_, std::string(kCollection)};
};

TEST_F(StoreCounterTest, CountsUpToTheMostThenRefuses) {
  EXPECT_EQ(used(), -1);
  for (int i = 0; i < kMost; ++i) ASSERT_TRUE(count().is_ok()) << i;
  EXPECT_EQ(used(), kMost);
  const Status over = count();
  EXPECT_EQ(over.code(), code::kQuotaExceeded);
  EXPECT_EQ(over.message(), "the count is full");
  EXPECT_EQ(used(), kMost);          // a refusal counts nothing
  EXPECT_TRUE(count("c2").is_ok());  // another key, another count
  EXPECT_EQ(used("c2"), 1);
}

TEST_F(StoreCounterTest, RacingThreadsSpendEachRoomOnce) {
  constexpr int kThreads = 12;
  std::atomic<int> passed{0}, refused{0}, other{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&] {
      const Status s = count("raced");
      if (s.is_ok()) {
        ++passed;
      } else if (s.code() == code::kQuotaExceeded) {
        ++refused;
      } else {
        ++other;  // busy: still racing after five rounds, which may happen under load
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_LE(passed.load(), kMost);
  EXPECT_EQ(passed + refused + other, kThreads);
  EXPECT_EQ(used("raced"), passed.load());  // exactly what passed was counted
}

TEST_F(StoreCounterTest, AdjustGivesRoomBackWhereItsMatchHolds) {
  for (int i = 0; i < kMost; ++i) ASSERT_TRUE(count().is_ok());
  counter_.adjust(kProject, "c1", add(-1));
  EXPECT_EQ(used(), kMost - 1);
  EXPECT_TRUE(count().is_ok());
  counter_.adjust(kProject, "c1", add(-1), {{"used:$gt", 5}});  // does not hold: nothing
  EXPECT_EQ(used(), kMost);
  counter_.adjust(kProject, "nobody", add(-1));  // no document: nothing, and no failure
  EXPECT_EQ(used("nobody"), -1);
}

TEST_F(StoreCounterTest, DecideMayTryAnUpdateOfItsOwn) {
  ASSERT_TRUE(count().is_ok());
  // No listed update matches; decide reads the document and resets it from what it read.
  auto reset = [this] {
    return counter_.count(
        kProject, "c1", {{{{"used:$lt", 0}}, add(1)}},
        [](const json* doc) {
          return StoreCounter::Next::try_update(
              {{{"used", doc->value("used", 0)}}, set_fields({{"used", 100}})});
        },
        kBusy);
  };
  EXPECT_TRUE(reset().is_ok());
  EXPECT_EQ(used(), 100);
}

TEST_F(StoreCounterTest, BusyAfterFiveRoundsOfAgain) {
  ASSERT_TRUE(count().is_ok());
  int rounds = 0;
  const Status s = counter_.count(
      kProject, "c1", {{{{"used:$lt", 0}}, add(1)}},
      [&](const json*) {
        ++rounds;
        return StoreCounter::Next::again();
      },
      kBusy);
  EXPECT_EQ(s.code(), code::kRateLimitExceeded);
  EXPECT_EQ(s.message(), "busy; try again");
  EXPECT_EQ(rounds, 5);
  EXPECT_EQ(used(), 1);
}

TEST_F(StoreCounterTest, ASweptCountComesBackOnTheNextEvent) {
  for (int i = 0; i < kMost; ++i) ASSERT_TRUE(count().is_ok());
  ASSERT_TRUE(counter_.sweep(kProject, {{"used:$gte", 1}}, env_.now_ms()).is_ok());
  EXPECT_EQ(used(), -1);  // deleted state: not found
  // The insert finds the key held by the swept document, brings it back, and the next round
  // counts on it (here it is full, as it was swept).
  EXPECT_EQ(count().code(), code::kQuotaExceeded);
  EXPECT_EQ(used(), kMost);
}

// Two counts under ceilings, as the quotas keep them: 2 events and 10 units at most.
TEST_F(StoreCounterTest, CeilingsKeepEveryCountWithinItsLimit) {
  auto charge = [this](int64_t units) {
    const std::vector<StoreCounter::Ceiling> counts = {{"events", 1, 2}, {"units", units, 10}};
    return counter_.count(
        kProject, "two", {StoreCounter::within(counts)},
        [&](const json* doc) {
          if (const StoreCounter::Ceiling* full = StoreCounter::passed(doc, counts)) {
            return StoreCounter::Next::refuse(Status(code::kQuotaExceeded, full->field));
          }
          if (doc) return StoreCounter::Next::again();
          return StoreCounter::Next::insert(
              {{"_userkey", nullptr}, {"events", 1}, {"units", units}});
        },
        kBusy);
  };
  EXPECT_EQ(charge(11).message(), "units");  // over the ceiling even as the first event
  EXPECT_TRUE(charge(6).is_ok());
  EXPECT_EQ(charge(5).message(), "units");   // 6 + 5 > 10
  EXPECT_TRUE(charge(4).is_ok());            // 6 + 4 = 10: exactly the ceiling
  EXPECT_EQ(charge(0).message(), "events");  // a third event
  auto found = find_by_key(store_, kProject, kCollection, "two");
  ASSERT_TRUE(found.is_ok() && *found);
  EXPECT_EQ((**found)["events"], 2);
  EXPECT_EQ((**found)["units"], 10);
  // Taking one back frees its room under both.
  counter_.adjust(kProject, "two", StoreCounter::added({{"events", 1, 2}, {"units", 4, 10}}, -1));
  EXPECT_TRUE(charge(4).is_ok());
}

TEST(StoreCounterCeilings, ANoLimitCeilingIsCountedButNeverFull) {
  const std::vector<StoreCounter::Ceiling> counts = {{"a", 3, 0}, {"b", 1, 5}};
  const StoreCounter::Update update = StoreCounter::within(counts);
  EXPECT_EQ(update.match, (json{{"b:$lte", 4}}));
  EXPECT_EQ(update.change.inc.at("a"), 3);
  EXPECT_EQ(update.change.inc.at("b"), 1);
  const json doc = {{"a", 1'000'000}, {"b", 4}};
  EXPECT_EQ(StoreCounter::passed(&doc, counts), nullptr);
  const json full = {{"b", 5}};
  ASSERT_NE(StoreCounter::passed(&full, counts), nullptr);
  EXPECT_EQ(StoreCounter::passed(&full, counts)->field, "b");
}

}  // namespace
}  // namespace opbase
