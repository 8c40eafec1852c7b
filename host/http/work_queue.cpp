#include "http/work_queue.hpp"

#include "opbase/thread_name.hpp"

namespace opbase::host::http {

WorkQueue::WorkQueue(int threads, size_t capacity, std::string name) : capacity_(capacity) {
  workers_.reserve(static_cast<size_t>(threads));
  for (int i = 0; i < threads; ++i) {
    workers_.emplace_back([this, name] {
      name_this_thread(name);
      work();
    });
  }
}

WorkQueue::~WorkQueue() { stop(); }

bool WorkQueue::try_push(std::function<void()> job) {
  {
    std::lock_guard lock(mu_);
    if (stopping_ || jobs_.size() >= capacity_) return false;
    jobs_.push_back(std::move(job));
  }
  ready_.notify_one();
  return true;
}

void WorkQueue::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  ready_.notify_all();
  for (std::thread& worker : workers_) {
    if (worker.joinable()) worker.join();
  }
}

void WorkQueue::work() {
  while (true) {
    std::function<void()> job;
    {
      std::unique_lock lock(mu_);
      ready_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stopping, and nothing left to run
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    job();
  }
}

}  // namespace opbase::host::http
