// Background WAL checkpoints for the sqlite driver (see sqlite_checkpointer.hpp).
#include "store/sqlite/sqlite_checkpointer.hpp"

#include "log/log.hpp"
#include "opbase/thread_name.hpp"

namespace opbase::host::sqlite {

Checkpointer::Checkpointer(std::unique_ptr<Connection> connection,
                           std::chrono::milliseconds interval)
    : connection_(std::move(connection)), interval_(interval), thread_([this] { loop(); }) {}

Checkpointer::~Checkpointer() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void Checkpointer::loop() {
  name_this_thread("sqlite-ckpt");
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, interval_, [&] { return stopping_; })) {
    lock.unlock();
    int log_frames = 0, checkpointed = 0;
    const int rc = sqlite3_wal_checkpoint_v2(connection_->handle(), nullptr,
                                             SQLITE_CHECKPOINT_PASSIVE, &log_frames, &checkpointed);
    if (rc != SQLITE_OK && rc != SQLITE_BUSY) {
      log::warn("sqlite", std::string("background checkpoint failed: ") +
                              sqlite3_errmsg(connection_->handle()));
    }
    lock.lock();
  }
}

}  // namespace opbase::host::sqlite
