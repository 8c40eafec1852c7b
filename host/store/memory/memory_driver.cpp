// Placeholder until the driver lands.
#include "store/memory/memory_driver.hpp"

namespace opbase::host {
Result<std::shared_ptr<ProjectStore>> MemoryDriver::open(std::string_view) {
  return Status::internal("the memory driver is not built yet");
}
}  // namespace opbase::host
