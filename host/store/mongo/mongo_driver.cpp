// Placeholder until the driver lands.
#include "store/mongo/mongo_driver.hpp"

namespace opbase::host {
MongoDriver::MongoDriver(MongoOptions options) : options_(std::move(options)) {}
MongoDriver::~MongoDriver() = default;
Result<std::shared_ptr<ProjectStore>> MongoDriver::open(std::string_view) {
  return Status::internal("the mongodb driver is not built yet");
}
}  // namespace opbase::host
