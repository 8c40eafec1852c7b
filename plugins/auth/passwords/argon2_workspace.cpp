#include "passwords/argon2_workspace.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <semaphore>
#include <thread>
#include <vector>

namespace opbase::auth {

struct Argon2Workspace::Buffer {
  std::unique_ptr<uint8_t[]> bytes;
  size_t size = 0;
};

namespace {

constexpr std::ptrdiff_t kMostSlots = 256;

std::ptrdiff_t slot_count() {
  return std::clamp<std::ptrdiff_t>(std::thread::hardware_concurrency(), 1, kMostSlots);
}

// One buffer per slot: whoever holds a slot finds a free buffer.
struct Pool {
  std::counting_semaphore<kMostSlots> slots{slot_count()};
  std::mutex mutex;
  std::vector<std::unique_ptr<Argon2Workspace::Buffer>> free;

  Pool() {
    for (std::ptrdiff_t i = 0; i < slot_count(); ++i) {
      free.push_back(std::make_unique<Argon2Workspace::Buffer>());
    }
  }
};

Pool& pool() {
  static Pool the_pool;
  return the_pool;
}

// argon2's allocator callbacks carry no user pointer: the workspace of the running thread.
thread_local Argon2Workspace::Buffer* current = nullptr;

int allocate(uint8_t** memory, size_t bytes) {
  if (current == nullptr || bytes > Argon2Workspace::kMostKeptBytes) {
    *memory = static_cast<uint8_t*>(std::malloc(bytes));
    return *memory == nullptr ? ARGON2_MEMORY_ALLOCATION_ERROR : ARGON2_OK;
  }
  if (current->size < bytes) {
    current->bytes.reset();  // free the old one first: never hold both
    current->size = 0;
    current->bytes.reset(new (std::nothrow) uint8_t[bytes]);
    if (!current->bytes) return ARGON2_MEMORY_ALLOCATION_ERROR;
    current->size = bytes;
  }
  *memory = current->bytes.get();
  return ARGON2_OK;
}

// argon2 has already wiped the memory (its clear_internal_memory) before it calls this.
void deallocate(uint8_t* memory, size_t /*bytes*/) {
  if (current != nullptr && memory == current->bytes.get()) return;  // kept for the next run
  std::free(memory);
}

}  // namespace

Argon2Workspace::Argon2Workspace() {
  Pool& p = pool();
  p.slots.acquire();
  const std::lock_guard lock(p.mutex);
  buffer_ = p.free.back().release();
  p.free.pop_back();
}

Argon2Workspace::~Argon2Workspace() {
  if (current == buffer_) current = nullptr;
  Pool& p = pool();
  {
    const std::lock_guard lock(p.mutex);
    p.free.emplace_back(buffer_);
  }
  p.slots.release();
}

void Argon2Workspace::attach(argon2_context& context) const {
  current = buffer_;
  context.allocate_cbk = allocate;
  context.free_cbk = deallocate;
}

}  // namespace opbase::auth
