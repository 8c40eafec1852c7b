// Placeholder until the driver lands.
#include "store/sqlite/sqlite_driver.hpp"

namespace opbase::host {
SqliteDriver::SqliteDriver(SqliteOptions options) : options_(std::move(options)) {}
Result<std::shared_ptr<ProjectStore>> SqliteDriver::open(std::string_view) {
  return Status::internal("the sqlite driver is not built yet");
}
}  // namespace opbase::host
