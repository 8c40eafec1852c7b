// WorkQueue: a fixed set of worker threads taking jobs from one bounded queue, for the work the
// HTTP front hands over (a whole request to answer). Bounded so a flood of requests waits in a
// known amount of memory and the overflow is refused at once rather than queued for ever.
//
// Thread-safety: try_push from any thread; stop() from one thread, once.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace opbase::host::http {

class WorkQueue {
 public:
  // `threads` workers named `name` (a short thread name), at most `capacity` jobs waiting.
  WorkQueue(int threads, size_t capacity, std::string name);
  ~WorkQueue();
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  // Queues `job`; false when `capacity` jobs already wait or the queue is stopping.
  bool try_push(std::function<void()> job);

  // Runs the jobs still queued, then joins the workers. Idempotent.
  void stop();

 private:
  void work();

  const size_t capacity_;
  std::mutex mu_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace opbase::host::http
