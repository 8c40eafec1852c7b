// Moves WAL checkpoints off the writer. With SQLite's automatic checkpoint, the commit that
// crosses the threshold copies the WAL into the database file (and fsyncs it) while every
// queued write waits. Here a thread with its own connection runs a PASSIVE checkpoint every
// `interval`, which never blocks the writer or readers; the writer keeps a high automatic
// threshold only as a safety net should this thread fall behind. Keeping the WAL checkpointed
// also lets the writer restart it from the beginning, so commits overwrite a file of stable size
// instead of growing it (cheaper fsyncs).
// Thread-safety: construct and destroy from one thread; the work runs on its own thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "store/sqlite/sqlite_connection.hpp"

namespace opbase::host::sqlite {

class Checkpointer {
 public:
  Checkpointer(std::unique_ptr<Connection> connection, std::chrono::milliseconds interval);
  ~Checkpointer();  // stops the thread (a checkpoint under way finishes first)
  Checkpointer(const Checkpointer&) = delete;
  Checkpointer& operator=(const Checkpointer&) = delete;

 private:
  void loop();

  std::unique_ptr<Connection> connection_;
  std::chrono::milliseconds interval_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace opbase::host::sqlite
