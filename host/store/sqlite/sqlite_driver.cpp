// The sqlite driver: opens one SqliteProjectStore per project file.
#include "store/sqlite/sqlite_driver.hpp"

#include <filesystem>

#include "store/sqlite/sqlite_project_store.hpp"

namespace opbase::host {

SqliteDriver::SqliteDriver(SqliteOptions options) : options_(std::move(options)) {}

Result<std::shared_ptr<ProjectStore>> SqliteDriver::open(std::string_view project_id) {
  if (project_id.empty() || project_id.find_first_of("/\\") != std::string_view::npos ||
      project_id.front() == '.') {
    return Status::internal("sqlite: '" + std::string(project_id) + "' cannot name a file");
  }
  std::lock_guard lock(mutex_);
  if (auto it = open_.find(project_id); it != open_.end()) return it->second;
  std::error_code error;
  std::filesystem::create_directories(options_.directory, error);
  if (error) {
    return Status::internal("sqlite: cannot create " + options_.directory + ": " + error.message());
  }
  sqlite::StoreOptions store_options{
      (std::filesystem::path(options_.directory) / (std::string(project_id) + ".db")).string(),
      options_.readers, options_.synchronous_full, options_.indexes, options_.auto_indexes};
  auto store = sqlite::SqliteProjectStore::open(std::move(store_options));
  if (!store) return store.status();
  std::shared_ptr<ProjectStore> opened = std::move(store).value();
  open_.emplace(std::string(project_id), opened);
  return opened;
}

}  // namespace opbase::host
