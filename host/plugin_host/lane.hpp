// Lane: a plugin's own threads for the ops it registered with register_lane_op (abi.h): ops that
// wait on another server (a model server, say) run here instead of on the HTTP workers, so a slow
// server holds at most this lane's threads and every other op keeps its workers and latency.
// A bounded queue sits in front of the threads; when it is full the call is refused at once
// (503 RATE_LIMIT_EXCEEDED, reason "lane_full") rather than queued for ever.
//
// Thread-safety: try_run from any thread; stop() once, from the thread stopping the gateway.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "http/work_queue.hpp"

namespace opbase::host {

struct LaneSize {
  int threads = 16;
  size_t queue = 256;
};

class Lane {
 public:
  // `plugin` names the lane's threads ("lane-<plugin>", cut to the 15 bytes a thread name has).
  Lane(std::string plugin, LaneSize size);

  // Queues `job`; false when the queue is full or the lane has stopped. A job runs with
  // `stopping` true when the lane stopped before its turn came: it should answer at once
  // (the server is going away) instead of doing its work.
  bool try_run(std::function<void(bool stopping)> job);

  // From now on jobs still queued run with `stopping` true, and try_run refuses new ones.
  void begin_stopping() { stopping_.store(true); }
  bool stopping() const { return stopping_.load(); }
  // begin_stopping(), then the queued jobs run, the ones under way finish, the threads join.
  void stop();

  const std::string& plugin() const { return plugin_; }
  LaneSize size() const { return size_; }
  // Calls waiting for a thread, running, and refused (full or stopping) so far: for /metrics.
  int64_t queued() const { return queued_.load(); }
  int64_t running() const { return running_.load(); }
  uint64_t refused() const { return refused_.load(); }

 private:
  const std::string plugin_;
  const LaneSize size_;
  std::atomic<bool> stopping_{false};
  std::atomic<int64_t> admitted_{0};  // queued + running
  std::atomic<int64_t> queued_{0};
  std::atomic<int64_t> running_{0};
  std::atomic<uint64_t> refused_{0};
  http::WorkQueue queue_;
};

}  // namespace opbase::host
