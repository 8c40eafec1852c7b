// The mongodb driver: one database per project (<database_prefix><project_id>) on one libmongoc
// client pool shared by every project store of the driver. record.hpp describes what a project's
// database holds. Thread-safety: the driver and its stores may be used from any thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "store/index_advisor.hpp"
#include "store/project_store.hpp"

namespace opbase::host {

namespace mongo {
class ClientPool;
}

struct MongoOptions {
  std::string uri;                          // storage.mongodb.uri
  std::string database_prefix = "opbase_";  // database of project P: <prefix>P
  std::vector<IndexSpec> indexes;
  AutoIndexPolicy auto_indexes;  // mongo_auto_indexes.hpp
};

class MongoDriver : public StoreDriver {
 public:
  // Parses the URI and makes the pool (no connection yet); a bad URI makes every open() fail.
  explicit MongoDriver(MongoOptions options);
  ~MongoDriver() override;
  std::string_view name() const override { return "mongodb"; }
  // Creates the project's indexes (idempotent), which also checks that the server responds.
  Result<std::shared_ptr<ProjectStore>> open(std::string_view project_id) override;

 private:
  MongoOptions options_;
  std::shared_ptr<mongo::ClientPool> pool_;  // null when the URI was refused
  Status pool_error_;
};

}  // namespace opbase::host
