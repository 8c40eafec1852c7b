// lifecycle_test: the daemon's life as a process. Which plugins load is configuration; SIGTERM
// lets in-flight requests finish, refuses new connections, stops plugins in reverse load order
// and exits 0; a malformed configuration stops the start with a clear message.
// Thread-safety: tests run on the one gtest thread; SlowCalls adds threads that only call().
#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "daemon_process.hpp"

namespace opbase::test {
namespace {

using namespace std::chrono_literals;

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

// Polls `probe` until it returns true or `timeout` passes; returns its last result.
bool eventually(const std::function<bool()>& probe, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!probe()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

// ---- which plugins load ----

TEST(Lifecycle, DisabledPluginsOpsAreUnknownWhileOthersServe) {
  DaemonOptions only_echo;
  only_echo.plugins = {"echo"};
  auto daemon = DaemonProcess::start(only_echo);
  const HttpResponse sleep = daemon->call({{"op", "probe.sleep"}, {"ms", 0}});
  EXPECT_EQ(sleep.status, 404) << sleep.describe();
  EXPECT_EQ(sleep.json()["error"]["code"], "UNKNOWN_OPERATION");
  EXPECT_EQ(sleep.json()["error"]["details"]["op"], "probe.sleep");
  EXPECT_EQ(daemon->call({{"op", "echo.ping"}}).status, 200);
  EXPECT_FALSE(contains(daemon->log(), "plugin 'probe'")) << "a disabled plugin is not even loaded";
}

TEST(Lifecycle, EnablingOnlyAnotherPluginTurnsTheFirstOff) {
  DaemonOptions only_probe;
  only_probe.plugins = {"probe"};
  auto daemon = DaemonProcess::start(only_probe);
  const HttpResponse ping = daemon->call({{"op", "echo.ping"}});
  EXPECT_EQ(ping.status, 404) << ping.describe();
  EXPECT_EQ(ping.json()["error"]["code"], "UNKNOWN_OPERATION");
  const HttpResponse sleep = daemon->call({{"op", "probe.sleep"}, {"ms", 1}});
  ASSERT_EQ(sleep.status, 200) << sleep.describe();
  EXPECT_EQ(sleep.json()["data"]["slept_ms"], 1);
}

// ---- SIGTERM ----

// Calls that are in flight when SIGTERM arrives: each runs probe.sleep on its own thread.
class SlowCalls {
 public:
  SlowCalls(const DaemonProcess& daemon, int count, int sleep_ms)
      : results_(static_cast<size_t>(count)) {
    for (int i = 0; i < count; ++i) {
      threads_.emplace_back([this, &daemon, i, sleep_ms] {
        results_[static_cast<size_t>(i)] = daemon.call({{"op", "probe.sleep"}, {"ms", sleep_ms}});
        finished_.fetch_add(1);
      });
    }
  }
  ~SlowCalls() { join(); }

  void join() {
    for (std::thread& t : threads_) {
      if (t.joinable()) t.join();
    }
  }
  int finished() const { return finished_.load(); }
  // Valid after join().
  const std::vector<HttpResponse>& results() const { return results_; }

 private:
  std::vector<HttpResponse> results_;
  std::vector<std::thread> threads_;
  std::atomic<int> finished_{0};
};

TEST(Lifecycle, SigtermFinishesInFlightRequestsThenStopsPluginsInReverseOrder) {
  constexpr int kCalls = 4;
  constexpr int kSleepMs = 1500;
  DaemonOptions options;
  options.plugins = {"echo", "probe"};
  auto daemon = DaemonProcess::start(options);

  SlowCalls calls(*daemon, kCalls, kSleepMs);
  ASSERT_TRUE(
      eventually([&] { return daemon->metric("opbase_requests_in_flight") == kCalls; }, 10s))
      << "the slow calls never showed as in flight";
  ASSERT_EQ(calls.finished(), 0) << "the calls ended before SIGTERM; the test proves nothing";
  daemon->send_signal(SIGTERM);

  // New connections are refused as soon as the daemon stops accepting, while the old ones drain.
  ASSERT_TRUE(eventually([&] { return contains(daemon->log(), "stopping"); }, 5s)) << daemon->log();
  bool refused_while_draining = false;
  eventually(
      [&] {
        if (accepts_connections(daemon->port(), 500ms)) return calls.finished() > 0;
        refused_while_draining = calls.finished() < kCalls;
        return true;
      },
      10s);
  EXPECT_TRUE(refused_while_draining)
      << "a new connection was still accepted while in-flight requests drained";

  calls.join();
  for (const HttpResponse& r : calls.results()) {
    EXPECT_EQ(r.status, 200) << r.describe();
    EXPECT_EQ(r.json()["data"]["slept_ms"], kSleepMs);
  }
  const std::optional<int> status = daemon->wait_exit(20s);
  ASSERT_TRUE(status.has_value()) << "the daemon did not exit after SIGTERM";
  EXPECT_EQ(*status, 0) << daemon->log();
  EXPECT_FALSE(accepts_connections(daemon->port(), 500ms));

  // Stopped in the reverse of the order they loaded in (echo, then probe).
  const std::string log = daemon->log();
  const size_t echo_loaded = log.find("plugin 'echo' 1.0.0 loaded");
  const size_t probe_loaded = log.find("plugin 'probe' 1.0.0 loaded");
  const size_t echo_stopped = log.find("plugin 'echo' stopped");
  const size_t probe_stopped = log.find("plugin 'probe' stopped");
  ASSERT_NE(echo_loaded, std::string::npos) << log;
  ASSERT_NE(probe_loaded, std::string::npos) << log;
  ASSERT_NE(echo_stopped, std::string::npos) << log;
  ASSERT_NE(probe_stopped, std::string::npos) << log;
  EXPECT_LT(echo_loaded, probe_loaded) << log;
  EXPECT_LT(probe_stopped, echo_stopped) << log;
}

TEST(Lifecycle, SigtermOnAnIdleDaemonExitsZero) {
  auto daemon = DaemonProcess::start();
  ASSERT_EQ(daemon->call({{"op", "echo.ping"}}).status, 200);
  daemon->send_signal(SIGTERM);
  const std::optional<int> status = daemon->wait_exit(20s);
  ASSERT_TRUE(status.has_value()) << "the daemon did not exit after SIGTERM";
  EXPECT_EQ(*status, 0) << daemon->log();
  EXPECT_TRUE(contains(daemon->log(), "plugin 'echo' stopped")) << daemon->log();
}

// ---- refused start-ups ----

// Starts a daemon that must refuse to start; returns its exit status and log.
std::pair<std::optional<int>, std::string> refused_start(const DaemonOptions& options) {
  auto daemon = DaemonProcess::spawn(options);
  const std::optional<int> status = daemon->wait_exit(20s);
  EXPECT_FALSE(contains(daemon->output(), "listening on")) << daemon->output();
  return {status, daemon->log()};
}

void expect_refused(const std::pair<std::optional<int>, std::string>& result,
                    std::string_view message) {
  const auto& [status, log] = result;
  ASSERT_TRUE(status.has_value()) << "the daemon kept running; log:\n" << log;
  EXPECT_NE(*status, 0) << log;
  EXPECT_LT(*status, 128) << "it was killed by a signal instead of exiting; log:\n" << log;
  EXPECT_TRUE(contains(log, message)) << "expected '" << message << "' in the log:\n" << log;
}

TEST(Lifecycle, RefusesToStartWithAMalformedConfigValue) {
  DaemonOptions options;
  options.config["server.port"] = "abc";
  expect_refused(refused_start(options), "server.port");

  DaemonOptions bad_threads;
  bad_threads.config["server.threads"] = "0";
  expect_refused(refused_start(bad_threads), "server.threads");

  DaemonOptions bad_level;
  bad_level.config["log.level"] = "loud";
  expect_refused(refused_start(bad_level), "log.level");
}

// A second daemon on a port in use must not share it (SO_REUSEPORT would split the requests
// between the two): it exits 78 naming the address, and the first one keeps every request.
TEST(Lifecycle, RefusesToStartWhenItsPortIsTaken) {
  auto first = DaemonProcess::start();
  for (const std::string host : {"127.0.0.1", "0.0.0.0"}) {
    DaemonOptions second;
    second.config = {{"server.host", host}, {"server.port", std::to_string(first->port())}};
    const auto result = refused_start(second);
    expect_refused(result, "cannot listen on " + host + ":" + std::to_string(first->port()));
    EXPECT_EQ(result.first, 78) << result.second;
  }
  constexpr int kCalls = 20;
  for (int i = 0; i < kCalls; ++i) ASSERT_EQ(first->call({{"op", "echo.ping"}}).status, 200);
  EXPECT_TRUE(eventually(
      [&] { return first->metric(R"(opbase_requests_total{op="echo.ping",code="OK"})") == kCalls; },
      5s))
      << "every call reached the first daemon";
}

TEST(Lifecycle, RefusesToStartWithAMalformedPropertiesFile) {
  DaemonOptions options;
  options.properties = "# a comment\nserver.threads = 8\nthis line has no equals sign\n";
  const auto result = refused_start(options);
  expect_refused(result, "opbase.properties:3");
  EXPECT_TRUE(contains(result.second, "this line has no equals sign")) << result.second;
}

TEST(Lifecycle, MalformedValueInThePropertiesFileIsNamedWithItsSource) {
  DaemonOptions options;
  options.properties = "server.max_body_bytes = lots\n";
  const auto result = refused_start(options);
  expect_refused(result, "server.max_body_bytes");
  EXPECT_TRUE(contains(result.second, "opbase.properties")) << result.second;
}

}  // namespace
}  // namespace opbase::test

namespace opbase::test {
namespace {

TEST(Lifecycle, RefusesToStartWhenTheLogFileCannotBeOpened) {
  DaemonOptions options;
  options.config["log.file"] = "/nonexistent-folder/opbase.log";
  auto daemon = DaemonProcess::spawn(options);
  const auto status = daemon->wait_exit(std::chrono::seconds(20));
  ASSERT_TRUE(status.has_value()) << "still running";
  EXPECT_NE(*status, 0);
  EXPECT_NE(daemon->log().find("cannot open log.file /nonexistent-folder/opbase.log"),
            std::string::npos)
      << daemon->log();
}

}  // namespace
}  // namespace opbase::test
