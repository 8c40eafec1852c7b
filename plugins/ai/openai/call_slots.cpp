#include "openai/call_slots.hpp"

namespace opbase::ai {

CallSlots::Slot::~Slot() {
  if (owner_ != nullptr) owner_->release();
}

CallSlots::Slot CallSlots::acquire(std::chrono::steady_clock::time_point deadline) {
  std::unique_lock lock(mutex_);
  if (!freed_.wait_until(lock, deadline, [this] { return free_ > 0; })) return Slot();
  --free_;
  return Slot(this);
}

void CallSlots::release() {
  {
    std::lock_guard lock(mutex_);
    ++free_;
  }
  freed_.notify_one();
}

}  // namespace opbase::ai
