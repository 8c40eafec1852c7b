// The one writer of a sqlite database, with group commit. Writes from all request threads queue
// here; one thread takes every job waiting, runs each in its own SAVEPOINT (a failed job rolls
// back alone), commits the group in one transaction, and only then reports to each job. So a write
// is acknowledged only once it is durable (one fsync per group with synchronous=FULL), and under
// concurrency many writes share one commit.
// Thread-safety: run() may be called from any thread, concurrently.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "opbase/status.hpp"
#include "store/sqlite/sqlite_connection.hpp"

namespace opbase::host::sqlite {

class Writer {
 public:
  using Job = std::function<Status(Connection&)>;

  explicit Writer(std::unique_ptr<Connection> connection);
  ~Writer();  // finishes the queued jobs, then stops
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // Runs `job` inside the writer's transaction and waits for the commit. The job's own failure,
  // or the commit's, is the answer; on failure nothing the job wrote is kept.
  Status run(Job job);

 private:
  struct Pending;
  void loop();
  void run_group(std::deque<std::shared_ptr<Pending>>& group);

  std::unique_ptr<Connection> connection_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Pending>> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace opbase::host::sqlite
