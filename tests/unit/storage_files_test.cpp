// The embedded store's files under storage.path: which a backup copies, which a restore
// replaces, the names it keeps them aside under, and the refusal of the MongoDB store.
#include "backup/storage_files.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "temp_dir.hpp"

namespace opbase::host {
namespace {

void touch(const std::string& path) { std::ofstream(path) << "x"; }

TEST(StorageFiles, StoresAndProjectFilesInAFolder) {
  const test::TempDir dir("opbase-storage-files");
  ASSERT_FALSE(dir.path().empty());
  for (const char* name :
       {"shop.db", "shop.db-wal", "shop.db-shm", "default.db", "default.db-journal",
        "default-project.properties", "opbase.lock", "notes.txt", "Shop.db", "x.db-wal",
        "shop.db.before-restore-20260101T000000Z", "shop.db.before-restore-20260101T000000Z-wal"}) {
    touch(dir.path() + "/" + name);
  }
  std::filesystem::create_directory(dir.path() + "/folder.db");
  std::filesystem::create_directory(dir.path() + "/.restore-abc");

  const auto stores = store_files_in(dir.path());
  ASSERT_TRUE(stores.is_ok());
  EXPECT_EQ(*stores, (std::vector<std::string>{"default.db", "shop.db"}));
  const auto project = project_files_in(dir.path());
  ASSERT_TRUE(project.is_ok());
  EXPECT_EQ(*project, (std::vector<std::string>{"default-project.properties", "default.db",
                                                "default.db-journal", "folder.db", "shop.db",
                                                "shop.db-shm", "shop.db-wal", "x.db-wal"}));

  const auto none = project_files_in(dir.path() + "/nosuch");
  ASSERT_TRUE(none.is_ok());
  EXPECT_TRUE(none->empty());
  EXPECT_FALSE(store_files_in(dir.path() + "/nosuch").is_ok());
}

TEST(StorageFiles, KeptAsideNamesKeepADatabaseWithItsJournal) {
  const std::string suffix = ".before-restore-20260101T000000Z";
  EXPECT_EQ(kept_aside_name("shop.db", suffix), "shop.db" + suffix);
  EXPECT_EQ(kept_aside_name("shop.db-wal", suffix), "shop.db" + suffix + "-wal");
  EXPECT_EQ(kept_aside_name("shop.db-shm", suffix), "shop.db" + suffix + "-shm");
  EXPECT_EQ(kept_aside_name("default-project.properties", suffix),
            "default-project.properties" + suffix);
}

TEST(StorageFiles, OnlyTheEmbeddedStoreIsBackedUp) {
  EXPECT_TRUE(require_embedded_store(Config::defaults_with(), "backup").is_ok());
  const Status mongo =
      require_embedded_store(Config::defaults_with({{"storage.driver", "mongodb"}}), "restore");
  EXPECT_EQ(mongo.message(),
            "storage.driver is mongodb: opbase restore covers the embedded store only; back up "
            "and restore the databases opbase_<project> with MongoDB's own tools (mongodump, "
            "mongorestore)");
  EXPECT_FALSE(
      require_embedded_store(Config::defaults_with({{"storage.driver", "redis"}}), "backup")
          .is_ok());
  EXPECT_EQ(storage_path_of(Config::defaults_with({{"storage.path", "/srv/x"}})), "/srv/x");
}

}  // namespace
}  // namespace opbase::host
