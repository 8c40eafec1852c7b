// The sqlite driver: the embedded default store. One database file per project under
// `storage.path`, WAL, one writer thread committing groups of writes, a pool of reader
// connections. Details in sqlite_driver.cpp.
#pragma once

#include <string>
#include <vector>

#include "store/document_store.hpp"

namespace opbase::host {

struct SqliteOptions {
  std::string directory;        // one file per project: <directory>/<project>.db
  int readers = 4;              // reader connections per project
  bool synchronous_full = true;  // fsync every commit (power-loss safe); false: NORMAL (crash safe)
  std::vector<IndexSpec> indexes;
};

class SqliteDriver : public StoreDriver {
 public:
  explicit SqliteDriver(SqliteOptions options);
  std::string_view name() const override { return "sqlite"; }
  Result<std::shared_ptr<ProjectStore>> open(std::string_view project_id) override;

 private:
  SqliteOptions options_;
};

}  // namespace opbase::host
