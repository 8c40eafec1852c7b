// CallSlots: a counting semaphore with a deadline, so one provider keeps at most `capacity`
// calls in flight at the model server; a call that cannot get a slot in time fails as "busy".
// A Slot gives its place back when it goes out of scope.
//
// Thread-safety: acquire() may be called from any number of threads at once.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace opbase::ai {

class CallSlots {
 public:
  explicit CallSlots(int capacity) : free_(capacity < 1 ? 1 : capacity) {}
  CallSlots(const CallSlots&) = delete;
  CallSlots& operator=(const CallSlots&) = delete;

  class Slot {
   public:
    Slot() = default;
    explicit Slot(CallSlots* owner) : owner_(owner) {}
    Slot(Slot&& other) noexcept : owner_(other.owner_) { other.owner_ = nullptr; }
    Slot& operator=(Slot&&) = delete;
    ~Slot();
    explicit operator bool() const { return owner_ != nullptr; }

   private:
    CallSlots* owner_ = nullptr;  // not owned; null: no slot
  };

  // A slot, or an empty Slot when none came free before `deadline`.
  Slot acquire(std::chrono::steady_clock::time_point deadline);

 private:
  void release();

  std::mutex mutex_;
  std::condition_variable freed_;
  int free_;
};

}  // namespace opbase::ai
