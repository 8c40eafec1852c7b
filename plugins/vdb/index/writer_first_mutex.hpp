// WriterFirstMutex: a reader-writer lock where a waiting writer goes before readers that come
// after it. std::shared_mutex on glibc prefers readers, so under a steady stream of searches (each
// holding it shared for a millisecond, sixteen at once) a change could wait forever. Meets the
// SharedMutex requirements, for std::unique_lock and std::shared_lock.
//
// Thread-safety: that is its purpose.
#pragma once

#include <pthread.h>

#include <system_error>

namespace opbase::vdb {

class WriterFirstMutex {
 public:
  WriterFirstMutex() {
    pthread_rwlockattr_t attributes;
    pthread_rwlockattr_init(&attributes);
    pthread_rwlockattr_setkind_np(&attributes, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    const int failed = pthread_rwlock_init(&lock_, &attributes);
    pthread_rwlockattr_destroy(&attributes);
    if (failed != 0)
      throw std::system_error(failed, std::generic_category(), "pthread_rwlock_init");
  }
  ~WriterFirstMutex() { pthread_rwlock_destroy(&lock_); }
  WriterFirstMutex(const WriterFirstMutex&) = delete;
  WriterFirstMutex& operator=(const WriterFirstMutex&) = delete;

  void lock() { pthread_rwlock_wrlock(&lock_); }
  void unlock() { pthread_rwlock_unlock(&lock_); }
  void lock_shared() { pthread_rwlock_rdlock(&lock_); }
  void unlock_shared() { pthread_rwlock_unlock(&lock_); }

 private:
  pthread_rwlock_t lock_;
};

}  // namespace opbase::vdb
