// Group commit for the sqlite driver (see sqlite_writer.hpp).
#include "store/sqlite/sqlite_writer.hpp"

#include <exception>

#include "opbase/thread_name.hpp"

namespace opbase::host::sqlite {
namespace {

// A bound on one group, so one commit never holds very many requests' results back.
constexpr std::size_t kMaxGroup = 256;

}  // namespace

struct Writer::Pending {
  Job job;
  Status status;
  bool done = false;
  std::condition_variable finished;
};

Writer::Writer(std::unique_ptr<Connection> connection)
    : connection_(std::move(connection)), thread_([this] { loop(); }) {}

Writer::~Writer() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

Status Writer::run(Job job) {
  auto pending = std::make_shared<Pending>();
  pending->job = std::move(job);
  std::unique_lock lock(mutex_);
  if (stopping_) return Status::internal("sqlite: the store is closing");
  queue_.push_back(pending);
  wake_.notify_one();
  pending->finished.wait(lock, [&] { return pending->done; });
  return pending->status;
}

void Writer::loop() {
  name_this_thread("sqlite-writer");
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, nothing left
    std::deque<std::shared_ptr<Pending>> group;
    while (!queue_.empty() && group.size() < kMaxGroup) {
      group.push_back(std::move(queue_.front()));
      queue_.pop_front();
    }
    lock.unlock();
    run_group(group);
    lock.lock();
    for (auto& pending : group) {
      pending->done = true;
      pending->finished.notify_one();
    }
  }
}

// Runs the group's jobs in one transaction. Statuses are written under no lock: waiters read
// them only after `done` is set under the mutex.
void Writer::run_group(std::deque<std::shared_ptr<Pending>>& group) {
  Connection& db = *connection_;
  if (Status begun = db.run_cached("BEGIN IMMEDIATE"); !begun) {
    for (auto& pending : group) pending->status = begun;
    return;
  }
  for (auto& pending : group) {
    if (Status s = db.run_cached("SAVEPOINT job"); !s) {
      pending->status = s;
      continue;
    }
    try {
      pending->status = pending->job(db);
    } catch (const std::exception& e) {
      pending->status = Status::internal(std::string("sqlite: write failed: ") + e.what());
    }
    if (!pending->status) db.run_cached("ROLLBACK TO job");
    db.run_cached("RELEASE job");
  }
  if (Status committed = db.run_cached("COMMIT"); !committed) {
    db.exec("ROLLBACK");
    for (auto& pending : group) {
      if (pending->status) pending->status = committed;
    }
  }
}

}  // namespace opbase::host::sqlite
