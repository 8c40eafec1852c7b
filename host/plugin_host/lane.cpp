#include "plugin_host/lane.hpp"

#include <utility>

namespace opbase::host {

Lane::Lane(std::string plugin, LaneSize size)
    : plugin_(std::move(plugin)),
      size_(size),
      // Admission is counted here (admitted_), so the queue never refuses what was admitted.
      queue_(size.threads, static_cast<size_t>(size.threads) + size.queue,
             ("lane-" + plugin_).substr(0, 15)) {}

// A call is admitted while fewer than threads + queue are on the lane: counting them, rather than
// the jobs no thread has taken yet, lets a burst use every idle thread even before the threads
// wake up to take their jobs.
bool Lane::try_run(std::function<void(bool stopping)> job) {
  const int64_t limit = static_cast<int64_t>(size_.threads) + static_cast<int64_t>(size_.queue);
  int64_t on_lane = admitted_.load();
  while (!stopping_.load() && on_lane < limit) {
    if (!admitted_.compare_exchange_weak(on_lane, on_lane + 1)) continue;
    queued_.fetch_add(1);
    const bool pushed = queue_.try_push([this, job = std::move(job)] {
      queued_.fetch_sub(1);
      running_.fetch_add(1);
      job(stopping_.load());
      running_.fetch_sub(1);
      admitted_.fetch_sub(1);
    });
    if (pushed) return true;
    queued_.fetch_sub(1);
    admitted_.fetch_sub(1);
    break;
  }
  refused_.fetch_add(1);
  return false;
}

void Lane::stop() {
  begin_stopping();
  queue_.stop();
}

}  // namespace opbase::host
