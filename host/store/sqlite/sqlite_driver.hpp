// The sqlite driver: the embedded default store. One database file per project,
// <storage.path>/<project>.db (sqlite_project_store.hpp), opened once per daemon.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "store/index_advisor.hpp"
#include "store/project_store.hpp"

namespace opbase::host {

struct SqliteOptions {
  std::string directory;         // one file per project: <directory>/<project>.db
  int readers = 4;               // reader connections per project
  bool synchronous_full = true;  // fsync every commit (power-loss safe); false: NORMAL (crash safe)
  std::vector<IndexSpec> indexes;
  AutoIndexPolicy auto_indexes;
};

class SqliteDriver : public StoreDriver {
 public:
  explicit SqliteDriver(SqliteOptions options);
  std::string_view name() const override { return "sqlite"; }
  // The same store for the same project id: one file has one writer.
  Result<std::shared_ptr<ProjectStore>> open(std::string_view project_id) override;

 private:
  SqliteOptions options_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<ProjectStore>, std::less<>> open_;
};

}  // namespace opbase::host
