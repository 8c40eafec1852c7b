// The SDK's BackgroundWorker (opbase/background_worker.hpp): rounds at the pause each answers,
// wake() ending a pause, stop() ending even a long pause and never cutting a round short, and
// the thread's name.
#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <opbase/background_worker.hpp>
#include <string>
#include <thread>

namespace {

using namespace std::chrono_literals;
using opbase::BackgroundWorker;

// Counts the rounds and lets the test wait for the n-th one.
class Rounds {
 public:
  void done() {
    {
      const std::lock_guard lock(mutex_);
      ++count_;
    }
    changed_.notify_all();
  }
  // True once `n` rounds ran; false if they did not within a minute (a hung worker).
  bool reach(int n) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, 60s, [&] { return count_ >= n; });
  }
  int count() {
    const std::lock_guard lock(mutex_);
    return count_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int count_ = 0;
};

TEST(BackgroundWorker, RunsTheFirstRoundAtOnceAndAgainAfterEachPause) {
  Rounds rounds;
  BackgroundWorker worker("test-rounds", [&] {
    rounds.done();
    return 1ms;
  });
  EXPECT_TRUE(rounds.reach(5));
  worker.stop();
}

TEST(BackgroundWorker, StopEndsALongPause) {
  Rounds rounds;
  BackgroundWorker worker("test-stop", [&] {
    rounds.done();
    return std::chrono::milliseconds(std::chrono::hours(1));
  });
  ASSERT_TRUE(rounds.reach(1));
  worker.stop();  // returns without the hour
  EXPECT_EQ(rounds.count(), 1);
  worker.stop();  // again: nothing left to do
}

TEST(BackgroundWorker, WakeStartsTheNextRoundNow) {
  Rounds rounds;
  BackgroundWorker worker("test-wake", [&] {
    rounds.done();
    return std::chrono::milliseconds(std::chrono::hours(1));
  });
  ASSERT_TRUE(rounds.reach(1));
  worker.wake();
  EXPECT_TRUE(rounds.reach(2));
  worker.wake();
  EXPECT_TRUE(rounds.reach(3));
}

TEST(BackgroundWorker, AWakeDuringARoundIsKept) {
  Rounds rounds;
  BackgroundWorker* self = nullptr;
  std::atomic<bool> ready{false};
  BackgroundWorker worker("test-self", [&] {
    while (!ready) std::this_thread::yield();
    if (rounds.count() == 0) self->wake();  // asks for another round while in this one
    rounds.done();
    return std::chrono::milliseconds(std::chrono::hours(1));
  });
  self = &worker;
  ready = true;
  EXPECT_TRUE(rounds.reach(2));
}

TEST(BackgroundWorker, StopLetsTheRoundUnderWayFinish) {
  std::atomic<bool> in_round{false}, finished{false};
  auto worker = std::make_unique<BackgroundWorker>("test-finish", [&] {
    in_round = true;
    std::this_thread::sleep_for(50ms);
    finished = true;
    return std::chrono::milliseconds(std::chrono::hours(1));
  });
  while (!in_round) std::this_thread::yield();
  worker.reset();  // the destructor stops
  EXPECT_TRUE(finished);
}

TEST(BackgroundWorker, NamesItsThread) {
  Rounds rounds;
  std::string name;
  BackgroundWorker worker("a-long-worker-name", [&] {
    char buffer[32] = {};
    pthread_getname_np(pthread_self(), buffer, sizeof buffer);
    name = buffer;
    rounds.done();
    return std::chrono::milliseconds(std::chrono::hours(1));
  });
  ASSERT_TRUE(rounds.reach(1));
  worker.stop();
  EXPECT_EQ(name, "a-long-worker-n");  // Linux keeps 15 bytes
}

}  // namespace
