// BackgroundWorker: a plugin's thread of background work (purging stale records, building an
// index). It runs `round` at once, then again each time the pause that round answered is over,
// until stop(). stop() wakes a pausing worker at once and joins it; a round under way finishes
// first, so keep a round to a few seconds. The thread is named `name` (Linux keeps 15 bytes),
// which `top -H`, `ps -L` and perf show.
//
//   worker_ = std::make_unique<BackgroundWorker>("file-purge", [this] {
//     purge_all();
//     return std::chrono::milliseconds(purge_interval_ms_);
//   });
//   ...
//   worker_->stop();  // in shutdown, before what the rounds use goes
//
// Thread-safety: wake() from any thread, a round's included; stop() and destruction from the
// thread that made the worker, never from a round.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace opbase {

class BackgroundWorker {
 public:
  // One round of work; answers how long to pause before the next (zero or less: none).
  using Round = std::function<std::chrono::milliseconds()>;

  // Starts the thread, which runs the first round at once.
  BackgroundWorker(std::string name, Round round);
  ~BackgroundWorker();  // stop()
  BackgroundWorker(const BackgroundWorker&) = delete;
  BackgroundWorker& operator=(const BackgroundWorker&) = delete;

  // Ends the pause under way, or the next one: the next round starts now.
  void wake();
  // Wakes the worker, lets a round under way finish, and joins the thread. Idempotent.
  void stop();

 private:
  void run();

  const std::string name_;
  const Round round_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool stopping_ = false;  // guarded by mutex_
  bool woken_ = false;     // guarded by mutex_
  std::thread thread_;     // last: it starts once everything above is ready
};

}  // namespace opbase
