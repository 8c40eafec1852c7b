// lanes_test: ops registered on a plugin's lane (abi.h register_lane_op) run on the lane's own
// threads, never on the HTTP workers: with every worker's worth of lane calls waiting (and
// more), other ops are still answered; a full lane refuses at once with 503 RATE_LIMIT_EXCEEDED
// (reason lane_full, Retry-After); and every waiting call is answered once it may go on.
// The probe plugin's probe.lane_wait waits for probe.lane_open, so nothing here depends on time.
#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <functional>
#include <thread>
#include <vector>

#include "daemon_process.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr int kWorkers = 4;
constexpr int kLaneThreads = 16;
constexpr int kLaneQueue = 4;

std::unique_ptr<DaemonProcess> start_daemon(int wait_ms = 20'000) {
  DaemonOptions options;
  options.plugins = {"echo", "probe"};
  options.config = {{"server.threads", std::to_string(kWorkers)},
                    {"probe.lane_threads", std::to_string(kLaneThreads)},
                    {"probe.lane_queue", std::to_string(kLaneQueue)},
                    {"probe.lane_wait_ms", std::to_string(wait_ms)}};
  return DaemonProcess::start(options);
}

double lane_metric(const DaemonProcess& daemon, std::string_view name) {
  return daemon.metric(std::string(name) + "{plugin=\"probe\"}").value_or(-1);
}

bool eventually(const std::function<bool()>& probe) {
  for (int i = 0; i < 3000 && !probe(); ++i) std::this_thread::sleep_for(10ms);
  return probe();
}

// probe.lane_wait calls, each on its own thread, answered into `answers`.
class Callers {
 public:
  Callers(const DaemonProcess& daemon, size_t count) : answers_(count) {
    for (size_t i = 0; i < count; ++i) {
      threads_.emplace_back([this, &daemon, i] {
        answers_[i] = daemon.call({{"op", "probe.lane_wait"}});
        answered_.fetch_add(1);
      });
    }
  }
  void join() {
    for (std::jthread& thread : threads_) thread.join();
  }
  int answered() const { return answered_.load(); }
  const std::vector<HttpResponse>& answers() const { return answers_; }

 private:
  std::vector<HttpResponse> answers_;
  std::atomic<int> answered_{0};
  std::vector<std::jthread> threads_;  // joined on destruction too, after a failed assertion
};

TEST(Lanes, WaitingLaneCallsLeaveTheWorkersFreeAndAreAllAnswered) {
  auto daemon = start_daemon();
  // Every lane thread busy: four times the workers are taken up by lane calls, which would leave
  // no worker for anything else if they ran there.
  Callers running(*daemon, kLaneThreads);
  ASSERT_TRUE(eventually([&] {
    return lane_metric(*daemon, "opbase_lane_running") == kLaneThreads;
  })) << "running: "
      << lane_metric(*daemon, "opbase_lane_running");
  EXPECT_EQ(lane_metric(*daemon, "opbase_lane_threads"), kLaneThreads);

  // The workers serve other ops meanwhile, many times over.
  for (int i = 0; i < 3 * kWorkers; ++i) {
    const HttpResponse ping = daemon->call({{"op", "echo.ping"}});
    ASSERT_EQ(ping.status, 200) << ping.describe();
  }

  // The queue takes kLaneQueue more; the calls past it are refused at once, saying when to try
  // again. Only the refused ones are answered while the gate is shut.
  constexpr int kExtra = 3;
  Callers queued(*daemon, kLaneQueue + kExtra);
  ASSERT_TRUE(eventually([&] { return queued.answered() == kExtra; }));
  ASSERT_TRUE(eventually([&] { return lane_metric(*daemon, "opbase_lane_queued") == kLaneQueue; }));
  EXPECT_EQ(lane_metric(*daemon, "opbase_lane_refused_total"), kExtra);
  EXPECT_EQ(running.answered(), 0);

  ASSERT_EQ(daemon->call({{"op", "probe.lane_open"}}).status, 200);
  running.join();
  queued.join();
  for (const HttpResponse& answer : running.answers()) {
    ASSERT_EQ(answer.status, 200) << answer.describe();
    EXPECT_EQ(answer.json()["data"]["opened"], true);
  }
  int refused = 0;
  for (const HttpResponse& answer : queued.answers()) {
    if (answer.status == 200) {
      EXPECT_EQ(answer.json()["data"]["opened"], true);
      continue;
    }
    ++refused;
    ASSERT_EQ(answer.status, 503) << answer.describe();
    const json error = answer.json()["error"];
    EXPECT_EQ(error["code"], "RATE_LIMIT_EXCEEDED");
    EXPECT_EQ(error["details"]["reason"], "lane_full");
    EXPECT_EQ(answer.header("Retry-After"), "1");
  }
  EXPECT_EQ(refused, kExtra);
  EXPECT_EQ(lane_metric(*daemon, "opbase_lane_running"), 0);
  EXPECT_EQ(lane_metric(*daemon, "opbase_lane_queued"), 0);
}

TEST(Lanes, LaneCallsAreCheckedOnTheWorkerFirst) {
  auto daemon = start_daemon();
  // A wrong key never reaches the lane.
  const HttpResponse refused = daemon->call({{"op", "probe.lane_wait"}}, {{"X-API-KEY", "wrong"}});
  EXPECT_EQ(refused.status, 401) << refused.describe();
  EXPECT_EQ(lane_metric(*daemon, "opbase_lane_running"), 0);
  EXPECT_EQ(lane_metric(*daemon, "opbase_lane_queued"), 0);
  EXPECT_EQ(lane_metric(*daemon, "opbase_lane_refused_total"), 0);
}

TEST(Lanes, StoppingDaemonAnswersTheCallsStillOnTheLane) {
  auto daemon = start_daemon(/*wait_ms=*/3'000);
  Callers callers(*daemon, kLaneThreads + kLaneQueue);
  ASSERT_TRUE(eventually([&] {
    return lane_metric(*daemon, "opbase_lane_running") == kLaneThreads &&
           lane_metric(*daemon, "opbase_lane_queued") == kLaneQueue;
  }));
  // SIGTERM: the calls still queued are refused at once as the server stops; the running ones
  // are answered when they give up waiting after 3 s, within the drain time. None is dropped.
  daemon->send_signal(SIGTERM);
  callers.join();
  int stopping = 0, waited = 0;
  for (const HttpResponse& answer : callers.answers()) {
    if (answer.status == 503) {
      EXPECT_EQ(answer.json()["error"]["details"]["reason"], "stopping") << answer.describe();
      ++stopping;
    } else {
      EXPECT_EQ(answer.status, 200) << answer.describe();
      EXPECT_EQ(answer.json()["data"]["opened"], false);
      ++waited;
    }
  }
  EXPECT_EQ(stopping, kLaneQueue);
  EXPECT_EQ(waited, kLaneThreads);
  EXPECT_EQ(daemon->wait_exit(20s), 0);
}

}  // namespace
}  // namespace opbase::test
