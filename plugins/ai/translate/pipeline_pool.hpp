// A small pool of running pipelines for one Apertium direction. Pipelines start on first use,
// one more whenever a caller finds none idle, none starting, and fewer than `size` running.
// Starting one (a dozen programs loading their dictionaries: 0.2-0.6 s, several seconds on a busy
// machine) happens on the pool's own thread and ends with a probe message answered, within the
// start-up limit; callers only wait for an idle pipeline until their own deadline, then fail with
// error_type "timeout", while the start carries on for the next caller. A start that fails is
// reported to the callers waiting then.
//
// A pipeline that breaks (a program ended, a timeout, answers out of step) is discarded, and the
// work is tried once more on a fresh one unless the deadline has passed; an idle pipeline whose
// program has ended is noticed when it is next lent out, and replaced. A pipeline holds a lot of
// memory (a few hundred MB for some directions), so one left idle for `idle_stop_ms` is stopped
// by the pool's thread; the most recently used is lent first, so the others are the ones to age.
//
// Thread-safety: run() may be called from any number of threads at once; shutdown() from any
// thread (it kills a pipeline being started and joins the pool's thread), after which run()
// fails. The pool must outlive every run() call.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "opbase/status.hpp"
#include "translate/process_pipeline.hpp"

namespace opbase::ai {

struct PoolSettings {
  std::string name;  // the direction, e.g. "eng-cat", for messages
  int size = 2;
  int startup_timeout_ms = 60000;
  int idle_stop_ms = 600000;     // 0: idle pipelines are kept until shutdown
  std::string probe = "Hello.";  // stream text a new pipeline must answer before it is lent
};

class PipelinePool {
 public:
  using Clock = ProcessPipeline::Clock;
  // Starts the programs of one pipeline; called on the pool's thread.
  using Launcher = std::function<Result<std::unique_ptr<ProcessPipeline>>()>;

  PipelinePool(PoolSettings settings, Launcher launch);
  ~PipelinePool();
  PipelinePool(const PipelinePool&) = delete;
  PipelinePool& operator=(const PipelinePool&) = delete;

  // The answers of one pipeline to `messages` (ProcessPipeline::exchange).
  Result<std::vector<std::string>> run(const std::vector<std::string>& messages,
                                       Clock::time_point deadline);

  // Has a first pipeline started now, when none runs yet, without waiting for it.
  void start_early();

  // Stops the idle pipelines and the one being started now, each busy one when it comes back.
  void shutdown();

 private:
  struct Idle {
    std::unique_ptr<ProcessPipeline> pipeline;
    Clock::time_point since;
  };

  Result<std::unique_ptr<ProcessPipeline>> lend(Clock::time_point deadline);
  void give_back(std::unique_ptr<ProcessPipeline> pipeline);
  void forget_one();
  void want_start_locked();
  void pool_thread();
  // The pipelines idle for idle_stop_ms, taken out of idle_; the caller destroys them unlocked.
  std::vector<std::unique_ptr<ProcessPipeline>> take_expired_locked();
  Clock::time_point next_expiry_locked() const;
  void start_one();

  const PoolSettings settings_;
  const Launcher launch_;
  std::mutex mutex_;
  std::condition_variable changed_;  // for callers: a pipeline is back or started, a start failed
  std::condition_variable work_;     // for the pool's thread: a start wanted, or stopping
  std::vector<Idle> idle_;           // the most recently returned last; guarded by mutex_
  int running_ = 0;                  // idle, lent out or starting; guarded by mutex_
  int starts_wanted_ = 0;            // not yet taken up by the pool's thread; guarded by mutex_
  int starts_pending_ = 0;           // wanted or under way; guarded by mutex_
  ProcessPipeline* starting_ = nullptr;  // being probed on the pool's thread; guarded by mutex_
  Status last_start_failure_;            // guarded by mutex_
  uint64_t start_failures_ = 0;          // guarded by mutex_
  bool stopped_ = false;                 // guarded by mutex_
  std::thread thread_;                   // made on the first start, joined by shutdown()
};

}  // namespace opbase::ai
