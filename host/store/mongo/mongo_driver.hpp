// The mongodb driver: one database per project on a libmongoc client pool.
#pragma once

#include <string>
#include <vector>

#include "store/document_store.hpp"

namespace opbase::host {

struct MongoOptions {
  std::string uri;                         // storage.mongodb.uri
  std::string database_prefix = "opbase_";  // database of project P: <prefix>P
  std::vector<IndexSpec> indexes;
};

class MongoDriver : public StoreDriver {
 public:
  explicit MongoDriver(MongoOptions options);
  ~MongoDriver() override;
  std::string_view name() const override { return "mongodb"; }
  Result<std::shared_ptr<ProjectStore>> open(std::string_view project_id) override;

 private:
  MongoOptions options_;
};

}  // namespace opbase::host
