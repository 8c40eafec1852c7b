#include "translate/pipeline_pool.hpp"

#include "translate/translate_errors.hpp"

namespace opbase::ai {

PipelinePool::PipelinePool(PoolSettings settings, Launcher launch)
    : settings_(std::move(settings)), launch_(std::move(launch)) {}

PipelinePool::~PipelinePool() { shutdown(); }

void PipelinePool::shutdown() {
  std::vector<Idle> stopping;
  std::thread thread;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = true;
    running_ -= static_cast<int>(idle_.size());
    stopping.swap(idle_);
    // Its probe then fails at once, and the pool's thread discards it.
    if (starting_ != nullptr) starting_->kill();
    thread.swap(thread_);
  }
  changed_.notify_all();
  work_.notify_all();
  if (thread.joinable()) thread.join();
  // `stopping` goes out of scope here, outside the lock: its destructors kill and collect.
}

void PipelinePool::forget_one() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    --running_;
  }
  changed_.notify_all();
}

void PipelinePool::give_back(std::unique_ptr<ProcessPipeline> pipeline) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!stopped_ && pipeline->usable()) {
      idle_.push_back({std::move(pipeline), Clock::now()});
    } else {
      --running_;
    }
  }
  changed_.notify_all();
  work_.notify_all();  // the pool's thread may now have an expiry to wait for
  // A pipeline not kept is destroyed here, outside the lock.
}

void PipelinePool::want_start_locked() {
  ++running_;
  ++starts_wanted_;
  ++starts_pending_;
  if (!thread_.joinable()) thread_ = std::thread([this] { pool_thread(); });
  work_.notify_all();
}

void PipelinePool::start_early() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!stopped_ && running_ == 0) want_start_locked();
}

std::vector<std::unique_ptr<ProcessPipeline>> PipelinePool::take_expired_locked() {
  std::vector<std::unique_ptr<ProcessPipeline>> expired;
  if (settings_.idle_stop_ms <= 0) return expired;
  const auto oldest_kept = Clock::now() - std::chrono::milliseconds(settings_.idle_stop_ms);
  std::vector<Idle> kept;
  for (Idle& idle : idle_) {
    if (idle.since <= oldest_kept) {
      expired.push_back(std::move(idle.pipeline));
    } else {
      kept.push_back(std::move(idle));
    }
  }
  idle_.swap(kept);
  running_ -= static_cast<int>(expired.size());
  return expired;
}

PipelinePool::Clock::time_point PipelinePool::next_expiry_locked() const {
  auto next = Clock::time_point::max();
  if (settings_.idle_stop_ms <= 0) return next;
  for (const Idle& idle : idle_) {
    next = std::min(next, idle.since + std::chrono::milliseconds(settings_.idle_stop_ms));
  }
  return next;
}

void PipelinePool::pool_thread() {
  for (;;) {
    std::vector<std::unique_ptr<ProcessPipeline>> expired;
    bool start = false;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      // Woken by a wanted start, a returned pipeline (a new expiry), stopping, or the expiry.
      if (!stopped_ && starts_wanted_ == 0) {
        const auto expiry = next_expiry_locked();
        if (expiry == Clock::time_point::max()) {
          work_.wait(lock);
        } else {
          work_.wait_until(lock, expiry);
        }
      }
      if (stopped_) return;
      expired = take_expired_locked();
      if (starts_wanted_ > 0) {
        --starts_wanted_;
        start = true;
      }
    }
    expired.clear();  // stopped here, outside the lock
    if (start) start_one();
  }
}

void PipelinePool::start_one() {
  Result<std::unique_ptr<ProcessPipeline>> started = launch_();
  Status failure = started.status();
  std::unique_ptr<ProcessPipeline> pipeline;
  if (started) {
    pipeline = std::move(*started);
    bool stopped = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopped = stopped_;
      starting_ = pipeline.get();
    }
    if (!stopped) {
      const auto limit = Clock::now() + std::chrono::milliseconds(settings_.startup_timeout_ms);
      Result<std::vector<std::string>> probe = pipeline->exchange({settings_.probe}, limit);
      failure = probe.status();
      if (!probe && translation_error_type(failure) == "timeout") {
        failure = translation_failure("timeout",
                                      "the Apertium pipeline " + settings_.name +
                                          " did not start within " +
                                          std::to_string(settings_.startup_timeout_ms) + " ms",
                                      true);
      }
    }
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    starting_ = nullptr;
    --starts_pending_;
    if (failure.is_ok() && !stopped_) {
      idle_.push_back({std::move(pipeline), Clock::now()});
    } else {
      --running_;
      if (!failure.is_ok()) {
        last_start_failure_ = failure;
        ++start_failures_;
      }
    }
  }
  changed_.notify_all();
  // A pipeline not kept is destroyed here, outside the lock.
}

Result<std::unique_ptr<ProcessPipeline>> PipelinePool::lend(Clock::time_point deadline) {
  std::unique_lock<std::mutex> lock(mutex_);
  const uint64_t failures_before = start_failures_;
  for (;;) {
    if (stopped_) {
      return translation_failure("unavailable", "the translator has been shut down", false);
    }
    if (!idle_.empty()) {
      std::unique_ptr<ProcessPipeline> pipeline = std::move(idle_.back().pipeline);
      idle_.pop_back();
      lock.unlock();
      if (pipeline->usable()) return pipeline;
      pipeline.reset();  // a program of it ended while it was idle: start another
      lock.lock();
      --running_;
      continue;
    }
    if (start_failures_ != failures_before) return last_start_failure_;
    if (running_ < settings_.size && starts_pending_ == 0) want_start_locked();
    if (changed_.wait_until(lock, deadline) == std::cv_status::timeout && idle_.empty() &&
        !stopped_ && start_failures_ == failures_before) {
      return translation_failure(
          "timeout",
          "no Apertium pipeline for " + settings_.name + " was free or started before the deadline",
          true);
    }
  }
}

Result<std::vector<std::string>> PipelinePool::run(const std::vector<std::string>& messages,
                                                   Clock::time_point deadline) {
  for (int attempt = 1;; ++attempt) {
    Result<std::unique_ptr<ProcessPipeline>> lent = lend(deadline);
    if (!lent) return lent.status();
    Result<std::vector<std::string>> answers = (*lent)->exchange(messages, deadline);
    give_back(std::move(*lent));
    if (answers || attempt == 2 || Clock::now() >= deadline) return answers;
    if (translation_error_type(answers.status()) == "timeout") return answers;
  }
}

}  // namespace opbase::ai
