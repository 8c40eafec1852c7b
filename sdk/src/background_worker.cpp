#include "opbase/background_worker.hpp"

#include "opbase/thread_name.hpp"

namespace opbase {

BackgroundWorker::BackgroundWorker(std::string name, Round round)
    : name_(std::move(name)), round_(std::move(round)), thread_([this] { run(); }) {}

BackgroundWorker::~BackgroundWorker() { stop(); }

void BackgroundWorker::wake() {
  {
    const std::lock_guard lock(mutex_);
    woken_ = true;
  }
  changed_.notify_all();
}

void BackgroundWorker::stop() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void BackgroundWorker::run() {
  name_this_thread(name_);
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    woken_ = false;
    lock.unlock();
    const std::chrono::milliseconds pause = round_();
    lock.lock();
    if (pause.count() > 0) {
      changed_.wait_for(lock, pause, [this] { return stopping_ || woken_; });
    }
  }
}

}  // namespace opbase
